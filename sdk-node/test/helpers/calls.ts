// What the tests of a hook's handlers, observers and plugin tools share: a
// request and a call as a host sends them, a tool, and a log that keeps
// its lines.

import type { BeforeLLMParams, BeforeToolParams } from "../../src/index.js";

export const request: BeforeLLMParams = {
  meta: { AgentID: "main", TurnID: "t1", ParentTurnID: "", SessionKey: "s", Iteration: 1 },
  context: { inbound: { channel: "cli", chat_id: "direct", sender_id: "u1" } },
  model: "m",
  messages: [{ role: "user", content: "What's the weather in Beijing?" }],
  tools: [{ type: "function", function: { name: "exec", description: "run", parameters: { type: "object" } } }],
  options: { max_tokens: 4096, temperature: 0.7 },
};

export const call = (tool: string, args: BeforeToolParams["arguments"]): BeforeToolParams => ({
  meta: { AgentID: "main" },
  tool,
  arguments: args,
});

/** A log that keeps its lines, for asserting on what goes to stderr. */
export function capture(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => void lines.push(line) };
}

export const weather = {
  name: "get_weather",
  description: "Query weather information for a specified city",
  parameters: {
    type: "object",
    properties: { city: { type: "string", description: "City name" } },
    required: ["city"],
  },
} as const;
