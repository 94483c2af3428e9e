// The replies an interceptor gives, built so that the easy path is the
// right one on the wire: a modify carries the whole object, because hosts
// replace what they sent with what comes back; they do not merge.

import {
  type AfterLLMModify,
  type AfterLLMParams,
  type AfterToolModify,
  type AfterToolParams,
  type ApproveToolResult,
  type BeforeLLMModify,
  type BeforeLLMParams,
  type BeforeToolModify,
  type BeforeToolParams,
  continue_,
  denyTool,
  type Respond,
  type ToolResult,
} from "./protocol.gen.js";

/**
 * Replaces the object the host sent: pass the object received and the
 * members to change, and get a `modify` reply carrying the whole new object,
 * with every member you did not change (unknown ones too) kept as received.
 * Which member carries it (request, response, call or result) follows from
 * the method whose params you pass.
 */
export function modify(received: BeforeLLMParams, changes?: Partial<BeforeLLMParams>): BeforeLLMModify;
export function modify(received: AfterLLMParams, changes?: Partial<AfterLLMParams>): AfterLLMModify;
export function modify(received: AfterToolParams, changes?: Partial<AfterToolParams>): AfterToolModify;
export function modify(received: BeforeToolParams, changes?: Partial<BeforeToolParams>): BeforeToolModify;
export function modify(
  received: BeforeLLMParams | AfterLLMParams | AfterToolParams | BeforeToolParams,
  changes?: object,
): BeforeLLMModify | AfterLLMModify | AfterToolModify | BeforeToolModify {
  const whole = { ...received, ...changes };
  // The member is guessed from the object, for a caller that reads the
  // reply; a host may leave out every member that would tell, so the
  // session answering the call puts the whole object where its method
  // wants it. It is kept under a hidden symbol: JSON, deep equality and a
  // spread (which makes a reply of its own) leave it out.
  let reply: BeforeLLMModify | AfterLLMModify | AfterToolModify | BeforeToolModify;
  if ("messages" in received) reply = { action: "modify", request: whole as BeforeLLMParams };
  else if ("response" in received) reply = { action: "modify", response: whole as AfterLLMParams };
  else if ("result" in received) reply = { action: "modify", result: whole as AfterToolParams };
  else reply = { action: "modify", call: whole as BeforeToolParams };
  return Object.defineProperty(reply, modified, { value: whole });
}

/** Where a modify reply carries the whole object, by method. */
const modifyMember: Readonly<Record<string, string>> = {
  "hook.before_llm": "request",
  "hook.after_llm": "response",
  "hook.before_tool": "call",
  "hook.after_tool": "result",
};

/**
 * The whole object of a reply that {@link modify} built. Symbol.for, so that
 * a reply built by the CommonJS build of the package is placed by the ES
 * module's session, and the other way round.
 */
const modified = Symbol.for("hookwire.modified");

/**
 * The reply to method as a handler meant it: a reply modify() built
 * carries its object in the member of that method, and in no other.
 */
export function placeModified(method: string, reply: unknown): unknown {
  const member = modifyMember[method];
  if (member === undefined || typeof reply !== "object" || reply === null || !(modified in reply)) return reply;
  const {
    [modified]: whole,
    request: _r,
    response: _s,
    call: _c,
    result: _t,
    ...rest
  } = reply as Record<PropertyKey, unknown>;
  return { ...rest, [member]: whole };
}

/**
 * Answers a tool call without running the tool (`before_tool` only): the
 * tool, its approval and `after_tool` are skipped. Pass the text the LLM
 * sees, and any other ToolResult member (`is_error`, `for_user`, `silent`,
 * `media`, `response_handled`, ...), or a whole ToolResult.
 */
export function respond(result: string | ToolResult, more?: Partial<ToolResult>): Respond {
  const whole: ToolResult = typeof result === "string" ? { for_llm: result, ...more } : { ...result, ...more };
  return { action: "respond", result: whole };
}

/**
 * An approver's "no opinion" (`approveTool` only): the host asks its next
 * approver, then applies its own default, as if this hook had not been
 * asked. A host that does not announce the `HostExtensions.ApproveToolAbstain` extension
 * reads it as a denial, so abstaining never approves by accident.
 */
export function abstain(): ApproveToolResult {
  return { approved: false, abstain: true };
}

// The names of before every SDK named each helper after its action, kept
// for hooks written with them.

/** @deprecated The `continue` action's helper is `continue_`. */
export const pass = continue_;

/** @deprecated The `deny_tool` action's helper is `denyTool`. */
export const deny = denyTool;
