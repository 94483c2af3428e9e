import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AfterLLMParams, AfterToolParams, BeforeLLMParams, BeforeToolParams } from "../src/index.js";
import { abortTurn, continue_, deny, denyTool, hardAbort, modify, pass, respond } from "../src/index.js";

describe("reply helpers", () => {
  it("continue_ is continue, with an optional reason", () => {
    assert.deepEqual(continue_(), { action: "continue" });
    assert.deepEqual(continue_("fine"), { action: "continue", reason: "fine" });
  });

  it("denyTool, abortTurn and hardAbort carry their action and reason", () => {
    assert.deepEqual(denyTool("dangerous"), { action: "deny_tool", reason: "dangerous" });
    assert.deepEqual(abortTurn(), { action: "abort_turn" });
    assert.deepEqual(abortTurn("stop"), { action: "abort_turn", reason: "stop" });
    assert.deepEqual(hardAbort(), { action: "hard_abort" });
    assert.deepEqual(hardAbort("halt"), { action: "hard_abort", reason: "halt" });
  });

  it("pass and deny, the names of before, are continue_ and denyTool", () => {
    assert.equal(pass, continue_);
    assert.equal(deny, denyTool);
  });

  it("respond takes text and any other ToolResult member", () => {
    assert.deepEqual(respond("done"), { action: "respond", result: { for_llm: "done" } });
    assert.deepEqual(respond("no such city", { is_error: true }), {
      action: "respond",
      result: { for_llm: "no such city", is_error: true },
    });
    assert.deepEqual(
      respond("Image sent", { media: ["media://abc123"], response_handled: true, for_user: "here", silent: false }),
      {
        action: "respond",
        result: {
          for_llm: "Image sent",
          media: ["media://abc123"],
          response_handled: true,
          for_user: "here",
          silent: false,
        },
      },
    );
    assert.deepEqual(respond({ for_llm: "x", async: true }), {
      action: "respond",
      result: { for_llm: "x", async: true },
    });
  });

  it("modify of a before_llm request returns the whole request, unknown members kept", () => {
    const req = {
      meta: { AgentID: "main" },
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      options: { temperature: 0.7 },
      future_member: 1,
    } as BeforeLLMParams;
    const out = modify(req, { model: "other" });
    assert.deepEqual(out, { action: "modify", request: { ...req, model: "other" } });
    assert.equal(req.model, "m", "the received object is not changed");
  });

  it("modify picks the member each method's result carries", () => {
    const call: BeforeToolParams = { tool: "echo", arguments: { text: "hi" }, channel: "cli" };
    assert.deepEqual(modify(call, { arguments: { text: "bye" } }), {
      action: "modify",
      call: { tool: "echo", arguments: { text: "bye" }, channel: "cli" },
    });
    const answer: AfterLLMParams = { model: "m", response: { content: "Hi!" } };
    assert.deepEqual(modify(answer, { response: { content: "Hello!" } }), {
      action: "modify",
      response: { model: "m", response: { content: "Hello!" } },
    });
    const ran: AfterToolParams = { tool: "echo", arguments: {}, result: { for_llm: "a" }, duration: 15000000 };
    assert.deepEqual(modify(ran, { result: { ...ran.result, for_llm: "b" } }), {
      action: "modify",
      result: { tool: "echo", arguments: {}, result: { for_llm: "b" }, duration: 15000000 },
    });
  });

  it("modify with no changes sends the object back whole", () => {
    const call: BeforeToolParams = { tool: "echo", arguments: { text: "hi" } };
    assert.deepEqual(modify({ ...call, tool: "echo_text" }), {
      action: "modify",
      call: { tool: "echo_text", arguments: { text: "hi" } },
    });
  });
});
