// The registry of a hook: what it handles, observes and offers, with no
// knowledge of how it is served. The session reads it; Hook (hook.ts) adds
// the stdio loop on top, so that this module never imports the transport.

import { HookwireError } from "./errors.js";
import { kindMatcher } from "./events.js";
import type { Intercepted } from "./exports.gen.js";
import type { Closer, Handler, Observer, ObserverEntry, Tool, ToolFunction, ToolSpec } from "./handlers.js";
import { HookMethods, routes } from "./methods.gen.js";
import { type Mode, Modes } from "./protocol.gen.js";
import type { Infer, ObjectSchema } from "./schema.js";

/**
 * What a hook registers: its handlers, observers, plugin tools and onClose
 * functions, and the hello modes they need. A session dispatches to it;
 * Hook adds the loop that serves it on stdin and stdout. Its registration
 * method of each request (beforeLLM and the others) comes from HookMethods.
 */
export class Registry extends HookMethods {
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
}
