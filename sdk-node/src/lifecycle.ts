// Lifecycle hooks: the vocabulary of in-process agent SDKs (eight events,
// continue / skip / abort, modifiedInput / modifiedOutput, a canUseTool
// permission callback) on top of a Hook, so that a hook written that way
// ports in minutes and runs out of process under any host of the protocol.
// The mapping is the same in the Go and Python SDKs.

import type { Awaitable, Context } from "./handlers.js";
import { Hook } from "./hook.js";
import {
  type AfterToolParams,
  type AfterToolResult,
  type ApproveToolParams,
  type ApproveToolResult,
  abortTurn,
  type BeforeLLMParams,
  type BeforeLLMResult,
  type BeforeToolParams,
  type BeforeToolResult,
  continue_,
  denyTool,
  type JsonValue,
  type Meta,
  type RuntimeEvent,
  type ToolKind,
  type ToolResult,
} from "./protocol.gen.js";
import { modify } from "./results.js";

/** The eight lifecycle events. */
export const HookEvent = {
  SessionStart: "SessionStart",
  UserPromptSubmit: "UserPromptSubmit",
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  PostToolUseFailure: "PostToolUseFailure",
  PermissionRequest: "PermissionRequest",
  TaskCompleted: "TaskCompleted",
  SessionEnd: "SessionEnd",
} as const;
/** One of the eight lifecycle events. */
export type HookEvent = (typeof HookEvent)[keyof typeof HookEvent];

/** A tool's arguments. */
export type ToolInput = { [key: string]: JsonValue };

/** What a callback of each event receives. */
export interface HookInputs {
  SessionStart: { event: "SessionStart"; sessionId: string };
  UserPromptSubmit: { event: "UserPromptSubmit"; sessionId: string; message: string };
  PreToolUse: { event: "PreToolUse"; sessionId: string; toolName: string; toolInput: ToolInput };
  PostToolUse: {
    event: "PostToolUse";
    sessionId: string;
    toolName: string;
    toolInput: ToolInput;
    toolOutput: ToolResult;
  };
  /** error.message is the result's for_llm. */
  PostToolUseFailure: {
    event: "PostToolUseFailure";
    sessionId: string;
    toolName: string;
    toolInput: ToolInput;
    error: Error;
  };
  /** toolKind and affectedPaths are what the host knows: absent and empty otherwise. */
  PermissionRequest: {
    event: "PermissionRequest";
    sessionId: string;
    toolName: string;
    toolInput: ToolInput;
    toolKind?: ToolKind;
    affectedPaths: string[];
  };
  /** payload is the agent.turn.end event's, null when it has none. */
  TaskCompleted: { event: "TaskCompleted"; sessionId: string; payload: JsonValue };
  SessionEnd: { event: "SessionEnd"; sessionId: string };
}
/** What a lifecycle callback receives, told apart by `event`. */
export type HookInput = HookInputs[HookEvent];

// modifiedInput and modifiedOutput are `never` where an event has no use for
// them, so that a callback answering one there does not compile.

/** Go on: the next callback runs. */
export interface HookContinue {
  action: "continue";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: never;
}
/** Go on with a new input: the next callbacks and the host get it. */
export interface HookModifyInput<T> {
  action: "continue";
  reason?: string;
  modifiedInput?: T;
  modifiedOutput?: never;
}
/** Go on with a new tool output: a whole ToolResult, or the new text the LLM sees. */
export interface HookModifyOutput {
  action: "continue";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: ToolResult | string;
}
/** Stop the callbacks after this one, and skip what the event is about (deny the tool). */
export interface HookSkip {
  action: "skip";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: never;
}
/** Stop the callbacks after this one, and end the turn. */
export interface HookAbort {
  action: "abort";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: never;
}

/** What a callback of each event may answer. */
export interface HookOutputs {
  SessionStart: HookContinue;
  /** modifiedInput is the new text of the user's message; skip is taken as continue. */
  UserPromptSubmit: HookModifyInput<string> | HookSkip | HookAbort;
  /** modifiedInput is the tool's new arguments, whole. */
  PreToolUse: HookModifyInput<ToolInput> | HookSkip | HookAbort;
  PostToolUse: HookModifyOutput | HookAbort;
  PostToolUseFailure: HookModifyOutput | HookAbort;
  /** skip and abort deny the call: approval cannot end a turn. */
  PermissionRequest: HookContinue | HookSkip | HookAbort;
  TaskCompleted: HookContinue;
  SessionEnd: HookContinue;
}
/** What a lifecycle callback answers, by event. */
export type HookOutput<E extends HookEvent = HookEvent> = HookOutputs[E];

/** A lifecycle callback of event E. ctx is the hook's (ctx.signal, ctx.extensions). */
export type HookCallback<E extends HookEvent> = (input: HookInputs[E], ctx: Context) => Awaitable<HookOutputs[E]>;

/** The callbacks of each event, run in this order. */
export type LifecycleHooks = { [E in HookEvent]?: readonly HookCallback<E>[] };

/** What canUseTool knows of a call besides its tool and arguments. */
export interface CanUseToolOptions {
  /** Aborted when the hook is told to stop. */
  signal: AbortSignal;
  /** What the tool does to the world, when the host says. */
  toolKind?: ToolKind;
  /** The paths the call touches, when the host says; empty otherwise. */
  affectedPaths: string[];
}

/** The verdict of canUseTool. */
export type PermissionResult =
  /** Run the tool, with updatedInput as its arguments when given. */
  | { behavior: "allow"; updatedInput?: ToolInput }
  /** Do not run it; the LLM is told the message. interrupt is ignored: approval cannot end a turn. */
  | { behavior: "deny"; message: string; interrupt?: boolean }
  /** No opinion: the host's own rules decide. */
  | { behavior: "ask" };

/** The permission callback: may this tool call run? */
export type CanUseTool = (
  toolName: string,
  input: ToolInput,
  options: CanUseToolOptions,
) => Awaitable<PermissionResult>;

/** What lifecycle() registers. */
export interface LifecycleOptions {
  /** The callbacks of each event. */
  hooks?: LifecycleHooks;
  /** Decides tool calls that the PermissionRequest callbacks let through. */
  canUseTool?: CanUseTool;
  /** Takes the log line of a callback that failed; stderr by default. */
  log?: (message: string) => void;
}

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
type Outcome<E extends HookEvent> = { input: HookInputs[E]; stop?: HookSkip | HookAbort };

const isObject = (v: unknown): v is Any => typeof v === "object" && v !== null && !Array.isArray(v);
const sessionOf = (meta: Meta | undefined): string => meta?.SessionKey ?? "";
const details = (err: unknown): string => (err instanceof Error && err.stack !== undefined ? err.stack : String(err));

class Lifecycle {
  private readonly hooks: LifecycleHooks;
  private readonly log: (message: string) => void;
  // Sessions started and not ended, with their SessionStart callbacks' run.
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
    const has = (...events: HookEvent[]): boolean => events.some((e) => (this.hooks[e]?.length ?? 0) > 0);
    if (has("UserPromptSubmit")) hook.beforeLLM((req, ctx) => this.beforeLLM(req, ctx));
    if (has("PreToolUse")) hook.beforeTool((call, ctx) => this.beforeTool(call, ctx));
    if (has("PostToolUse", "PostToolUseFailure")) hook.afterTool((ran, ctx) => this.afterTool(ran, ctx));
    if (has("PermissionRequest") || options.canUseTool !== undefined)
      hook.approveTool((req, ctx) => this.approveTool(req, ctx));
    if (has("SessionStart", "SessionEnd", "TaskCompleted")) {
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

  /**
   * Runs the callbacks of one event in order, each on the input as the one
   * before left it, until one skips or aborts. A callback that throws, or
   * answers something else, is logged and counts as continue.
   */
  private async chain<E extends HookEvent>(
    event: E,
    input: HookInputs[E],
    ctx: Context,
    apply?: (input: HookInputs[E], out: Any) => HookInputs[E],
  ): Promise<Outcome<E>> {
    const callbacks = (this.hooks[event] ?? []) as readonly HookCallback<E>[];
    for (const [i, callback] of callbacks.entries()) {
      const which = `${event} callback ${i + 1}`;
      let out: unknown;
      try {
        out = await callback(input, ctx);
      } catch (err) {
        this.log(`hookwire: ${which} failed, taken as continue: ${details(err)}`);
        continue;
      }
      const action = isObject(out) ? out["action"] : undefined;
      if (action === "skip" || action === "abort") return { input, stop: out as HookSkip | HookAbort };
      if (action !== "continue") {
        this.log(`hookwire: ${which} answered ${JSON.stringify(out)}, not continue, skip or abort: taken as continue`);
        continue;
      }
      if (apply !== undefined) {
        try {
          input = apply(input, out as Any);
        } catch (err) {
          this.log(`hookwire: ${which}: ${err instanceof Error ? err.message : String(err)}; taken as continue`);
        }
      }
    }
    return { input };
  }

  /** Runs SessionStart the first time a session is seen; resolves once it has run. */
  private start(key: string, ctx: Context): Promise<void> {
    let started = this.open.get(key);
    if (started === undefined) {
      started = this.chain("SessionStart", { event: "SessionStart", sessionId: key }, ctx).then(() => {});
      this.open.set(key, started);
    }
    return started;
  }

  /** Runs SessionEnd for a session started and not ended. */
  private async end(key: string, ctx: Context): Promise<void> {
    const started = this.open.get(key);
    if (started === undefined) return;
    this.open.delete(key);
    this.turns.delete(key);
    await started;
    await this.chain("SessionEnd", { event: "SessionEnd", sessionId: key }, ctx);
  }

  private async observe(event: RuntimeEvent, ctx: Context): Promise<void> {
    let key = event.scope.session_key ?? "";
    if (key === "" && event.kind.startsWith("agent.session.") && isObject(event.payload)) {
      const k = event.payload["SessionKey"];
      if (typeof k === "string") key = k;
    }
    if (key === "") return;
    if (event.kind === "agent.session.end") return this.end(key, ctx);
    await this.start(key, ctx);
    if (event.kind === "agent.turn.end") {
      await this.chain(
        "TaskCompleted",
        { event: "TaskCompleted", sessionId: key, payload: event.payload ?? null },
        ctx,
      );
    }
  }

  /** Whether a before_llm call is the first of its turn. */
  private firstOfTurn(sessionId: string, req: BeforeLLMParams): boolean {
    const turn = req.meta?.TurnID;
    if (turn === undefined || turn === "") return (req.messages ?? []).at(-1)?.role === "user";
    let seen = this.turns.get(sessionId);
    if (seen === undefined) {
      seen = new Set();
      this.turns.set(sessionId, seen);
    }
    if (seen.has(turn)) return false;
    seen.add(turn);
    return true;
  }

  private async beforeLLM(req: BeforeLLMParams, ctx: Context): Promise<BeforeLLMResult> {
    const sessionId = sessionOf(req.meta);
    await this.start(sessionId, ctx);
    if (!this.firstOfTurn(sessionId, req)) return continue_();
    const history = req.messages ?? []; // a host leaves an empty history out
    let at = history.length - 1;
    while (at >= 0 && history[at]!.role !== "user") at--;
    const message = history[at]?.content ?? "";
    const { input, stop } = await this.chain(
      "UserPromptSubmit",
      { event: "UserPromptSubmit", sessionId, message },
      ctx,
      (input, out) => {
        const text = out["modifiedInput"];
        if (text === undefined) return input;
        if (typeof text !== "string") throw new Error("modifiedInput is not a string, ignored");
        if (at < 0) throw new Error("the request has no user message to replace, modifiedInput ignored");
        return { ...input, message: text };
      },
    );
    if (stop?.action === "abort") return abortTurn(stop.reason);
    if (input.message === message) return continue_();
    const messages = [...history];
    messages[at] = { ...messages[at]!, content: input.message };
    return modify(req, { messages });
  }

  private async beforeTool(call: BeforeToolParams, ctx: Context): Promise<BeforeToolResult> {
    const sessionId = sessionOf(call.meta);
    await this.start(sessionId, ctx);
    const received: HookInputs["PreToolUse"] = {
      event: "PreToolUse",
      sessionId,
      toolName: call.tool,
      toolInput: call.arguments ?? {},
    };
    const { input, stop } = await this.chain("PreToolUse", received, ctx, (input, out) => {
      const args = out["modifiedInput"];
      if (args === undefined) return input;
      if (!isObject(args)) throw new Error("modifiedInput is not an object of arguments, ignored");
      return { ...input, toolInput: args as ToolInput };
    });
    if (stop?.action === "skip") return denyTool(stop.reason ?? `${call.tool} skipped by a PreToolUse callback`);
    if (stop?.action === "abort") return abortTurn(stop.reason);
    return input === received ? continue_() : modify(call, { arguments: input.toolInput });
  }

  private async afterTool(ran: AfterToolParams, ctx: Context): Promise<AfterToolResult> {
    const sessionId = sessionOf(ran.meta);
    await this.start(sessionId, ctx);
    const toolInput = ran.arguments ?? {};
    const received = ran.result ?? { for_llm: "" }; // a host leaves an empty result out
    let result = received;
    const replace = (out: Any): boolean => {
      const output = out["modifiedOutput"];
      if (output === undefined) return false;
      if (typeof output === "string") result = { ...result, for_llm: output };
      else if (isObject(output) && typeof output["for_llm"] === "string") result = output as unknown as ToolResult;
      else throw new Error("modifiedOutput is neither a string nor a ToolResult, ignored");
      return true;
    };
    const { stop } =
      received.is_error === true
        ? await this.chain(
            "PostToolUseFailure",
            { event: "PostToolUseFailure", sessionId, toolName: ran.tool, toolInput, error: new Error(result.for_llm) },
            ctx,
            (input, out) => (replace(out) ? { ...input, error: new Error(result.for_llm) } : input),
          )
        : await this.chain(
            "PostToolUse",
            { event: "PostToolUse", sessionId, toolName: ran.tool, toolInput, toolOutput: result },
            ctx,
            (input, out) => (replace(out) ? { ...input, toolOutput: result } : input),
          );
    if (stop?.action === "abort") return abortTurn(stop.reason);
    return result === received ? continue_() : modify(ran, { result });
  }

  private async approveTool(req: ApproveToolParams, ctx: Context): Promise<ApproveToolResult> {
    const sessionId = sessionOf(req.meta);
    await this.start(sessionId, ctx);
    const affectedPaths = req.affected_paths ?? [];
    const known = req.tool_kind === undefined ? {} : { toolKind: req.tool_kind };
    const input: HookInputs["PermissionRequest"] = {
      event: "PermissionRequest",
      sessionId,
      toolName: req.tool,
      toolInput: req.arguments ?? {},
      ...known,
      affectedPaths,
    };
    const { stop } = await this.chain("PermissionRequest", input, ctx);
    if (stop !== undefined)
      return { approved: false, reason: stop.reason ?? `${req.tool} refused by a PermissionRequest callback` };
    const canUseTool = this.options.canUseTool;
    if (canUseTool === undefined) return { approved: true };
    let verdict: unknown;
    try {
      verdict = await canUseTool(req.tool, req.arguments ?? {}, {
        signal: ctx.signal,
        ...known,
        affectedPaths: [...affectedPaths],
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
          reason: `canUseTool allowed ${req.tool} with updated input, which this host cannot apply (it does not announce ${APPROVE_ARGUMENTS})`,
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
