// What a hook's handlers, observers and plugin tools are, and what they
// get besides their input. Types only, and no import of the modules that
// use them, so that the generated registration methods, the registry and
// the session can all depend on this module without depending on each other.

import type { Intercepted } from "./exports.gen.js";
import type { BeforeToolParams, Continue, LegacyEvent, Requests, RuntimeEvent, ToolResult } from "./protocol.gen.js";
import type { ObjectSchema } from "./schema.js";

/** A value, or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>;

/** What every handler gets besides its params. */
export interface Context {
  /** Aborted when the hook is told to stop (SIGTERM, SIGINT). */
  readonly signal: AbortSignal;
  /**
   * The hookwire extensions the host announced in hook.hello (see
   * HostExtensions): none before the handshake, or from a host that
   * announces none, which then applies none.
   */
  readonly extensions: readonly string[];
}

/** What an observer gets besides the event. */
export interface EventContext extends Context {
  /** The notification as an older host sent it, when it came as hook.event. */
  readonly legacy?: LegacyEvent;
}

/** What a plugin tool gets besides its arguments. */
export interface ToolContext extends Context {
  /** The tool call as received in hook.before_tool. */
  readonly call: BeforeToolParams;
}

/**
 * What a handler of a request method returns: a result the method allows,
 * or, for a method that has the action continue, nothing (undefined), which
 * answers { action: "continue" }. An approval has no continue: its handler
 * must decide.
 */
export type HandlerResult<M extends Intercepted> =
  | Requests[M]["result"]
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing (void) continues
  | (Continue extends Requests[M]["result"] ? undefined | void : never);

/** A handler of a request method: its params in, a result it allows out. */
export type Handler<M extends Intercepted> = (
  params: Requests[M]["params"],
  ctx: Context,
) => Awaitable<HandlerResult<M>>;

/** Runs when the hook stops; see Hook.onClose. */
export type Closer = (ctx: Context) => Awaitable<void>;

/** An observer of runtime events. */
export type Observer = (event: RuntimeEvent, ctx: EventContext) => Awaitable<void>;

/** A plugin tool as the LLM sees it. */
export interface ToolSpec<P extends ObjectSchema = ObjectSchema> {
  /** The name the LLM calls. */
  readonly name: string;
  /** What the tool does, for the LLM. */
  readonly description?: string;
  /** The JSON Schema of the arguments object. */
  readonly parameters: P;
}

/**
 * Runs a plugin tool: the arguments are checked against the tool's schema
 * first. Return the text the LLM sees, or a whole ToolResult.
 */
export type ToolFunction<A> = (args: A, ctx: ToolContext) => Awaitable<string | ToolResult>;

/** @internal */
export interface Tool {
  readonly spec: ToolSpec;
  readonly run: ToolFunction<never>;
}

/** @internal */
export interface ObserverEntry {
  readonly match: (kind: string) => boolean;
  readonly observe: Observer;
}
