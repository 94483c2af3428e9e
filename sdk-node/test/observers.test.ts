// A hook's observers: which runtime events each sees, and what a failing or
// slow one does to the others and to the end of the hook.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { Hook, type RuntimeEvent, testHook } from "../src/index.js";
import { Session } from "../src/session.js";
import { capture } from "./helpers/calls.js";

describe("observers", () => {
  const event = (kind: string): RuntimeEvent => ({
    kind,
    source: { component: "agent", name: "main" },
    scope: { agent_id: "main", turn_id: "t1" },
    payload: { Tool: "exec" },
  });

  it("see the events whose kind matches their patterns", async () => {
    const seen: string[] = [];
    const hook = new Hook("h")
      .on("agent.tool.*", (e) => void seen.push(`tool ${e.kind}`))
      .on(["agent.turn.start", "agent.turn.end"], (e) => void seen.push(`turn ${e.kind}`))
      .on("*", (e) => void seen.push(`all ${e.kind}`))
      .on("agent.?urn.start", (e) => void seen.push(`one ${e.kind}`));
    const t = testHook(hook);
    await t.event(event("agent.tool.exec_start"));
    await t.event(event("agent.turn.start"));
    await t.event(event("agent.llm.request"));
    assert.deepEqual(seen, [
      "tool agent.tool.exec_start",
      "all agent.tool.exec_start",
      "turn agent.turn.start",
      "all agent.turn.start",
      "one agent.turn.start",
      "all agent.llm.request",
    ]);
  });

  it("see legacy hook.event notifications as runtime events of the mapped kind", async () => {
    const seen: { event: RuntimeEvent; legacy: unknown }[] = [];
    const hook = new Hook("h").on("agent.tool.*", async (e, ctx) => void seen.push({ event: e, legacy: ctx.legacy }));
    const legacy = {
      Kind: "tool_exec_start",
      Meta: { AgentID: "agent-1", TurnID: "turn-1", SessionKey: "s1" },
      Payload: { Tool: "echo_text", Arguments: { text: "hello" } },
    };
    await testHook(hook).event(legacy);
    assert.deepEqual(seen, [
      {
        event: {
          kind: "agent.tool.exec_start",
          source: {},
          scope: { agent_id: "agent-1", session_key: "s1", turn_id: "turn-1" },
          payload: { Tool: "echo_text", Arguments: { text: "hello" } },
        },
        legacy,
      },
    ]);
  });

  it("keeps a legacy kind the table does not know", async () => {
    const seen: string[] = [];
    const hook = new Hook("h").on("*", (e) => void seen.push(e.kind));
    await testHook(hook).event({ Kind: "brand_new" });
    assert.deepEqual(seen, ["brand_new"]);
  });

  it("report a failing observer on stderr; the test client rejects with its error", async () => {
    const { lines, log } = capture();
    const hook = new Hook("h").on("*", () => {
      throw new Error("disk full");
    });
    await assert.rejects(testHook(hook, { log }).event(event("agent.error")), /disk full/);
    assert.match(lines.join("\n"), /observer of agent.error failed: Error: disk full/);
  });

  it("run the others when one throws", async () => {
    const { lines, log } = capture();
    const seen: string[] = [];
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const hook = new Hook("h")
      .on("*", () => {
        throw new Error("disk full");
      })
      .on("*", async (e) => {
        await released;
        seen.push(`async ${e.kind}`);
      })
      .on("**", (e) => void seen.push(`sync ${e.kind}`));
    await assert.rejects(testHook(hook, { log }).event(event("agent.error")), /disk full/);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, ["sync agent.error", "async agent.error"]);
    assert.equal(lines.filter((l) => l.includes("failed: Error: disk full")).length, 1);
  });

  it("hold up the end of the hook only while one returns an unsettled promise", async () => {
    let finish = (): void => {};
    const hook = new Hook("h")
      .on("agent.turn.*", () => {})
      .on("agent.tool.*", () => new Promise<void>((resolve) => (finish = resolve)));
    const session = new Session(hook, () => {}, new AbortController().signal);
    const notify = (kind: string): string | undefined => {
      let reply: string | undefined;
      session.line(
        JSON.stringify({ jsonrpc: "2.0", method: "hook.runtime_event", params: event(kind) }),
        (l) => (reply = l),
      );
      return reply;
    };
    const ended: string[] = [];
    assert.equal(notify("agent.turn.start"), undefined);
    session.whenIdle(() => ended.push("after a synchronous observer"));
    assert.equal(notify("agent.tool.exec_start"), undefined);
    session.whenIdle(() => ended.push("after an asynchronous observer"));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ended, ["after a synchronous observer"]);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ended, ["after a synchronous observer", "after an asynchronous observer"]);
  });
});
