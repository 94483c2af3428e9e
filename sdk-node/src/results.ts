// The replies an interceptor gives, built so that the easy path is the
// right one on the wire: a modify carries the whole object, because hosts
// replace what they sent with what comes back; they do not merge.

import type {
  AbortTurn,
  AfterLLMModify,
  AfterLLMParams,
  AfterToolModify,
  AfterToolParams,
  BeforeLLMModify,
  BeforeLLMParams,
  BeforeToolModify,
  BeforeToolParams,
  Continue,
  DenyTool,
  HardAbort,
  Respond,
  ToolResult,
} from "./protocol.gen.js";

/** Lets the object through unchanged: the `continue` action. */
export function pass(reason?: string): Continue {
  return reason === undefined ? { action: "continue" } : { action: "continue", reason };
}

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
  const { [modified]: whole, request: _r, response: _s, call: _c, result: _t, ...rest } = reply as Record<PropertyKey, unknown>;
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

/** Refuses to run the tool (`before_tool` only); the LLM is told the reason. */
export function deny(reason: string): DenyTool {
  return { action: "deny_tool", reason };
}

/** Ends the current turn with an error. */
export function abortTurn(reason?: string): AbortTurn {
  return reason === undefined ? { action: "abort_turn" } : { action: "abort_turn", reason };
}

/** Stops the whole agent loop. */
export function hardAbort(reason?: string): HardAbort {
  return reason === undefined ? { action: "hard_abort" } : { action: "hard_abort", reason };
}
