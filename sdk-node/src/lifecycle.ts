// The lifecycle layer's runner: it runs the rows of the lifecycle table
// (lifecycle.gen.ts, which has the vocabulary and its docs).

import type { Intercepted } from "./exports.gen.js";
import type { Context, Handler } from "./handlers.js";
import { Hook } from "./hook.js";
import {
  type HookAbort,
  type HookEvent,
  type HookSkip,
  type LifecycleHooks,
  type LifecycleOptions,
  methods,
  observed,
  onEvent,
  sessionEnd,
  sessionStart,
  type ToolInput,
} from "./lifecycle.gen.js";
import { isObject, type Params, type Runner } from "./lifecycle-support.js";
import { HostExtensions, type ToolKind } from "./protocol.gen.js";

export * from "./lifecycle.gen.js";

/**
 * A hook speaking the lifecycle vocabulary: it registers the protocol
 * handlers and observers that the given callbacks need, and translates.
 * Serve it with run(); add handlers of other methods, observers or plugin
 * tools to it as to any Hook.
 */
export function lifecycle(name: string | undefined, options: LifecycleOptions): Hook {
  return new Lifecycle(new Hook(name), options).hook;
}

type Callback = (input: object, ctx: Context) => unknown;

const details = (err: unknown): string => (err instanceof Error && err.stack !== undefined ? err.stack : String(err));

class Lifecycle implements Runner {
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
    for (const [method, { events, handle }] of Object.entries(methods)) {
      if (!events.some((e) => this.has(e)) && !(method === "hook.approve_tool" && options.canUseTool)) continue;
      const handler = (params: Params, ctx: Context) => handle(this, params, ctx);
      hook.handle(method as Intercepted, handler as unknown as Handler<Intercepted>);
    }
    if (observed.some((e) => this.has(e))) {
      hook.on("*", (event, ctx) => {
        const handled = this.events.then(() => onEvent(this, ctx, { ...event }));
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

  has(event: HookEvent): boolean {
    return (this.hooks[event]?.length ?? 0) > 0;
  }

  /**
   * Runs the callbacks of an event in order, each on the input as the one
   * before left it, until one skips or aborts. A callback that throws, or
   * answers something else, is logged and counts as continue. apply takes
   * the modified input or output that the event uses into the call.
   */
  async chain(
    event: HookEvent,
    ctx: Context,
    read: () => object,
    used: string,
    apply?: (value: unknown) => void,
  ): Promise<HookSkip | HookAbort | undefined> {
    let input = read();
    for (const [i, callback] of ((this.hooks[event] ?? []) as readonly Callback[]).entries()) {
      const which = `${event} callback ${i + 1}`;
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
      for (const key of ["modifiedInput", "modifiedOutput"]) {
        if (key !== used && (out as Params)[key] !== undefined)
          this.log(`hookwire: ${which} answered ${key}, which ${event} has no use for; ignored`);
      }
      const modified = (out as Params)[used];
      if (apply === undefined || modified === undefined) continue;
      try {
        apply(modified);
        input = read();
      } catch (err) {
        this.log(`hookwire: ${which}: ${err instanceof Error ? err.message : String(err)}; taken as continue`);
      }
    }
    return undefined;
  }

  private async sessionRows(events: readonly HookEvent[], sessionId: string, ctx: Context): Promise<void> {
    for (const event of events) await this.chain(event, ctx, () => ({ event, sessionId }), "");
  }

  /** Runs the session's start the first time a session is seen; resolves once it has run. */
  start(key: string, ctx: Context): Promise<void> {
    let started = this.open.get(key);
    if (started === undefined) {
      started = this.sessionRows(sessionStart, key, ctx);
      this.open.set(key, started);
    }
    return started;
  }

  /** Runs the session's end for a session started and not ended. */
  async end(key: string, ctx: Context): Promise<void> {
    const started = this.open.get(key);
    if (started === undefined) return;
    this.open.delete(key);
    this.turns.delete(key);
    await started;
    await this.sessionRows(sessionEnd, key, ctx);
  }

  /**
   * Whether a before_llm call is the first of its turn: of a TurnID new to
   * the session or, from a host that sends none, of a request whose last
   * message is the user's.
   */
  firstOfTurn(sessionId: string, turn: unknown, messages: unknown): boolean {
    if (typeof turn !== "string" || turn === "") return ((messages ?? []) as Params[]).at(-1)?.["role"] === "user";
    const seen = this.turns.get(sessionId) ?? new Set();
    this.turns.set(sessionId, seen);
    if (seen.has(turn)) return false;
    seen.add(turn);
    return true;
  }

  /** Asks canUseTool about a call the rows let through. */
  async approve(req: Params, ctx: Context): Promise<unknown> {
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
    const v: Params = isObject(verdict) ? verdict : {};
    if (v["behavior"] === "deny") return { approved: false, reason: String(v["message"] ?? "") };
    if (v["behavior"] !== "allow") {
      if (v["behavior"] !== "ask")
        this.log(`hookwire: canUseTool answered ${JSON.stringify(verdict)}, not allow, deny or ask: taken as ask`);
      return { approved: false, abstain: true };
    }
    const updated = v["updatedInput"];
    if (updated === undefined) return { approved: true };
    if (ctx.extensions.includes(HostExtensions.ApproveToolArguments))
      return { approved: true, arguments: updated as ToolInput };
    // Running the call with the arguments it came with would not be what was allowed.
    return {
      approved: false,
      reason: `canUseTool allowed ${tool} with updated input, which this host cannot apply (it does not announce ${HostExtensions.ApproveToolArguments})`,
    };
  }
}
