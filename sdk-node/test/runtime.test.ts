// The SDK under the reference runtime: a real agent turn played by the
// hookwire CLI, with a hook written with the SDK, asserted on the --json
// transcript and the wire trace.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fixture } from "./helpers/hook-process.js";
import { HookwireCLI, type Run } from "./helpers/hookwire-cli.js";

describe("a hook under hookwire run", () => {
  const cli = new HookwireCLI();
  let run: Run;
  let trace: { hook: string; dir: string; message?: { [key: string]: unknown }; text?: string }[];

  before(() => {
    cli.build();
    const hooks = join(cli.dir, "hooks.json");
    const processes = {
      ts: {
        enabled: true,
        command: [process.execPath, fixture("runtime-hook")],
        intercept: ["before_llm", "before_tool"],
        observe: ["agent.tool.*"],
      },
    };
    writeFileSync(hooks, JSON.stringify({ hooks: { enabled: true, processes } }));
    const scenario = join(cli.dir, "scenario.json");
    writeFileSync(
      scenario,
      JSON.stringify({
        prompt: "Look k1 up, then echo hi",
        replies: [
          {
            tool_calls: [
              { name: "lookup", arguments: { key: "k1" } },
              { name: "lookup", arguments: {} },
              { name: "echo_text", arguments: { text: "hi" } },
            ],
          },
          { content: "done" },
        ],
      }),
    );
    const tracePath = join(cli.dir, "trace.jsonl");
    run = cli.run(hooks, scenario, "--trace", tracePath);
    trace = readFileSync(tracePath, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as (typeof trace)[number]);
  });
  after(() => cli.remove());

  const tools = () => run.records.filter((r) => r["type"] === "tool");

  it("plays the turn to its end", () => {
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.records.filter((r) => r["type"] === "turn_end").at(-1)?.["status"], "done");
  });

  it("shakes hands: the name and the modes of the hook's handlers", () => {
    const hello = trace.find((t) => t.dir === "recv" && t.message?.["id"] === 1);
    assert.deepEqual(hello?.message, {
      jsonrpc: "2.0",
      id: 1,
      result: { ok: true, name: "runtime-hook", modes: ["observe", "llm", "tool"] },
    });
  });

  it("adds the plugin tool to the LLM request", () => {
    const requests = run.records.filter((r) => r["type"] === "llm_request");
    assert.equal(requests.length, 2);
    for (const r of requests) assert.deepEqual(r["tools"], ["echo_text", "read_file", "lookup"]);
  });

  it("answers the plugin tool's calls, and bad arguments with an error naming the argument", () => {
    const [k1, missing] = tools();
    assert.deepEqual(k1, {
      type: "tool",
      tool: "lookup",
      arguments: { key: "k1" },
      outcome: "answered",
      by: "ts",
      result: { for_llm: "value of k1", is_error: false },
    });
    assert.deepEqual(missing?.["result"], {
      for_llm: 'invalid arguments for lookup: argument "key" is missing',
      is_error: true,
    });
  });

  it("modifies the runtime's own tool calls with the whole call", () => {
    const echo = tools()[2];
    assert.equal(echo?.["outcome"], "ran");
    assert.deepEqual(echo?.["arguments"], { text: "HI" });
  });

  it("observes runtime events, and its console.log reaches the runtime as stderr", () => {
    const observed = run.stderr.split("\n").filter((line) => line.includes("observed agent.tool."));
    assert.equal(observed.length, 6, run.stderr);
    const fromHook = trace.filter((t) => t.dir === "recv");
    assert.ok(fromHook.length > 0);
    for (const t of fromHook) assert.ok(t.message !== undefined, `not JSON on the hook's stdout: ${t.text}`);
  });
});
