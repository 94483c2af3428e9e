import { HookwireError } from "./errors.js";
import { kindMatcher } from "./events.js";
import type { Intercepted } from "./exports.gen.js";
import { HookMethods, routes } from "./methods.gen.js";
import {
  Modes,
  type BeforeToolParams,
  type Continue,
  type LegacyEvent,
  type Mode,
  type Requests,
  type RuntimeEvent,
  type ToolResult,
} from "./protocol.gen.js";
import { run } from "./run.js";
import type { Infer, ObjectSchema } from "./schema.js";

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
  | (Continue extends Requests[M]["result"] ? undefined | void : never);

/** A handler of a request method: its params in, a result it allows out. */
export type Handler<M extends Intercepted> = (params: Requests[M]["params"], ctx: Context) => Awaitable<HandlerResult<M>>;

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

/**
 * A hook: the handlers, observers and plugin tools it registers, and the
 * loop that serves them on stdin and stdout (`run`). Its registration method
 * of each request (beforeLLM and the others) comes from HookMethods.
 */
export class Hook extends HookMethods {
  /** The name given in answer to hook.hello; the host's name for the hook when unset. */
  readonly name: string | undefined;
  /** @internal */
  readonly handlers: { [M in Intercepted]?: Handler<M> } = {};
  /** @internal */
  readonly observers: ObserverEntry[] = [];
  /** @internal */
  readonly tools = new Map<string, Tool>();
  /** @internal */
  readonly closers: Closer[] = [];

  constructor(name?: string) {
    super();
    this.name = name;
  }

  /** Handles a request method. Each method has at most one handler. */
  override handle<M extends Intercepted>(method: M, handler: Handler<M>): this {
    if (this.handlers[method] !== undefined) throw new HookwireError(`hookwire: ${method} already has a handler`);
    (this.handlers as { [K in M]?: Handler<M> })[method] = handler;
    return this;
  }

  /**
   * Observes runtime events whose kind matches one of the patterns (`*` for
   * any run of characters, `?` for one). Events of older hosts
   * (hook.event) arrive as runtime events too, their kinds mapped.
   */
  on(kinds: string | readonly string[], observer: Observer): this {
    const matchers = (typeof kinds === "string" ? [kinds] : kinds).map(kindMatcher);
    this.observers.push({ match: (kind) => matchers.some((m) => m(kind)), observe: observer });
    return this;
  }

  /**
   * Declares a plugin tool: the hook adds it to every LLM request
   * (hook.before_llm) and answers its calls itself (hook.before_tool,
   * respond), after checking the arguments against `parameters`. The type of
   * `args` follows from the schema.
   */
  tool<const P extends ObjectSchema>(spec: ToolSpec<P>, fn: ToolFunction<Infer<P>>): this {
    if (this.tools.has(spec.name)) throw new HookwireError(`hookwire: tool ${spec.name} is already declared`);
    this.tools.set(spec.name, { spec, run: fn as ToolFunction<never> });
    return this;
  }

  /**
   * Runs fn when the hook stops: once stdin is closed and the calls in flight
   * are answered, or on SIGTERM and SIGINT (ctx.signal is then aborted). The
   * process exits once every such function, in registration order, is done;
   * one that throws is logged.
   */
  onClose(fn: Closer): this {
    this.closers.push(fn);
    return this;
  }

  /** The hello modes the registered handlers, observers and tools need. */
  modes(): Mode[] {
    const need = new Set<Mode>();
    if (this.observers.length > 0) need.add(Modes.Observe);
    // A plugin tool is added to LLM requests and answers tool calls.
    if (this.tools.size > 0) need.add(Modes.LLM).add(Modes.Tool);
    for (const method of Object.keys(this.handlers) as Intercepted[]) need.add(routes[method].mode);
    return Object.values(Modes).filter((m) => need.has(m));
  }

  /**
   * Serves the hook on stdin and stdout until stdin closes, then exits 0
   * once the calls in flight are answered and the onClose functions are
   * done. SIGTERM and SIGINT abort `ctx.signal`, run the onClose functions
   * and exit 0 without waiting for the calls in flight. While it runs,
   * whatever else is written to stdout goes to stderr.
   */
  run(): void {
    run(this);
  }
}
