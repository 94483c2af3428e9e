import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { testHook, type BeforeLLMParams } from "hookwire";

import { hook } from "./weather.js";

const request: BeforeLLMParams = {
  model: "scripted",
  messages: [{ role: "user", content: "What's the weather in Beijing today?" }],
  tools: [],
};

describe("the weather hook, in-process", () => {
  it("offers get_weather to the LLM", async () => {
    const result = await testHook(hook).beforeLLM(request);
    assert.equal(result.action, "modify");
    assert.deepEqual(result.action === "modify" && result.request.tools?.map((t) => t.function.name), ["get_weather"]);
  });

  it("answers get_weather for a known city", async () => {
    assert.deepEqual(await testHook(hook).beforeTool({ tool: "get_weather", arguments: { city: "Beijing" } }), {
      action: "respond",
      result: { for_llm: "Beijing weather: Sunny, temperature 15°C, humidity 45%", for_user: "", silent: false, is_error: false },
    });
  });

  it("answers an unknown city with an error result", async () => {
    assert.deepEqual(await testHook(hook).beforeTool({ tool: "get_weather", arguments: { city: "Atlantis" } }), {
      action: "respond",
      result: { for_llm: "Weather data not found for city Atlantis", for_user: "", silent: false, is_error: true },
    });
  });

  it("lets other tools through", async () => {
    assert.deepEqual(await testHook(hook).beforeTool({ tool: "read_file", arguments: { path: "x" } }), { action: "continue" });
  });
});
