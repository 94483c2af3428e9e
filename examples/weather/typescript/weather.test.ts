import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

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

describe("the weather hook under the reference runtime", () => {
  const here = fileURLToPath(new URL("..", import.meta.url));
  const bin = mkdtempSync(join(tmpdir(), "hookwire-weather-"));
  const hookwire = join(bin, "hookwire");
  before(() => {
    execFileSync("go", ["build", "-o", hookwire, "./cmd/hookwire"], { cwd: join(here, "..", "..", "..", "core"), stdio: "inherit" });
  });
  after(() => rmSync(bin, { recursive: true, force: true }));

  it("answers the LLM's get_weather call", () => {
    const out = execFileSync(hookwire, ["run", "--json", "--hooks", join(here, "hooks.json"), join(here, "..", "scenario.json")], {
      encoding: "utf8",
    });
    const records = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { [key: string]: unknown });
    const llm = records.find((r) => r["type"] === "llm_request");
    assert.deepEqual(llm?.["tools"], ["echo_text", "read_file", "get_weather"]);
    const call = records.find((r) => r["type"] === "tool");
    assert.deepEqual(call, {
      type: "tool",
      tool: "get_weather",
      arguments: { city: "Beijing" },
      outcome: "answered",
      by: "weather_plugin",
      result: { for_llm: "Beijing weather: Sunny, temperature 15°C, humidity 45%", is_error: false },
    });
    assert.deepEqual(records.filter((r) => r["type"] === "turn_end").at(-1)?.["status"], "done");
  });
});
