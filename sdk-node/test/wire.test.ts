// The hook as a real child process: the dispatch loop, the protected
// stdout and the lifecycle, seen from the host's side of the pipes.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";

import { fixture, HookProcess } from "./helpers/hook-process.js";

const started: HookProcess[] = [];
const start = (): HookProcess => {
  const hook = HookProcess.node(fixture("wire-hook"));
  started.push(hook);
  return hook;
};
afterEach(() => {
  for (const hook of started.splice(0)) hook.kill();
});

const toolCall = (tool: string, args: object = {}) => ({ meta: { AgentID: "main" }, tool, arguments: args });

/** Every stdout line must be a whole JSON-RPC message: nothing else may reach the wire. */
function assertOnlyProtocol(hook: HookProcess): void {
  for (const line of hook.lines) {
    const msg = JSON.parse(line) as { jsonrpc?: unknown };
    assert.equal(msg.jsonrpc, "2.0", `not a protocol line on stdout: ${line}`);
  }
}

describe("the dispatch loop", () => {
  it("answers hook.hello with the name and the modes of the registered handlers", async () => {
    const hook = start();
    const reply = await hook.request("hook.hello", { name: "wire", version: 1, modes: ["tool"] });
    assert.deepEqual(reply, { jsonrpc: "2.0", id: 1, result: { ok: true, name: "wire", modes: ["llm", "tool"] } });
  });

  it("warns about an unknown protocol version on stderr and carries on", async () => {
    const hook = start();
    const reply = await hook.request("hook.hello", { name: "wire", version: 99, modes: [] });
    assert.equal(reply.result?.["ok"], true);
    assert.deepEqual(await hook.close(), { code: 0, signal: null });
    assert.match(hook.stderr, /protocol version 99/);
  });

  it("answers a line that is not JSON with -32700 and a null id, then goes on", async () => {
    const hook = start();
    hook.send("this is not json");
    const parse = await hook.reply(null);
    assert.equal(parse.error?.code, -32700);
    assert.equal(parse.id, null);
    const next = await hook.request("hook.before_tool", toolCall("other"));
    assert.deepEqual(next.result, { action: "continue" });
  });

  it("answers an unknown method with -32601", async () => {
    const hook = start();
    const reply = await hook.request("hook.not_a_method", {});
    assert.deepEqual(reply.error, { code: -32601, message: "method not found: hook.not_a_method" });
  });

  it("answers a handler that throws with -32000 and its message, details on stderr", async () => {
    const hook = start();
    const reply = await hook.request("hook.before_tool", toolCall("throw"));
    assert.deepEqual(reply.error, { code: -32000, message: "boom" });
    assert.deepEqual((await hook.request("hook.before_tool", toolCall("other"))).result, { action: "continue" });
    await hook.close();
    assert.match(hook.stderr, /hook\.before_tool \(id 1\) failed: Error: boom\n\s+at /);
  });

  it("answers a handler that throws a HookError with its code, message and data, then goes on", async () => {
    const hook = start();
    const data = { retry_after: 5, scopes: ["a", "b"] };
    const reply = await hook.request(
      "hook.before_tool",
      toolCall("hook_error", { code: -32010, message: "quota", data }),
    );
    assert.deepEqual(reply, { jsonrpc: "2.0", id: 1, error: { code: -32010, message: "quota", data } });
    const bare = await hook.request("hook.before_tool", toolCall("hook_error", { code: 4, message: "no data" }));
    assert.deepEqual(bare, { jsonrpc: "2.0", id: 2, error: { code: 4, message: "no data" } });
    assert.deepEqual((await hook.request("hook.before_tool", toolCall("other"))).result, { action: "continue" });
    assert.deepEqual(await hook.close(), { code: 0, signal: null });
    assert.match(hook.stderr, /hook\.before_tool \(id 1\) answered error -32010: quota/);
    assert.doesNotMatch(hook.stderr, /\n\s+at /, "a HookError is an answer, not a crash: no stack");
  });

  it("sends no reply to notifications", async () => {
    const hook = start();
    hook.send(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "hook.runtime_event",
        params: { kind: "agent.turn.start", source: {}, scope: {}, payload: null },
      }),
    );
    hook.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "hook.event", params: { Kind: "turn_start" } }));
    const id = hook.post("hook.before_tool", toolCall("other"));
    await hook.reply(id);
    await hook.close();
    assert.equal(hook.lines.length, 1, `only the request is answered: ${hook.lines.join("\n")}`);
  });

  it("answers 50 concurrent slow requests, each by its id, as each finishes", async () => {
    const hook = start();
    const n = 50;
    const ids: number[] = [];
    // The first sent is the slowest: in order, the replies would come last first.
    for (let i = 0; i < n; i++) ids.push(hook.post("hook.before_tool", toolCall("slow", { ms: (n - i) * 20, n: i })));
    const replies = await Promise.all(ids.map((id) => hook.reply(id)));
    replies.forEach((reply, i) => {
      assert.deepEqual(reply, {
        jsonrpc: "2.0",
        id: ids[i],
        result: { action: "respond", result: { for_llm: `slow ${i}` } },
      });
    });
    const order = hook.lines.map((line) => (JSON.parse(line) as { id: number }).id);
    assert.deepEqual(order, [...ids].reverse(), "the fastest is answered first, not held up by the slow ones");
  });

  it("reads and writes a line of 70 MiB to a host that announces it reads that much", async () => {
    const hook = start();
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["llm"], max_line_bytes: 128 << 20 });
    const content = "x".repeat(70 << 20);
    const req = { model: "echo", messages: [{ role: "user", content }] };
    const reply = await hook.request("hook.before_llm", req);
    assert.deepEqual(reply.result, { action: "modify", request: req });
  });

  it("splits lines that arrive in pieces and several lines in one piece", async () => {
    const hook = start();
    const a = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hook.before_tool", params: toolCall("a") });
    const b = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "hook.before_tool", params: toolCall("b") });
    hook.child.stdin.write(a.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    hook.child.stdin.write(a.slice(10) + "\n" + b + "\r\n");
    assert.deepEqual((await hook.reply(1)).result, { action: "continue" });
    assert.deepEqual((await hook.reply(2)).result, { action: "continue" });
  });
});

describe("handlers that return nothing", () => {
  it("let every call through: each is answered continue", async () => {
    const hook = HookProcess.node(fixture("silent-hook"));
    started.push(hook);
    assert.deepEqual(
      (await hook.request("hook.hello", { name: "silent", version: 1, modes: ["llm", "tool"] })).result,
      {
        ok: true,
        name: "silent",
        modes: ["llm", "tool"],
      },
    );
    const calls: [string, object][] = [
      ["hook.before_llm", { model: "m", messages: [{ role: "user", content: "hi" }] }],
      ["hook.after_llm", { model: "m", response: { content: "hello" } }],
      ["hook.before_tool", toolCall("ls")],
      ["hook.after_tool", { ...toolCall("ls"), result: { for_llm: "a b" } }],
    ];
    for (const [method, params] of calls) {
      const reply = await hook.request(method, params);
      assert.deepEqual(reply.result, { action: "continue" }, `${method}: ${JSON.stringify(reply)}`);
    }
    // The same handler still decides when it returns something.
    assert.deepEqual((await hook.request("hook.before_tool", toolCall("rm"))).result, {
      action: "deny_tool",
      reason: "not here",
    });
    assert.deepEqual(await hook.close(), { code: 0, signal: null });
    assert.equal(hook.stderr, "");
    assertOnlyProtocol(hook);
  });
});

describe("the protocol channel", () => {
  it("sends console.log, console.info and process.stdout.write of a handler to stderr", async () => {
    const hook = start();
    const reply = await hook.request("hook.before_tool", toolCall("log"));
    assert.deepEqual(reply.result, { action: "respond", result: { for_llm: "logged" } });
    await hook.close();
    assertOnlyProtocol(hook);
    assert.match(hook.stderr, /console\.log from a handler/);
    assert.match(hook.stderr, /console\.info from a handler/);
    assert.match(hook.stderr, /process\.stdout\.write from a handler/);
  });

  it("sends the stdout of child processes to stderr", async () => {
    const hook = start();
    const reply = await hook.request("hook.before_tool", toolCall("children"));
    assert.deepEqual(reply.result, { action: "respond", result: { for_llm: "children done" } });
    await hook.close();
    assertOnlyProtocol(hook);
    for (const how of [
      "spawn with inherited stdio",
      "spawn with stdout as fd 1",
      "fork",
      "execSync with inherited stdio",
      "spawnSync with inherited stdio",
    ]) {
      assert.ok(hook.stderr.includes(how + "\n"), `${how}: not on stderr:\n${hook.stderr}`);
    }
  });
});

describe("the lifecycle", () => {
  it("exits 0 when stdin closes, after the calls in flight are answered", async () => {
    const hook = start();
    const id = hook.post("hook.before_tool", toolCall("slow", { ms: 300, n: 1 }));
    const exit = await hook.close();
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.deepEqual(JSON.parse(hook.lines[0] ?? "null"), {
      jsonrpc: "2.0",
      id,
      result: { action: "respond", result: { for_llm: "slow 1" } },
    });
  });

  it("answers a last line that has no newline before exiting", async () => {
    const hook = start();
    hook.child.stdin.end(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "hook.before_tool", params: toolCall("a") }));
    assert.deepEqual(await hook.exited(), { code: 0, signal: null });
    assert.deepEqual(JSON.parse(hook.lines[0] ?? "null").id, 7);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`exits 0 on ${signal}, aborting the handlers' signal`, async () => {
      const hook = start();
      await hook.request("hook.hello", { name: "wire", version: 1, modes: [] });
      hook.post("hook.before_tool", toolCall("until_stopped"));
      // Let the request reach its handler before the signal.
      await new Promise((resolve) => setTimeout(resolve, 100));
      hook.child.kill(signal);
      assert.deepEqual(await hook.exited(), { code: 0, signal: null });
      assertOnlyProtocol(hook);
    });
  }
});
