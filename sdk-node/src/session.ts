// One connection to a host: reads messages, calls the hook's handlers,
// writes one whole line per reply. Shared by the stdio loop and the
// in-process test client, so that both give what goes on the wire.

import { isHookError } from "./errors.js";
import { fromLegacy } from "./events.js";
import type { Intercepted } from "./exports.gen.js";
import type { Context, EventContext, ObserverEntry, Tool } from "./handlers.js";
import {
  cutMarker,
  DEFAULT_MAX_LINE_BYTES,
  type OverLimit,
  overLimit,
  type Route,
  routes,
  tooLongReason,
} from "./methods.gen.js";
import {
  Actions,
  type BeforeLLMParams,
  type BeforeToolParams,
  decodeLegacyEvent,
  decodeRuntimeEvent,
  ErrorCodes,
  type HelloResult,
  type Mode,
  Modes,
  PROTOCOL_VERSION,
  type Respond,
  type RuntimeEvent,
  type ToolDefinition,
} from "./protocol.gen.js";
import type { Registry } from "./registry.js";
import { placeModified, respond } from "./results.js";
import { check } from "./schema.js";

/** Takes one whole reply line, newline included. */
export type Write = (line: string) => void;
/** Takes one line of log for stderr, without its newline. */
export type Log = (message: string) => void;

type Obj = { readonly [key: string]: unknown };

const BLANK = /^\s*$/;
const RESOLVED: Promise<void> = Promise.resolve();
const noop = (): void => {};

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === "object" || typeof v === "function") &&
  v !== null &&
  typeof (v as PromiseLike<unknown>).then === "function";

/** The message of a thrown value. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
/**
 * What the host reads of a handler that threw: the error's class with its
 * message, as a stack's first line says it ("TypeError: Cannot read properties
 * of undefined"), so that a guard's failure says what kind it was; a plain
 * Error says its message alone.
 */
export const failureMessage = (err: unknown): string => {
  if (!(err instanceof Error) || err.name === "Error") {
    return messageOf(err);
  }
  return err.message === "" ? err.name : `${err.name}: ${err.message}`;
};
const detailsOf = (err: unknown): string => (err instanceof Error && err.stack !== undefined ? err.stack : String(err));

const resultLine = (id: unknown, result: unknown): string => JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n";
const errorLine = (id: unknown, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n";

/**
 * Whether a result is the plain { action: "continue" } of continue_(), the answer
 * most calls get: it is written without the generic check of results and
 * JSON.stringify, which cost it as much as the rest of the SDK's work besides
 * parsing the request.
 */
const isBareContinue = (v: unknown): boolean =>
  typeof v === "object" &&
  v !== null &&
  Object.getPrototypeOf(v) === Object.prototype &&
  (v as Obj)["action"] === "continue" &&
  Object.keys(v).length === 1;
const continueLine = (id: unknown): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"action":"continue"}}\n`;

type Call = (params: unknown, ctx: Context) => unknown;

/** A result that goes instead of a longer one, or the error that does. */
type Instead = { readonly result: Obj } | { readonly error: number; readonly message: string };

/**
 * What replaces the result of a request whose reply line is longer than the
 * host reads (limit), by the method's over-limit answer: a result that takes
 * at most room bytes, or the error to send instead.
 */
function fit(answer: OverLimit, result: unknown, room: number, limit: number): Instead {
  const reason = tooLongReason(limit);
  if (answer.error !== undefined) return { error: answer.error, message: reason };
  const action = isObject(result) ? result["action"] : undefined;
  if (answer.cut !== undefined && action === answer.cut) {
    const cut = cutToFit(result as Obj, answer.cutAt ?? [], room);
    if (cut !== undefined) return { result: cut };
  }
  if (answer.keep.some((a) => a === action)) return { result: { action, reason } };
  return { result: { ...answer.result, reason } };
}

/**
 * The reply with its string at path cut from the end so that it takes at
 * most room bytes, with a marker; undefined when even an empty string does
 * not fit, or there is none.
 */
function cutToFit(reply: Obj, path: readonly string[], room: number): Obj | undefined {
  const objects: Obj[] = [reply]; // the objects along the path, outermost first
  for (const key of path.slice(0, -1)) {
    const inner = objects[objects.length - 1]?.[key];
    if (!isObject(inner)) return undefined;
    objects.push(inner);
  }
  const last = path[path.length - 1] ?? "";
  const text = objects[objects.length - 1]?.[last];
  if (typeof text !== "string") return undefined;
  const size = Buffer.byteLength(text);
  // A cut between the halves of a surrogate pair keeps neither.
  const prefix = (keep: number): string =>
    keep > 0 && /[\uD800-\uDBFF]/.test(text[keep - 1] ?? "") ? text.slice(0, keep - 1) : text.slice(0, keep);
  const marked = (keep: number): string => prefix(keep) + cutMarker(size - Buffer.byteLength(prefix(keep)));
  const cut = (value: string): Obj =>
    objects.reduceRight<unknown>((inner, obj, i) => ({ ...obj, [path[i] ?? ""]: inner }), value) as Obj;
  // The reply but for the string is the same whatever is kept: its size
  // once. The longest prefix that fits: the size grows with the prefix,
  // since the count in the marker loses a digit only as a whole character
  // is kept.
  const others = Buffer.byteLength(JSON.stringify(cut(""))) - 2;
  let lo = -1; // marked(lo) fits, and nothing past hi does
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (others + Buffer.byteLength(JSON.stringify(marked(mid))) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo < 0 ? undefined : cut(marked(lo));
}

/** What a host's calls of a mode get from a hook with no handler for it. */
function unhandled(mode: Mode): string {
  if (mode === Modes.Observe) return "events are dropped";
  const methods = Object.values<Route>(routes).filter((r) => r.mode === mode);
  const answered = `${methods.map((r) => r.method).join(" and ")} ${methods.length > 1 ? "are" : "is"} answered with`;
  if (methods.every((r) => r.unhandled !== undefined)) return `${answered} continue`;
  // An approver's error denies the call, on PicoClaw's host: so does a missing approver.
  return `${answered} an error${mode === Modes.Approve ? ", which a host may take as a denial of every tool call" : ""}`;
}

/** @internal */
export class Session {
  private inflight = 0;
  private maxLine = DEFAULT_MAX_LINE_BYTES;
  private onIdle: (() => void) | undefined;
  private ctx: Context;
  private closed: Promise<void> | undefined;

  constructor(
    private readonly hook: Registry,
    private readonly log: Log,
    signal: AbortSignal,
    /** Whether replies go to a host, which reads lines up to a limit; the test client's do not. */
    private readonly wire = false,
  ) {
    this.ctx = { signal, extensions: [] };
  }

  /** Handles one input line (undefined: not UTF-8); a reply, if any, goes to write. */
  line(text: string | undefined, write: Write): void {
    if (text === undefined) {
      write(errorLine(null, ErrorCodes.ParseError, "parse error: invalid UTF-8"));
      return;
    }
    if (BLANK.test(text)) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (err) {
      write(errorLine(null, ErrorCodes.ParseError, `parse error: ${messageOf(err)}`));
      return;
    }
    if (!isObject(msg)) {
      write(errorLine(null, ErrorCodes.InvalidRequest, "invalid request: not a JSON object"));
      return;
    }
    const { id, method, params } = msg;
    // Older hosts send observe notifications with an id of 0: never answer them.
    if (method === "hook.runtime_event" || method === "hook.event") {
      this.notify(method, params).catch(noop);
      return;
    }
    if (id === undefined || id === null) {
      this.log(`hookwire: ignored a message without an id (method ${JSON.stringify(method)})`);
      return;
    }
    if (typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) {
      // Only a string or a number can come back as it was sent (1e999 would be null).
      write(errorLine(null, ErrorCodes.InvalidRequest, "invalid request: the id is not a string or a number"));
      return;
    }
    if (typeof method !== "string") {
      write(errorLine(id, ErrorCodes.InvalidRequest, "invalid request: method is not a string"));
      return;
    }
    this.call(id, method, params, write);
  }

  /** Handles one request; its reply line goes to done. */
  call(id: unknown, method: string, params: unknown, done: Write): void {
    if (method === "hook.hello") {
      const result = this.hello(params);
      done(this.fitted(id, method, result, resultLine(id, result)));
      return;
    }
    const route: Route | undefined = Object.hasOwn(routes, method) ? routes[method as Intercepted] : undefined;
    if (route === undefined) {
      done(errorLine(id, ErrorCodes.MethodNotFound, `method not found: ${method}`));
      return;
    }
    try {
      route.params(params);
    } catch (err) {
      done(errorLine(id, ErrorCodes.InvalidParams, `invalid params: ${messageOf(err)}`));
      return;
    }
    const call = this.route(route, params);
    if (call === undefined) {
      done(errorLine(id, ErrorCodes.MethodNotFound, `method not found: ${method} (this hook has no handler for it)`));
      return;
    }
    this.inflight++;
    let out: unknown;
    try {
      out = call(params, this.ctx);
    } catch (err) {
      this.failed(id, method, err, done);
      return;
    }
    if (isThenable(out)) {
      out.then(
        (result) => this.answer(id, route, result, done),
        (err: unknown) => this.failed(id, method, err, done),
      );
    } else {
      this.answer(id, route, out, done);
    }
  }

  /** Hands an observe notification to the observers of its kind; rejects when one fails. */
  notify(method: "hook.runtime_event" | "hook.event", params: unknown): Promise<void> {
    const observers = this.hook.observers;
    if (observers.length === 0) return RESOLVED;
    let event: RuntimeEvent;
    let ctx: EventContext = this.ctx;
    try {
      if (method === "hook.event") {
        const legacy = decodeLegacyEvent(params);
        event = fromLegacy(legacy);
        ctx = { ...this.ctx, legacy };
      } else {
        event = decodeRuntimeEvent(params);
      }
    } catch (err) {
      this.log(`hookwire: dropped a ${method} notification: ${messageOf(err)}`);
      return Promise.reject(err);
    }
    const pending: Promise<void>[] = [];
    for (const o of observers) {
      if (!o.match(event.kind)) continue;
      const done = this.observe(o, event, ctx);
      if (done !== undefined) pending.push(done);
    }
    return pending.length === 0 ? RESOLVED : Promise.all(pending).then(noop);
  }

  /** Runs the hook's onClose functions, one after the other, once however often it is called. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const fn of this.hook.closers) {
        try {
          await fn(this.ctx);
        } catch (err) {
          this.log(`hookwire: an onClose function failed: ${detailsOf(err)}`);
        }
      }
    })();
    return this.closed;
  }

  /** Calls f once no handler or observer is running. */
  whenIdle(f: () => void): void {
    if (this.inflight === 0) f();
    else this.onIdle = f;
  }

  private hello(params: unknown): HelloResult & { modes: Mode[] } {
    // Lenient on purpose: a newer host's hello must not stop the hook.
    const p: Obj = isObject(params) ? params : {};
    if (p["version"] !== PROTOCOL_VERSION) {
      this.log(
        `hookwire: warning: the host speaks protocol version ${JSON.stringify(p["version"])}, ` +
          `this hook version ${PROTOCOL_VERSION}; carrying on`,
      );
    }
    const extensions = Array.isArray(p["extensions"])
      ? p["extensions"].filter((e): e is string => typeof e === "string")
      : [];
    this.ctx = { ...this.ctx, extensions };
    const max = p["max_line_bytes"];
    this.maxLine = typeof max === "number" && Number.isSafeInteger(max) && max > 0 ? max : DEFAULT_MAX_LINE_BYTES;
    const name = this.hook.name ?? (typeof p["name"] === "string" ? p["name"] : undefined);
    const modes = this.hook.modes();
    for (const mode of Array.isArray(p["modes"]) ? p["modes"] : []) {
      if (typeof mode === "string" && Object.values<string>(Modes).includes(mode) && !modes.includes(mode as Mode)) {
        this.log(
          `hookwire: warning: the host grants mode ${JSON.stringify(mode)}, which no handler of this hook serves: ${unhandled(mode as Mode)}`,
        );
      }
    }
    return name === undefined ? { ok: true, modes } : { ok: true, name, modes };
  }

  /** What answers a request: a handler, a plugin tool, or the SDK's continue; undefined for none. */
  private route({ method, unhandled }: Route, params: unknown): Call | undefined {
    const { handlers, tools } = this.hook;
    const handler = handlers[method] as Call | undefined;
    if (method === "hook.before_tool") {
      const tool = tools.get((params as BeforeToolParams).tool);
      if (tool !== undefined) return (p) => this.runTool(tool, p as BeforeToolParams);
    } else if (method === "hook.before_llm" && tools.size > 0) {
      return (p, ctx) => {
        const out = handler === undefined ? { action: "continue" } : handler(p, ctx);
        return isThenable(out)
          ? out.then((r) => this.withTools(p as BeforeLLMParams, r))
          : this.withTools(p as BeforeLLMParams, out);
      };
    }
    if (handler !== undefined) return handler;
    return unhandled === undefined ? undefined : () => unhandled;
  }

  /** Adds the plugin tools to the request a before_llm handler lets through or modifies. */
  private withTools(received: BeforeLLMParams, result: unknown): unknown {
    if (result === undefined) result = { action: "continue" }; // a handler that returns nothing lets the request through
    if (!isObject(result)) return result;
    const action = result["action"];
    let request: Obj;
    if (action === undefined || action === "" || action === "continue") request = received as unknown as Obj;
    else if (action === "modify" && isObject(result["request"])) request = result["request"];
    else return result;
    const tools = Array.isArray(request["tools"]) ? (request["tools"] as ToolDefinition[]) : [];
    const present = new Set(tools.map((t) => t?.function?.name));
    const added: ToolDefinition[] = [];
    for (const { spec } of this.hook.tools.values()) {
      if (present.has(spec.name)) continue;
      const fn: ToolDefinition["function"] = { name: spec.name };
      if (spec.description !== undefined) fn.description = spec.description;
      fn.parameters = spec.parameters as unknown as NonNullable<ToolDefinition["function"]["parameters"]>;
      added.push({ type: "function", function: fn });
    }
    const reason = typeof result["reason"] === "string" ? { reason: result["reason"] } : {};
    return { ...result, action: "modify", ...reason, request: { ...request, tools: [...tools, ...added] } };
  }

  private async runTool(tool: Tool, call: BeforeToolParams): Promise<Respond> {
    const { name, parameters } = tool.spec;
    const args = call.arguments ?? {}; // a host leaves empty arguments out
    const problem = check(parameters, args);
    if (problem !== undefined) return respond(`invalid arguments for ${name}: ${problem}`, { is_error: true });
    try {
      return respond(await tool.run(args as never, { ...this.ctx, call }));
    } catch (err) {
      // A tool chooses a JSON-RPC error as a handler does; any other failure is the LLM's to read.
      if (isHookError(err)) throw err;
      this.log(`hookwire: tool ${name} failed: ${detailsOf(err)}`);
      return respond(`${name} failed: ${messageOf(err)}`, { is_error: true });
    }
  }

  /** Runs an observer: undefined when it is done on return, else the promise of its end. */
  private observe(o: ObserverEntry, event: RuntimeEvent, ctx: EventContext): Promise<void> | undefined {
    let out: unknown;
    try {
      out = o.observe(event, ctx);
    } catch (err) {
      out = Promise.reject(err);
    }
    // Most observers are synchronous: under a flood of events, a promise and
    // a microtask for each would add a third to what an event costs the hook.
    if (!isThenable(out)) return undefined;
    this.inflight++;
    return Promise.resolve(out).then(
      () => this.settle(),
      (err: unknown) => {
        this.log(`hookwire: observer of ${event.kind} failed: ${detailsOf(err)}`);
        this.settle();
        throw err;
      },
    );
  }

  private answer(id: unknown, route: Route, reply: unknown, done: Write): void {
    if (reply === undefined) {
      // A handler that returns nothing is answered as no handler would be:
      // the call goes through (continue); an approval has no such answer.
      if (route.unhandled === undefined) {
        this.failed(
          id,
          route.method,
          new Error(`the handler returned nothing; ${route.method} has no continue, so it must return a result`),
          done,
        );
        return;
      }
      reply = route.unhandled;
    }
    const result = placeModified(route.method, reply);
    let line: string;
    if (isBareContinue(result) && route.actions.includes(Actions.Continue)) {
      done(continueLine(id));
      this.settle();
      return;
    }
    try {
      // A JavaScript handler can return anything: check it here rather than
      // let the host reject it, or worse, act on half of it.
      route.result(result);
      line = resultLine(id, result);
    } catch (err) {
      this.failed(id, route.method, new Error(`the handler returned an invalid result: ${messageOf(err)}`), done);
      return;
    }
    done(this.fitted(id, route.method, result, line));
    this.settle();
  }

  /**
   * The reply line of a result, or the one that goes instead when it is
   * longer than the host reads: a host stops reading a hook for good at a
   * longer line. What goes instead never lets through what the hook would
   * have stopped or changed (docs/protocol.md, "Replies longer than the host
   * reads").
   */
  private fitted(id: unknown, method: string, result: unknown, line: string): string {
    const size = this.wire && line.length * 3 > this.maxLine ? Buffer.byteLength(line) : 0;
    const answer = overLimit[method];
    if (size <= this.maxLine || answer === undefined) return line;
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
    const instead = fit(answer, result, this.maxLine - Buffer.byteLength(head) - 2, this.maxLine);
    this.log(
      `hookwire: warning: the reply to ${method} (id ${JSON.stringify(id)}) is ${size} bytes, longer than the host reads in a line (${this.maxLine} bytes); sending ${"result" in instead ? JSON.stringify(instead.result).slice(0, 200) : "an error"} instead`,
    );
    return "result" in instead ? resultLine(id, instead.result) : errorLine(id, instead.error, instead.message);
  }

  private failed(id: unknown, method: string, err: unknown, done: Write): void {
    done(this.errorReply(id, method, err));
    this.settle();
  }

  /** The error line of a call whose handler threw: a HookError's own error, anything else -32000 with its message. */
  private errorReply(id: unknown, method: string, err: unknown): string {
    const call = `${method} (id ${JSON.stringify(id)})`;
    if (!isHookError(err)) {
      this.log(`hookwire: ${call} failed: ${detailsOf(err)}`);
      return errorLine(id, ErrorCodes.HandlerError, failureMessage(err));
    }
    // The handler chose this answer: a line of log, not a stack, says so.
    this.log(`hookwire: ${call} answered error ${err.code}: ${err.message}`);
    const error: { code: number; message: string; data?: unknown } = { code: err.code, message: String(err.message) };
    if (err.data !== undefined) error.data = err.data;
    let line: string;
    try {
      line = JSON.stringify({ jsonrpc: "2.0", id, error }) + "\n";
    } catch (problem) {
      // A cycle or a BigInt in data: the reply the handler meant cannot be written.
      this.log(
        `hookwire: ${call}: the HookError's data is not JSON (${messageOf(problem)}); sending error -32000 instead`,
      );
      return errorLine(id, ErrorCodes.HandlerError, `the handler's HookError data is not JSON: ${messageOf(problem)}`);
    }
    // As for results: a host stops reading a hook for good at a line longer
    // than it reads. The code still tells the host what the handler chose.
    const size = this.wire && line.length * 3 > this.maxLine ? Buffer.byteLength(line) : 0;
    if (size > this.maxLine) {
      this.log(
        `hookwire: warning: the error reply to ${call} is ${size} bytes, longer than the host reads in a line (${this.maxLine} bytes); sending its code alone, with a short message`,
      );
      return errorLine(
        id,
        err.code,
        `the error reply (${size} bytes) is longer than the host reads (${this.maxLine} bytes)`,
      );
    }
    return line;
  }

  private settle(): void {
    if (--this.inflight === 0 && this.onIdle !== undefined) {
      const f = this.onIdle;
      this.onIdle = undefined;
      f();
    }
  }
}
