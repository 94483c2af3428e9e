// Every message a host sends reaches its handler: the lines of the PicoClaw
// capture and the messages with the members that host leaves out or adds.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { type AfterLLMParams, continue_, Hook, testHook } from "../src/index.js";

const validDir = new URL("../../../schema/testdata/valid/", import.meta.url);

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
}

const messages = new Map<string, Message>();
for (const file of readdirSync(validDir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const message = (JSON.parse(readFileSync(new URL(file, validDir), "utf8")) as { message?: Message }).message;
  if (message?.method !== undefined && message.method !== "hook.hello")
    messages.set(file.replace(/\.json$/, ""), message);
}

test("the capture and the absent-member vectors are there", () => {
  for (const name of ["capture.2.before_llm", "capture.7.runtime_event", "after_llm.params.tool_call_id_only"]) {
    assert.ok(messages.has(name), name);
  }
});

for (const [name, message] of messages) {
  test(`every message a host sends reaches its handler: ${name}`, async () => {
    const reached: string[] = [];
    const hook = new Hook("all")
      .beforeLLM(() => (reached.push("hook.before_llm"), continue_()))
      .afterLLM(() => (reached.push("hook.after_llm"), continue_()))
      .beforeTool(() => (reached.push("hook.before_tool"), continue_()))
      .afterTool(() => (reached.push("hook.after_tool"), continue_()))
      .approveTool(() => (reached.push("hook.approve_tool"), { approved: true }))
      .on("*", () => void reached.push("event"));
    const client = testHook(hook);
    if ((message.id ?? 0) === 0) {
      client.line(JSON.stringify(message));
      await client.close();
      assert.deepEqual(reached, ["event"]);
    } else {
      const reply = await client.request(message.method!, message.params);
      assert.equal(reply.error, undefined, JSON.stringify(reply));
      assert.deepEqual(reached, [message.method]);
    }
  });
}

test("an after_llm whose tool call has only an id is handled", async () => {
  const seen: AfterLLMParams[] = [];
  const hook = new Hook("h").afterLLM((res) => (seen.push(res), continue_()));
  const result = await testHook(hook).afterLLM({
    meta: { TurnID: "t1" },
    model: "gpt-4o",
    response: {
      content: "",
      tool_calls: [{ id: "call-1" }],
      finish_reason: "tool_calls",
      reasoning: "",
      reasoning_details: null,
    },
  });
  assert.equal(result.action ?? "continue", "continue");
  const call = seen[0]?.response?.tool_calls?.[0];
  assert.equal(call?.function, undefined); // absent, not an error
  assert.deepEqual(call, { id: "call-1" });
});

test("a plugin tool called with no arguments, which a host leaves out, runs with none", async () => {
  const hook = new Hook("h").tool(
    { name: "now", description: "the time", parameters: { type: "object", properties: {} } },
    async () => "noon",
  );
  assert.deepEqual(await testHook(hook).beforeTool({ tool: "now" }), {
    action: "respond",
    result: { for_llm: "noon" },
  });
});
