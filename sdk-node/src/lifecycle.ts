// Lifecycle hooks: the vocabulary of in-process agent SDKs' lifecycle hooks
// (the Blade Agent SDK's) on a hook: their events, callbacks that answer
// continue, skip or abort, with a modified input or output, and a canUseTool
// permission callback. The lifecycle layer registers the protocol handlers and
// observers those callbacks need and translates both ways, so that a hook
// written that way ports in minutes and runs out of process under any host of
// the protocol. The events, their inputs and how each maps onto the protocol
// are the lifecycle table's (schema/lifecycle.json, shown in
// docs/lifecycle.md), generated into lifecycle.gen.ts; this runner runs its
// rows, the same in the Go, Python and TypeScript SDKs. The vocabulary is in
// lifecycle-support.ts.
//
//   const hook = lifecycle("guard", {
//     hooks: {
//       PreToolUse: [
//         (input) =>
//           String(input.toolInput["command"]).includes("rm -rf")
//             ? { action: "abort", reason: "dangerous command" }
//             : { action: "continue" },
//       ],
//     },
//   });
//   await hook.run();

import { isDeepStrictEqual } from "node:util";

import type { Intercepted } from "./exports.gen.js";
import type { Context, Handler } from "./handlers.js";
import { Hook } from "./hook.js";
import {
  endKinds,
  eventRows,
  type HookEvent,
  type LifecycleHooks,
  methods,
  observed,
  sessionEnd,
  sessionKey,
  sessionStart,
} from "./lifecycle.gen.js";
import {
  answer,
  type CanUseTool,
  get,
  type HookAbort,
  type HookSkip,
  isObject,
  type Method,
  type Params,
  type Row,
  readInput,
  replace,
  type ToolInput,
} from "./lifecycle-support.js";
import { continue_, HostExtensions, type ToolKind } from "./protocol.gen.js";
import { modify } from "./results.js";

export * from "./lifecycle.gen.js";
export type {
  CanUseTool,
  CanUseToolOptions,
  HookAbort,
  HookContinue,
  HookModifyInput,
  HookModifyOutput,
  HookSkip,
  PermissionResult,
  ToolInput,
} from "./lifecycle-support.js";

/** A lifecycle hook's callbacks. */
export interface LifecycleOptions {
  /** hooks are the callbacks of each event. */
  hooks?: LifecycleHooks;
  /** canUseTool decides the tool calls that the PermissionRequest callbacks let through. */
  canUseTool?: CanUseTool;
  /** log takes the log line of a callback that failed; stderr by default. */
  log?: (message: string) => void;
}

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
    for (const method of methods) {
      if (!method.rows.some((row) => this.has(row.event)) && !(method.approval && options.canUseTool)) continue;
      const handler = (params: Params, ctx: Context) => this.handle(method, params, ctx);
      hook.handle(method.name as Intercepted, handler as unknown as Handler<Intercepted>);
    }
    if (observed.some((e) => this.has(e))) {
      hook.on("*", (event, ctx) => {
        const handled = this.events.then(() => this.onEvent({ ...event }, ctx));
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

  private has(event: string): boolean {
    return (this.hooks[event as HookEvent]?.length ?? 0) > 0;
  }

  /**
   * Runs a method's rows on a call, in the table's order, until a callback
   * stops them, and answers the outcome it stopped them with; else
   * canUseTool's verdict on an approval, or the call as the callbacks left it.
   */
  private async handle(method: Method, received: Params, ctx: Context): Promise<unknown> {
    const key = get(received, sessionKey.call);
    const sessionId = typeof key === "string" ? key : "";
    await this.start(sessionId, ctx);
    const params = { ...received }; // the callbacks' changes replace its members
    for (const row of method.rows) {
      if (!this.has(row.event) || !this.holds(row, sessionId, params)) continue;
      const take = row.modify && ((value: unknown) => replace(params, row.modify!, value));
      const read = () => readInput(row, sessionId, params);
      const stop = await this.chain(row.event, ctx, read, row.modify?.value ?? "", take);
      if (stop === undefined) continue;
      const outcome = stop.action === "skip" ? row.skip : row.abort;
      if (outcome === undefined || outcome.action === "none") break;
      return answer(outcome, stop, params["tool"]);
    }
    if (method.approval) return this.approve(params, ctx);
    return isDeepStrictEqual(params, received) ? continue_() : modify(received as never, params);
  }

  /** Whether a row's conditions hold for a call of the session. */
  private holds(row: Row, sessionId: string, params: Params): boolean {
    if (row.when !== undefined && !this.condition(row.when, sessionId, params)) return false;
    return row.unless === undefined || !this.condition(row.unless, sessionId, params);
  }

  /** Whether a named condition of the table holds for a call of the session. */
  private condition(name: string, sessionId: string, params: Params): boolean {
    if (name === "first_of_turn") return this.firstOfTurn(sessionId, get(params, "meta.TurnID"), params["messages"]);
    if (name === "is_error") return get(params, "result.is_error") === true;
    throw new Error(`the lifecycle table names the condition ${name}, unknown here`);
  }

  /** Runs a runtime event in its session: ends the session, or starts it and runs the event's rows. */
  private async onEvent(event: Params, ctx: Context): Promise<void> {
    const sessionId = sessionKey.event.map((path) => get(event, path)).find(Boolean);
    if (typeof sessionId !== "string" || sessionId === "") return; // in no session
    if (endKinds.includes(event["kind"] as string)) return this.end(sessionId, ctx);
    await this.start(sessionId, ctx);
    for (const row of eventRows) {
      if (row.kind === event["kind"] && this.has(row.event))
        await this.chain(row.event, ctx, () => readInput(row, sessionId, event), "");
    }
  }

  /**
   * Runs the callbacks of an event in order, each on the input as the one
   * before left it, until one skips or aborts. A callback that throws, or
   * answers something else, is logged and counts as continue. apply takes
   * the modified input or output that the event uses into the call.
   */
  private async chain(
    event: string,
    ctx: Context,
    read: () => object,
    used: string,
    apply?: (value: unknown) => void,
  ): Promise<HookSkip | HookAbort | undefined> {
    let input = read();
    for (const [i, callback] of ((this.hooks[event as HookEvent] ?? []) as readonly Callback[]).entries()) {
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
  private start(key: string, ctx: Context): Promise<void> {
    let started = this.open.get(key);
    if (started === undefined) {
      started = this.sessionRows(sessionStart, key, ctx);
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
    await this.sessionRows(sessionEnd, key, ctx);
  }

  /**
   * Whether a before_llm call is the first of its turn: of a TurnID new to
   * the session or, from a host that sends none, of a request whose last
   * message is the user's.
   */
  private firstOfTurn(sessionId: string, turn: unknown, messages: unknown): boolean {
    if (typeof turn !== "string" || turn === "") return ((messages ?? []) as Params[]).at(-1)?.["role"] === "user";
    const seen = this.turns.get(sessionId) ?? new Set();
    this.turns.set(sessionId, seen);
    if (seen.has(turn)) return false;
    seen.add(turn);
    return true;
  }

  /** Asks canUseTool about a call the rows let through. */
  private async approve(req: Params, ctx: Context): Promise<unknown> {
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
