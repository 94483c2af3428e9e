// A hook's plugin tools: added to the LLM's requests, their calls answered
// by the hook, every other call let through.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  abortTurn,
  type BeforeLLMParams,
  type BeforeToolParams,
  continue_,
  denyTool,
  Hook,
  modify,
  testHook,
} from "../src/index.js";
import { call, capture, request, weather } from "./helpers/calls.js";

describe("plugin tools", () => {
  const hook = () =>
    new Hook("weather").tool(weather, async ({ city }) => {
      if (city === "Atlantis") throw new Error("the weather service is down");
      if (city === "Nowhere") return { for_llm: `Weather data not found for city ${city}`, is_error: true };
      return `${city} weather: Sunny`;
    });

  it("are added to the LLM request, which is sent back whole", async () => {
    const result = await testHook(hook()).beforeLLM(request);
    assert.deepEqual(result, {
      action: "modify",
      request: {
        ...request,
        tools: [...(request.tools ?? []), { type: "function", function: weather }],
      },
    });
  });

  it("are added to a request that has no tools yet", async () => {
    const { tools: _, ...bare } = request;
    const result = await testHook(hook()).beforeLLM(bare);
    assert.deepEqual(result, {
      action: "modify",
      request: { ...bare, tools: [{ type: "function", function: weather }] },
    });
  });

  it("are not added twice when the request already has them", async () => {
    const withTool = { ...request, tools: [{ type: "function", function: weather }] };
    const result = await testHook(hook()).beforeLLM(JSON.parse(JSON.stringify(withTool)) as BeforeLLMParams);
    assert.deepEqual(result, { action: "modify", request: withTool });
  });

  it("are added after the hook's own before_llm handler, to the request it returns", async () => {
    const h = hook().beforeLLM((req) => modify(req, { model: "bigger" }));
    const result = await testHook(h).beforeLLM(request);
    assert.deepEqual(result, {
      action: "modify",
      request: {
        ...request,
        model: "bigger",
        tools: [...(request.tools ?? []), { type: "function", function: weather }],
      },
    });
  });

  it("are not added when the hook's before_llm handler aborts", async () => {
    const h = hook().beforeLLM(() => abortTurn("quota"));
    assert.deepEqual(await testHook(h).beforeLLM(request), { action: "abort_turn", reason: "quota" });
  });

  it("answer their calls with respond", async () => {
    assert.deepEqual(await testHook(hook()).beforeTool(call("get_weather", { city: "Beijing" })), {
      action: "respond",
      result: { for_llm: "Beijing weather: Sunny" },
    });
    assert.deepEqual(await testHook(hook()).beforeTool(call("get_weather", { city: "Nowhere" })), {
      action: "respond",
      result: { for_llm: "Weather data not found for city Nowhere", is_error: true },
    });
  });

  it("answer arguments that do not fit the schema with an error result naming the argument", async () => {
    assert.deepEqual(await testHook(hook()).beforeTool(call("get_weather", {})), {
      action: "respond",
      result: { for_llm: 'invalid arguments for get_weather: argument "city" is missing', is_error: true },
    });
    assert.deepEqual(await testHook(hook()).beforeTool(call("get_weather", { city: 7 })), {
      action: "respond",
      result: { for_llm: 'invalid arguments for get_weather: argument "city" must be a string, not 7', is_error: true },
    });
  });

  it("turn a tool that throws into an error result, details on stderr", async () => {
    const { lines, log } = capture();
    assert.deepEqual(await testHook(hook(), { log }).beforeTool(call("get_weather", { city: "Atlantis" })), {
      action: "respond",
      result: { for_llm: "get_weather failed: the weather service is down", is_error: true },
    });
    assert.match(lines.join("\n"), /tool get_weather failed: Error: the weather service is down/);
  });

  it("let every other tool through untouched, or to the hook's before_tool handler", async () => {
    assert.deepEqual(await testHook(hook()).beforeTool(call("exec", { command: "ls" })), { action: "continue" });
    const h = hook().beforeTool((c) => (c.tool === "exec" ? denyTool("no shell") : continue_()));
    assert.deepEqual(await testHook(h).beforeTool(call("exec", { command: "ls" })), {
      action: "deny_tool",
      reason: "no shell",
    });
  });

  it("get the call and the abort signal", async () => {
    let seen: BeforeToolParams | undefined;
    const h = new Hook("h").tool(weather, (_, ctx) => ((seen = ctx.call), "ok"));
    await testHook(h).beforeTool(call("get_weather", { city: "Oslo" }));
    assert.deepEqual(seen, call("get_weather", { city: "Oslo" }));
  });

  it("cannot be declared twice", () => {
    assert.throws(() => hook().tool(weather, () => "again"), /already declared/);
  });
});
