// What the lifecycle tests send a lifecycle hook: calls and events of a
// session, and a hook whose log lines are kept.

import {
  type AfterToolParams,
  type ApproveToolParams,
  type BeforeLLMParams,
  type BeforeToolParams,
  type HookInput,
  type LifecycleOptions,
  lifecycle,
  type RuntimeEvent,
  type TestClient,
  testHook,
} from "../../src/index.js";

const meta = (session: string, turn: string) => ({
  AgentID: "agent-1",
  SessionKey: session,
  TurnID: turn,
  Iteration: 1,
});

export const request = (session: string, turn: string, text = "Read notes.txt"): BeforeLLMParams => ({
  meta: meta(session, turn),
  model: "scripted",
  messages: [
    { role: "system", content: "You are helpful." },
    { role: "user", content: text },
  ],
  tools: [{ type: "function", function: { name: "read_file" } }],
  options: { temperature: 0 },
  channel: "cli",
});

export const call = (tool: string, args: BeforeToolParams["arguments"], session = "s1"): BeforeToolParams => ({
  meta: meta(session, "t1"),
  tool,
  arguments: args,
  chat_id: "chat-1",
});

export const ran = (tool: string, result: AfterToolParams["result"], session = "s1"): AfterToolParams => ({
  meta: meta(session, "t1"),
  tool,
  arguments: { path: "notes.txt" },
  result,
  duration: 1500,
});

export const approval = (tool: string, more: Partial<ApproveToolParams> = {}): ApproveToolParams => ({
  meta: meta("s1", "t1"),
  tool,
  arguments: { command: "ls" },
  ...more,
});

export const event = (kind: string, session: string, payload: RuntimeEvent["payload"] = {}): RuntimeEvent => ({
  kind,
  source: { component: "agent" },
  scope: { session_key: session },
  payload,
});

/** A lifecycle hook whose log lines and callbacks' inputs are kept. */
export function setup(options: LifecycleOptions): { t: TestClient; logs: string[] } {
  const logs: string[] = [];
  const hook = lifecycle("lc", { log: (line) => void logs.push(line), ...options });
  return { t: testHook(hook, { log: (line) => void logs.push(line) }), logs };
}

/** A callback that records what it saw, as "event detail", and continues. */
export function recorder(seen: string[]) {
  return (input: HookInput) => {
    const detail =
      "message" in input
        ? input.message
        : "toolInput" in input
          ? `${input.toolName} ${JSON.stringify(input.toolInput)}`
          : input.sessionId;
    seen.push(`${input.event} ${detail}`);
    return { action: "continue" as const };
  };
}
