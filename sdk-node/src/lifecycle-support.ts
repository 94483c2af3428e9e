// The lifecycle vocabulary (what a callback answers, what canUseTool
// decides) and the rows of the lifecycle table, with what the runner
// (lifecycle.ts) reads a call with and answers an outcome with.
//
// lifecycle.gen.ts holds the table (schema/lifecycle.json) as data: for
// each event, where it comes from (methods, eventRows, or a session step:
// sessionStart, sessionEnd and endKinds), its named conditions (when,
// unless), the members its input is read from, what a callback's modified
// value replaces and what skip and abort become. What each word means is on
// the table's page, docs/lifecycle.md; lifecycle.ts gives it effect, with
// the session key read at sessionKey (a call without one is in the session
// "", a runtime event without one in none).

import type { Awaitable } from "./handlers.js";
import type { JsonValue, ToolKind, ToolResult } from "./protocol.gen.js";

/** A tool's arguments. */
export type ToolInput = { [key: string]: JsonValue };

// modifiedInput and modifiedOutput are `never` where an event has no use for
// them, so that a callback answering one there does not compile.

/** Lets the next callback run. */
export interface HookContinue {
  action: "continue";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: never;
}
/** Continue, with a modified input. */
export interface HookModifyInput<T> {
  action: "continue";
  reason?: string;
  /** Replaces, with continue, the input for the callbacks after this one and for the host: in UserPromptSubmit, the new text of the user's message; in PreToolUse, the tool's new arguments, whole. */
  modifiedInput?: T;
  modifiedOutput?: never;
}
/** Continue, with a modified output. */
export interface HookModifyOutput {
  action: "continue";
  reason?: string;
  modifiedInput?: never;
  /** Replaces, with continue, the tool's result: in PostToolUse and PostToolUseFailure, the tool's new result: a whole ToolResult, or a string, the new for_llm. */
  modifiedOutput?: string | ToolResult;
}
/** Stops the callbacks after this one, and skips what the event is about: PreToolUse denies the tool call, PermissionRequest refuses it. */
export interface HookSkip {
  action: "skip";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: never;
}
/** Stops the callbacks after this one and ends the turn (PermissionRequest refuses the call: approval cannot end a turn). */
export interface HookAbort {
  action: "abort";
  reason?: string;
  modifiedInput?: never;
  modifiedOutput?: never;
}

/** What canUseTool knows of a call besides its tool and arguments: what the host says of it, none and empty when it says nothing. */
export interface CanUseToolOptions {
  /** signal is aborted when the hook is told to stop. */
  signal: AbortSignal;
  /** toolKind is what the tool does to the world, when the host says. */
  toolKind?: ToolKind;
  /** affectedPaths are the paths the call touches, when the host says; empty otherwise. */
  affectedPaths: string[];
}

/** The verdict of canUseTool. */
export type PermissionResult =
  /** Runs the tool, with the updated input as its arguments when given. */
  | { behavior: "allow"; updatedInput?: ToolInput }
  /** Refuses the call; the LLM is told the message. */
  | { behavior: "deny"; message: string; interrupt?: boolean }
  /** Has no opinion: the next approver, then the host's default, decide. */
  | { behavior: "ask" };

/** The permission callback: may this tool call run? It decides the calls that the PermissionRequest callbacks let through. A failure is logged and counts as ask, so that a broken check approves nothing. */
export type CanUseTool = (
  toolName: string,
  input: ToolInput,
  options: CanUseToolOptions,
) => Awaitable<PermissionResult>;

/** An input field (by its TypeScript name), the member it is read from, and the field's type. */
export interface Source {
  field: string;
  member: string;
  type: string;
}

/** The modified value a row takes, the field it modifies, and that field's member and type. */
export interface Modify {
  value: "modifiedInput" | "modifiedOutput";
  field: string;
  member: string;
  type: string;
}

export interface Outcome {
  action: string;
  reason?: string;
}

export interface Row {
  event: string;
  input?: readonly Source[];
  when?: string;
  unless?: string;
  kind?: string;
  modify?: Modify;
  skip?: Outcome;
  abort?: Outcome;
}

/** A request method that events come from, with its rows. An approval's result is canUseTool's to decide after the rows. */
export interface Method {
  name: string;
  rows: readonly Row[];
  approval?: boolean;
}

export interface SessionKey {
  call: string;
  event: readonly string[];
}

/** A call's params or a runtime event, member by member. */
export type Params = { [key: string]: unknown };

/** What a callback that stops the others answered. */
export interface Stop {
  action: string;
  reason?: string | undefined;
}

export const isObject = (v: unknown): v is Params => typeof v === "object" && v !== null && !Array.isArray(v);

/** The member at a dotted path; undefined when there is none. */
export const get = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((v, name) => (isObject(v) ? v[name] : undefined), value);

/** How an input field of each type is read from its member, absent or not. */
const read: { [type: string]: (v: unknown) => unknown } = {
  arguments: (v) => (isObject(v) ? v : {}),
  json: (v) => v ?? null,
  paths: (v) => (Array.isArray(v) ? v : []),
  string: (v) => (typeof v === "string" ? v : ""),
  tool_error: (v) => new Error(isObject(v) ? String(v["for_llm"]) : ""),
  tool_kind: (v) => v,
  tool_result: (v) => (isObject(v) ? v : { for_llm: "" }),
};

/** A row's input, read from a call or event of the session: without the fields it does not have. */
export function readInput(row: Row, sessionId: string, params: Params): object {
  const input: Params = { event: row.event, sessionId };
  for (const s of row.input ?? []) {
    const value = read[s.type]!(source(params, s.member));
    if (value !== undefined) input[s.field] = value;
  }
  return input;
}

/** The member at a dotted path, or the text of the request's last user message. */
function source(params: Params, member: string): unknown {
  if (member !== "last_user_message") return get(params, member);
  return (params["messages"] as Params[] | undefined)?.[lastUser(params)]?.["content"];
}

/** The index of the request's last user message, -1 when it has none. */
function lastUser(params: Params): number {
  const messages = (params["messages"] ?? []) as Params[]; // a host leaves an empty history out
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!["role"] !== "user") at--;
  return at;
}

/**
 * Takes a callback's modified value into the call, in place of the member
 * it replaces, as the type of the field it modifies; throws when it cannot.
 */
export function replace(params: Params, modify: Modify, value: unknown): void {
  let taken = value;
  if (modify.type === "string") {
    if (typeof value !== "string") throw new Error(`${modify.value} is not a string, ignored`);
  } else if (modify.type === "arguments") {
    if (!isObject(value)) throw new Error(`${modify.value} is not an object of arguments, ignored`);
  } else {
    // a tool result, or the error it is read as
    if (typeof value !== "string" && typeof get(value, "for_llm") !== "string")
      throw new Error(`${modify.value} is neither a string nor a ToolResult, ignored`);
    if (typeof value === "string")
      taken = { ...(read["tool_result"]!(get(params, modify.member)) as Params), for_llm: value };
  }
  if (modify.member !== "last_user_message") {
    params[modify.member] = taken;
    return;
  }
  const at = lastUser(params);
  if (at < 0) throw new Error("the request has no user message to replace");
  const messages = [...(params["messages"] as Params[])];
  messages[at] = { ...messages[at], content: taken };
  params["messages"] = messages;
}

/** The result an outcome maps to, with the callback's reason or the row's, said after the call's tool. */
export function answer(outcome: Outcome, stop: Stop, tool: unknown): unknown {
  const fallback = outcome.reason === undefined ? undefined : `${String(tool)} ${outcome.reason}`;
  const reason = stop.reason ?? fallback;
  if (outcome.action === "refuse") return { approved: false, reason };
  return reason === undefined ? { action: outcome.action } : { action: outcome.action, reason };
}
