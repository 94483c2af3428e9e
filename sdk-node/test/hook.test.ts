import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  abortTurn,
  continue_,
  DecodeError,
  denyTool,
  Hook,
  HookError,
  HookwireError,
  modify,
  RpcError,
  respond,
  testHook,
} from "../src/index.js";
import { decodeBeforeToolParams } from "../src/protocol.gen.js";
import { call, capture, request, weather } from "./helpers/calls.js";

describe("hook.hello", () => {
  it("is answered by the SDK with ok, the hook's name and the modes its handlers need", async () => {
    const hook = new Hook("weather-plugin").beforeTool(() => continue_());
    assert.deepEqual(await testHook(hook).hello({ name: "configured" }), {
      ok: true,
      name: "weather-plugin",
      modes: ["tool"],
    });
  });

  it("answers with the host's name for a hook that has none", async () => {
    assert.deepEqual(await testHook(new Hook()).hello({ name: "py_review_gate" }), {
      ok: true,
      name: "py_review_gate",
      modes: [],
    });
  });

  it("lists each mode once, in protocol order", async () => {
    const hook = new Hook("all")
      .approveTool(() => ({ approved: true }))
      .on("*", () => {})
      .afterLLM(() => continue_())
      .tool(weather, () => "sunny");
    assert.deepEqual((await testHook(hook).hello()).modes, ["observe", "llm", "tool", "approve"]);
  });

  it("warns on stderr about an unknown protocol version and still says ok", async () => {
    const { lines, log } = capture();
    const result = await testHook(new Hook("h"), { log }).hello({ version: 2 });
    assert.equal(result.ok, true);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /protocol version 2/);
  });

  it("warns about each granted mode that no handler serves, saying what the host's calls of it get", async () => {
    const { lines, log } = capture();
    // A mode this SDK does not know is no concern of its own.
    await testHook(new Hook("h"), { log }).request("hook.hello", {
      name: "h",
      version: 1,
      modes: ["observe", "llm", "tool", "approve", "dream"],
    });
    const warning = (mode: string, what: string): string =>
      `hookwire: warning: the host grants mode "${mode}", which no handler of this hook serves: ${what}`;
    assert.deepEqual(lines, [
      warning("observe", "events are dropped"),
      warning("llm", "hook.before_llm and hook.after_llm are answered with continue"),
      warning("tool", "hook.before_tool and hook.after_tool are answered with continue"),
      warning(
        "approve",
        "hook.approve_tool is answered with an error, which a host may take as a denial of every tool call",
      ),
    ]);
  });

  it("accepts a hello without params", async () => {
    const { log } = capture();
    const response = await testHook(new Hook("h"), { log }).request("hook.hello");
    assert.deepEqual(response.result, { ok: true, name: "h", modes: [] });
  });
});

describe("typed handlers", () => {
  it("calls the handler of each method with its params and sends its result", async () => {
    const seen: string[] = [];
    const hook = new Hook("h")
      .beforeLLM(async (req) => (seen.push(`before_llm ${req.model}`), continue_()))
      .afterLLM(async (res) => (seen.push(`after_llm ${res.response?.content ?? ""}`), abortTurn("enough")))
      .beforeTool(async (c) => (seen.push(`before_tool ${c.tool}`), denyTool("not today")))
      .afterTool(
        async (r) => (seen.push(`after_tool ${r.result?.for_llm}`), modify(r, { result: { for_llm: "redacted" } })),
      )
      .approveTool(async (a) => (seen.push(`approve_tool ${a.tool}`), { approved: false, reason: "no" }));
    const t = testHook(hook);
    assert.deepEqual(await t.beforeLLM(request), { action: "continue" });
    assert.deepEqual(await t.afterLLM({ model: "m", response: { content: "Hi!" } }), {
      action: "abort_turn",
      reason: "enough",
    });
    assert.deepEqual(await t.beforeTool(call("exec", { command: "ls" })), { action: "deny_tool", reason: "not today" });
    assert.deepEqual(
      await t.afterTool({ tool: "exec", arguments: {}, result: { for_llm: "a\nb" }, duration: 15000000 }),
      {
        action: "modify",
        result: { tool: "exec", arguments: {}, result: { for_llm: "redacted" }, duration: 15000000 },
      },
    );
    assert.deepEqual(await t.approveTool({ tool: "exec", arguments: { command: "rm -rf /" } }), {
      approved: false,
      reason: "no",
    });
    assert.deepEqual(seen, [
      "before_llm m",
      "after_llm Hi!",
      "before_tool exec",
      "after_tool a\nb",
      "approve_tool exec",
    ]);
  });

  it("accepts handlers that return without awaiting", async () => {
    const hook = new Hook("h").beforeTool(() => respond("cached"));
    assert.deepEqual(await testHook(hook).beforeTool(call("exec", {})), {
      action: "respond",
      result: { for_llm: "cached" },
    });
  });

  it("lets calls through with continue when a method has no handler", async () => {
    const t = testHook(new Hook("h"));
    assert.deepEqual(await t.beforeLLM(request), { action: "continue" });
    assert.deepEqual(await t.afterLLM({ model: "m", response: {} }), { action: "continue" });
    assert.deepEqual(await t.beforeTool(call("exec", {})), { action: "continue" });
    assert.deepEqual(await t.afterTool({ tool: "exec", result: { for_llm: "" } }), { action: "continue" });
  });

  it("answers approve_tool without a handler with method not found, so the host denies", async () => {
    await assert.rejects(testHook(new Hook("h")).approveTool({ tool: "exec", arguments: {} }), { code: -32601 });
  });

  it("refuses a second handler for the same method", () => {
    const hook = new Hook("h").beforeTool(() => continue_());
    assert.throws(() => hook.beforeTool(() => continue_()), /already has a handler/);
  });

  it("turns a handler that throws into -32000 with its message, details on stderr", async () => {
    const { lines, log } = capture();
    const hook = new Hook("h").beforeTool(async () => {
      throw new Error("database is down");
    });
    const response = await testHook(hook, { log }).request("hook.before_tool", call("exec", {}));
    assert.deepEqual(response, { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "database is down" } });
    assert.match(lines.join("\n"), /hook\.before_tool \(id 1\) failed: Error: database is down\n\s+at /);
  });

  it("turns a handler that throws synchronously into -32000 too", async () => {
    const { log } = capture();
    const hook = new Hook("h").afterLLM(() => {
      throw new TypeError("bad");
    });
    await assert.rejects(
      testHook(hook, { log }).afterLLM({ model: "m", response: {} }),
      new RpcError(-32000, "TypeError: bad"),
    );
  });

  it("names the class of what a handler threw, so the host reads more than a property's name", async () => {
    const { log } = capture();
    const hook = new Hook("h").beforeTool((params) => {
      const args = params.arguments as unknown as { nothing: { path: string } };
      return denyTool(args.nothing.path);
    });
    const response = await testHook(hook, { log }).request("hook.before_tool", call("read_file", {}));
    assert.match(
      String(response.error?.message),
      /^TypeError: Cannot read properties of undefined \(reading 'path'\)$/,
    );
  });

  it("answers continue for a handler that returns nothing, and adds the plugin tools to the request it lets through", async () => {
    const hook = new Hook("h")
      .beforeLLM(async () => {})
      .afterLLM(() => undefined)
      .beforeTool(() => {})
      .afterTool(async () => undefined)
      .tool(weather, () => "sunny");
    const t = testHook(hook);
    assert.deepEqual(await t.afterLLM({ model: "m", response: { content: "x" } }), { action: "continue" });
    assert.deepEqual(await t.beforeTool(call("exec", {})), { action: "continue" });
    assert.deepEqual(await t.afterTool({ tool: "exec", result: { for_llm: "x" } }), { action: "continue" });
    const reply = await t.beforeLLM(request);
    assert.equal(reply.action, "modify");
    assert.deepEqual(reply.action === "modify" ? reply.request.tools?.map((tool) => tool.function.name) : [], [
      "exec",
      "get_weather",
    ]);
  });

  it("answers -32000 for an approver that returns nothing: an approval has no continue", async () => {
    const { log } = capture();
    const hook = new Hook("h").approveTool((() => {}) as never);
    const response = await testHook(hook, { log }).request("hook.approve_tool", { tool: "exec" });
    assert.deepEqual(response.error, {
      code: -32000,
      message: "the handler returned nothing; hook.approve_tool has no continue, so it must return a result",
    });
  });

  it("answers a HookError with the code, message and data the handler chose", async () => {
    const { lines, log } = capture();
    const hook = new Hook("h")
      .beforeLLM(async () => {
        throw new HookError(-32010, "quota", { retry_after: 5 });
      })
      .approveTool(() => {
        throw new HookError(7, "no approver today");
      });
    const t = testHook(hook, { log });
    assert.deepEqual(await t.request("hook.before_llm", request), {
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32010, message: "quota", data: { retry_after: 5 } },
    });
    // Without data, the error has no data member, not a null one.
    assert.deepEqual(await t.request("hook.approve_tool", { tool: "exec" }), {
      jsonrpc: "2.0",
      id: 2,
      error: { code: 7, message: "no approver today" },
    });
    const err = await t.beforeLLM(request).catch((e: unknown) => e);
    assert.ok(err instanceof RpcError);
    assert.deepEqual([err.code, err.message, err.data], [-32010, "quota", { retry_after: 5 }]);
    assert.deepEqual(lines, [
      "hookwire: hook.before_llm (id 1) answered error -32010: quota",
      "hookwire: hook.approve_tool (id 2) answered error 7: no approver today",
      "hookwire: hook.before_llm (id 3) answered error -32010: quota",
    ]);
  });

  it("answers a HookError of a plugin tool as an error of the call, not a tool result", async () => {
    const hook = new Hook("h").tool(weather, () => {
      throw new HookError(-32011, "weather service down", null);
    });
    const response = await testHook(hook, { log: () => {} }).request(
      "hook.before_tool",
      call("get_weather", { city: "Paris" }),
    );
    assert.deepEqual(response.error, { code: -32011, message: "weather service down", data: null });
  });

  it("answers -32000 when a HookError's data is not JSON", async () => {
    const { lines, log } = capture();
    const hook = new Hook("h").beforeTool(() => {
      throw new HookError(-32010, "quota", { big: 1n });
    });
    const response = await testHook(hook, { log }).request("hook.before_tool", call("exec", {}));
    assert.equal(response.error?.code, -32000);
    assert.match(response.error?.message ?? "", /^the handler's HookError data is not JSON: .*BigInt/);
    assert.match(lines.join("\n"), /the HookError's data is not JSON/);
  });

  it("answers a HookError made in another copy of the package, which instanceof does not know", async () => {
    // What a HookError of the CommonJS build looks like to the ES module.
    class Foreign extends Error {
      readonly code = -32012;
      readonly data = { from: "elsewhere" };
    }
    Object.defineProperty(Foreign.prototype, Symbol.for("hookwire.HookError"), { value: true });
    const hook = new Hook("h").afterTool(() => {
      throw new Foreign("foreign");
    });
    const response = await testHook(hook, { log: () => {} }).request("hook.after_tool", { tool: "ls" });
    assert.deepEqual(response.error, { code: -32012, message: "foreign", data: { from: "elsewhere" } });
  });

  it("refuses a HookError code that is not an integer", () => {
    for (const code of [Number.NaN, Infinity, 1.5]) {
      assert.throws(() => new HookError(code, "x"), { name: "TypeError", message: /HookError code is an integer/ });
    }
  });

  it("derives every error class of the SDK from HookwireError", () => {
    const thrown = (f: () => unknown): unknown => {
      try {
        f();
      } catch (err) {
        return err;
      }
      assert.fail("did not throw");
    };
    for (const [err, name] of [
      [new HookError(-32010, "quota"), "HookError"],
      [new RpcError(-32000, "x"), "RpcError"],
      [thrown(() => decodeBeforeToolParams({})), "DecodeError"],
      [thrown(() => new Hook("x").tool(weather, () => "").tool(weather, () => "")), "HookwireError"],
    ] as const) {
      assert.ok(err instanceof HookwireError, `${name} is not a HookwireError`);
      assert.ok(err instanceof Error);
      assert.equal((err as Error).name, name);
    }
    assert.ok(thrown(() => decodeBeforeToolParams({})) instanceof DecodeError);
  });

  it("answers -32000 when a handler returns what the method does not allow", async () => {
    const { log } = capture();
    // What a JavaScript caller, unchecked by the compiler, could do.
    const hook = new Hook("h").beforeLLM((() => respond("x")) as never);
    const err = await testHook(hook, { log })
      .beforeLLM(request)
      .catch((e: unknown) => e);
    assert.ok(err instanceof RpcError);
    assert.equal(err.code, -32000);
    assert.match(err.message, /invalid result: .*action "respond" is not allowed/);
  });

  it("answers -32602 when params do not fit the method", async () => {
    const response = await testHook(new Hook("h")).request("hook.before_tool", { arguments: {} });
    assert.equal(response.error?.code, -32602);
    assert.match(response.error?.message ?? "", /"tool" is missing/);
  });

  it("answers an unknown method with -32601", async () => {
    const response = await testHook(new Hook("h")).request("hook.unknown", {});
    assert.deepEqual(response.error, { code: -32601, message: "method not found: hook.unknown" });
  });

  it("passes the abort signal to handlers", async () => {
    const stop = new AbortController();
    let seen: AbortSignal | undefined;
    const hook = new Hook("h").beforeTool((_, ctx) => ((seen = ctx.signal), continue_()));
    await testHook(hook, { signal: stop.signal }).beforeTool(call("exec", {}));
    stop.abort();
    assert.equal(seen?.aborted, true);
  });

  it("tells handlers, observers and tools the extensions the host announced in hello", async () => {
    const seen: (readonly string[])[] = [];
    const hook = new Hook("h")
      .approveTool((_, ctx) => (seen.push(ctx.extensions), { approved: true }))
      .on("*", (_, ctx) => void seen.push(ctx.extensions))
      .tool({ name: "t", parameters: { type: "object" } }, (_, ctx) => (seen.push(ctx.extensions), "ok"));
    const t = testHook(hook);
    await t.approveTool({ tool: "x", arguments: {} });
    await t.hello({ extensions: ["approve_tool.arguments", "runtime_event.session"] });
    await t.approveTool({ tool: "x", arguments: {} });
    await t.event({ Kind: "turn_end" });
    await t.beforeTool(call("t", {}));
    const announced = ["approve_tool.arguments", "runtime_event.session"];
    assert.deepEqual(seen, [[], announced, announced, announced]);
  });
});

describe("onClose", () => {
  it("runs the functions in order, once, when the hook stops; one that throws is logged", async () => {
    const { lines, log } = capture();
    const ran: string[] = [];
    const hook = new Hook("h")
      .onClose(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        ran.push("first");
      })
      .onClose(() => {
        throw new Error("flush failed");
      })
      .onClose((ctx) => void ran.push(`third ${ctx.signal.aborted}`));
    const t = testHook(hook, { log });
    await Promise.all([t.close(), t.close()]);
    await t.close();
    assert.deepEqual(ran, ["first", "third false"]);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /an onClose function failed: Error: flush failed/);
  });
});

describe("input lines", () => {
  it("answers a line that is not JSON with -32700 and a null id", () => {
    const { log } = capture();
    const reply = testHook(new Hook("h"), { log }).line("{not json");
    assert.equal(reply?.id, null);
    assert.equal(reply?.error?.code, -32700);
  });

  it("answers JSON that is not an object with -32600", () => {
    assert.equal(testHook(new Hook("h")).line("[1,2]")?.error?.code, -32600);
  });

  it("ignores blank lines and messages without an id", () => {
    const { lines, log } = capture();
    const t = testHook(new Hook("h"), { log });
    assert.equal(t.line("   "), undefined);
    assert.equal(t.line('{"jsonrpc":"2.0","method":"hook.unknown"}'), undefined);
    assert.equal(lines.length, 1);
  });

  it("never answers an observe notification, even with the id 0 of older hosts", () => {
    const { lines, log } = capture();
    const t = testHook(
      new Hook("h").on("*", () => {}),
      { log },
    );
    assert.equal(t.line('{"jsonrpc":"2.0","id":0,"method":"hook.event","params":{"Kind":"turn_start"}}'), undefined);
    assert.equal(
      t.line('{"jsonrpc":"2.0","method":"hook.runtime_event","params":{"kind":"agent.turn.start"}}'),
      undefined,
    );
    assert.match(lines.join("\n"), /dropped a hook.runtime_event notification: RuntimeEvent: "source" is missing/);
  });
});
