// The lifecycle layer's runner: it runs the rows of the lifecycle table
// (lifecycle.gen.ts, which has the vocabulary and its docs).

import type { Intercepted } from "./exports.gen.js";
import type { Context, Handler } from "./handlers.js";
import { Hook } from "./hook.js";
import {
  type HookAbort,
  type HookSkip,
  type LifecycleHooks,
  type LifecycleOptions,
  type Row,
  rows,
  type ToolInput,
} from "./lifecycle.gen.js";
import { continue_, type RuntimeEvent, type ToolKind } from "./protocol.gen.js";
import { modify } from "./results.js";

export * from "./lifecycle.gen.js";

// The extension a host announces in hello when it applies an approver's arguments.
const APPROVE_ARGUMENTS = "approve_tool.arguments";

/**
 * A hook speaking the lifecycle vocabulary: it registers the protocol
 * handlers and observers that the given callbacks need, and translates.
 * Serve it with run(); add handlers of other methods, observers or plugin
 * tools to it as to any Hook.
 */
export function lifecycle(name: string | undefined, options: LifecycleOptions): Hook {
  return new Lifecycle(new Hook(name), options).hook;
}

type Any = { [key: string]: unknown };
type Callback = (input: Any, ctx: Context) => unknown;
const table: readonly Row[] = rows;

const isObject = (v: unknown): v is Any => typeof v === "object" && v !== null && !Array.isArray(v);
const details = (err: unknown): string => (err instanceof Error && err.stack !== undefined ? err.stack : String(err));

/** The member of params at a dotted path. */
const lookup = (params: Any, path: string): unknown =>
  path.split(".").reduce<unknown>((v, name) => (isObject(v) ? v[name] : undefined), params);

/** The index of the request's last user message, -1 when it has none. */
function lastUser(params: Any): number {
  const messages = (params["messages"] ?? []) as Any[]; // a host leaves an empty history out
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!["role"] !== "user") at--;
  return at;
}

// How an input field of each type is read from its member, absent or not.
const readers: { [type: string]: (v: unknown) => unknown } = {
  string: (v) => (typeof v === "string" ? v : ""),
  arguments: (v) => (isObject(v) ? v : {}),
  tool_result: (v) => (isObject(v) ? v : { for_llm: "" }), // a host leaves an empty result out
  tool_error: (v) => new Error(isObject(v) ? String(v["for_llm"]) : ""),
  tool_kind: (v) => v,
  paths: (v) => (Array.isArray(v) ? v : []),
  json: (v) => v ?? null,
};

/** The input of row's event, read from params. */
function read(row: Row, sessionId: string, params: Any): Any {
  const input: Any = { event: row.event, sessionId };
  for (const { field, type, from } of row.input ?? []) {
    const v =
      from !== "last_user_message"
        ? lookup(params, from)
        : (params["messages"] as Any[])[lastUser(params)]?.["content"];
    const value = readers[type]!(v);
    if (value !== undefined) input[field] = value;
  }
  return input;
}

/** Takes a callback's modified input or output into params, where row says. */
function apply(row: Row, params: Any, value: unknown): void {
  const { type, field, with: what } = row.modify!;
  const from = row.input!.find((f) => f.field === field)!.from;
  if (type === "string" && typeof value !== "string") throw new Error(`${what} is not a string, ignored`);
  if (type === "arguments" && !isObject(value)) throw new Error(`${what} is not an object of arguments, ignored`);
  if (type === "tool_result" || type === "tool_error") {
    if (typeof value === "string")
      value = { ...(readers["tool_result"]!(lookup(params, from)) as Any), for_llm: value };
    else if (!isObject(value) || typeof value["for_llm"] !== "string")
      throw new Error(`${what} is neither a string nor a ToolResult, ignored`);
  }
  if (from !== "last_user_message") {
    params[from] = value;
    return;
  }
  const at = lastUser(params);
  if (at < 0) throw new Error(`the request has no user message to replace, ${what} ignored`);
  const messages = [...(params["messages"] as Any[])];
  messages[at] = { ...messages[at], content: value };
  params["messages"] = messages;
}

class Lifecycle {
  private readonly hooks: LifecycleHooks;
  private readonly log: (message: string) => void;
  // Sessions started and not ended, with their start's run.
  private readonly open = new Map<string, Promise<void>>();
  // The turns whose first LLM call has been seen, by session.
  private readonly turns = new Map<string, Set<string>>();
  // Notifications are handled one after the other, in the order they came.
  private events: Promise<void> = Promise.resolve();

  constructor(
    readonly hook: Hook,
    private readonly options: LifecycleOptions,
  ) {
    this.hooks = options.hooks ?? {};
    this.log = options.log ?? ((message) => void process.stderr.write(message + "\n"));
    const used = table.filter((row) => this.has(row));
    const methods = new Set(used.flatMap((row) => (row.method === undefined ? [] : [row.method])));
    if (options.canUseTool !== undefined) methods.add("hook.approve_tool");
    for (const method of methods) {
      const handler = (params: Any, ctx: Context) => this.call(method, params, ctx);
      hook.handle(method as Intercepted, handler as unknown as Handler<Intercepted>);
    }
    if (used.some((row) => row.method === undefined)) {
      hook.on("*", (event, ctx) => {
        const handled = this.events.then(() => this.observe(event, ctx));
        // The SDK logs a failure; the next notification is handled all the same.
        this.events = handled.catch(() => {});
        return handled;
      });
      hook.onClose(async (ctx) => {
        await this.events;
        for (const key of [...this.open.keys()]) await this.end(key, ctx);
      });
    }
  }

  private has(row: Row): boolean {
    return (this.hooks[row.event]?.length ?? 0) > 0;
  }

  /**
   * Runs the callbacks of row's event in order, each on the input as the one
   * before left it, until one skips or aborts. A callback that throws, or
   * answers something else, is logged and counts as continue. A modified
   * input or output that row uses changes params too.
   */
  private async chain(row: Row, input: Any, ctx: Context, params: Any): Promise<HookSkip | HookAbort | undefined> {
    const callbacks = (this.hooks[row.event] ?? []) as readonly Callback[];
    for (const [i, callback] of callbacks.entries()) {
      const which = `${row.event} callback ${i + 1}`;
      let out: unknown;
      try {
        out = await callback(input, ctx);
      } catch (err) {
        this.log(`hookwire: ${which} failed, taken as continue: ${details(err)}`);
        continue;
      }
      const action = isObject(out) ? out["action"] : undefined;
      if (action === "skip" || action === "abort") return out as HookSkip | HookAbort;
      if (action !== "continue") {
        this.log(`hookwire: ${which} answered ${JSON.stringify(out)}, not continue, skip or abort: taken as continue`);
        continue;
      }
      const modified = row.modify === undefined ? undefined : (out as Any)[row.modify.with];
      if (modified === undefined) continue;
      try {
        apply(row, params, modified);
        input = read(row, input["sessionId"] as string, params);
      } catch (err) {
        this.log(`hookwire: ${which}: ${err instanceof Error ? err.message : String(err)}; taken as continue`);
      }
    }
    return undefined;
  }

  private async sessionRows(step: "start" | "end", sessionId: string, ctx: Context): Promise<void> {
    for (const row of table) if (row.session === step) await this.chain(row, { event: row.event, sessionId }, ctx, {});
  }

  /** Runs the session's start the first time a session is seen; resolves once it has run. */
  private start(key: string, ctx: Context): Promise<void> {
    let started = this.open.get(key);
    if (started === undefined) {
      started = this.sessionRows("start", key, ctx);
      this.open.set(key, started);
    }
    return started;
  }

  /** Runs the session's end for a session started and not ended. */
  private async end(key: string, ctx: Context): Promise<void> {
    const started = this.open.get(key);
    if (started === undefined) return;
    this.open.delete(key);
    this.turns.delete(key);
    await started;
    await this.sessionRows("end", key, ctx);
  }

  private async observe(event: RuntimeEvent, ctx: Context): Promise<void> {
    let key = event.scope.session_key ?? "";
    if (key === "" && event.kind.startsWith("agent.session.") && isObject(event.payload)) {
      const k = event.payload["SessionKey"];
      if (typeof k === "string") key = k;
    }
    if (key === "") return;
    if (table.some((row) => row.session === "end" && row.eventKind === event.kind)) return this.end(key, ctx);
    await this.start(key, ctx);
    const params = { ...event } as Any;
    for (const row of table) {
      if (row.eventKind === event.kind && row.session === undefined && this.has(row))
        await this.chain(row, read(row, key, params), ctx, params);
    }
  }

  /** Whether row's condition holds for a call. */
  private holds(row: Row, sessionId: string, params: Any): boolean {
    if (row.when !== "first_of_turn") {
      const path = (row.when ?? "").replace(/^!/, "");
      return path === "" || (lookup(params, path) === true) !== row.when!.startsWith("!");
    }
    // The first before_llm call of its turn: of a TurnID new to the session
    // or, from a host that sends none, of a request whose last message is the user's.
    const turn = lookup(params, "meta.TurnID");
    if (typeof turn !== "string" || turn === "")
      return ((params["messages"] ?? []) as Any[]).at(-1)?.["role"] === "user";
    const seen = this.turns.get(sessionId) ?? new Set();
    this.turns.set(sessionId, seen);
    if (seen.has(turn)) return false;
    seen.add(turn);
    return true;
  }

  /** Runs the rows of a method on a call, and answers what their outcomes map to. */
  private async call(method: string, received: Any, ctx: Context): Promise<unknown> {
    const sessionId = (lookup(received, "meta.SessionKey") as string | undefined) ?? "";
    await this.start(sessionId, ctx);
    const params = { ...received };
    for (const row of table) {
      if (row.method !== method || !this.has(row) || !this.holds(row, sessionId, params)) continue;
      const stop = await this.chain(row, read(row, sessionId, params), ctx, params);
      if (stop === undefined) continue;
      const outcome = stop.action === "skip" ? row.skip : row.abort;
      if (outcome === undefined || outcome.action === "none") break;
      const fallback = outcome.reason.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
      const reason = stop.reason ?? (fallback === "" ? undefined : fallback);
      if (outcome.action === "refuse") return { approved: false, reason };
      return reason === undefined ? { action: outcome.action } : { action: outcome.action, reason };
    }
    if (method === "hook.approve_tool") return this.approve(params, ctx);
    const changed = Object.keys(params).some((k) => params[k] !== received[k]);
    return changed ? modify(received as never, params) : continue_();
  }

  /** Asks canUseTool about a call the rows let through. */
  private async approve(req: Any, ctx: Context): Promise<unknown> {
    const canUseTool = this.options.canUseTool;
    if (canUseTool === undefined) return { approved: true };
    const tool = req["tool"] as string;
    const known = req["tool_kind"] === undefined ? {} : { toolKind: req["tool_kind"] as ToolKind };
    let verdict: unknown;
    try {
      verdict = await canUseTool(tool, (req["arguments"] ?? {}) as ToolInput, {
        signal: ctx.signal,
        ...known,
        affectedPaths: [...((req["affected_paths"] ?? []) as string[])],
      });
    } catch (err) {
      // Not an approval: a failing permission check leaves the call to the host.
      this.log(`hookwire: canUseTool failed, taken as ask: ${details(err)}`);
      return { approved: false, abstain: true };
    }
    const v: Any = isObject(verdict) ? verdict : {};
    switch (v["behavior"]) {
      case "allow": {
        const updated = v["updatedInput"];
        if (updated === undefined) return { approved: true };
        if (ctx.extensions.includes(APPROVE_ARGUMENTS)) return { approved: true, arguments: updated as ToolInput };
        // Running the call with the arguments it came with would not be what was allowed.
        return {
          approved: false,
          reason: `canUseTool allowed ${tool} with updated input, which this host cannot apply (it does not announce ${APPROVE_ARGUMENTS})`,
        };
      }
      case "deny":
        return { approved: false, reason: String(v["message"] ?? "") };
      case "ask":
        return { approved: false, abstain: true };
      default:
        this.log(`hookwire: canUseTool answered ${JSON.stringify(verdict)}, not allow, deny or ask: taken as ask`);
        return { approved: false, abstain: true };
    }
  }
}
