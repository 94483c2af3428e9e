// The calculator hook, in-process: every case of ../cases.json, and its two
// tools. examples/calculator_test.go runs the same table through the hook
// as a process, under hookwire run and hookwire mcp, for the three languages.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import fc from "fast-check";
import { testHook } from "hookwire";

import { CalcError, evaluate } from "./arith.js";
import { hook } from "./calculator.js";

interface Case {
  expression: string | [string, number][];
  result?: string;
  error?: string;
}

// From dist/, where the compiled test runs.
const cases = (JSON.parse(readFileSync(new URL("../../cases.json", import.meta.url), "utf8")) as { cases: Case[] })
  .cases;

/** A case's expression: a string, or [text, times] pieces joined. */
function expression(c: Case): string {
  return typeof c.expression === "string"
    ? c.expression
    : c.expression.map(([text, times]) => text.repeat(times)).join("");
}

describe("the calculator's arithmetic", () => {
  it("has cases to check", () => assert.ok(cases.length > 0));
  for (const c of cases) {
    it(`${expression(c).slice(0, 40)} gives ${c.result ?? c.error}`, () => {
      if (c.error !== undefined) assert.throws(() => evaluate(expression(c)), new CalcError(c.error));
      else assert.equal(evaluate(expression(c)), c.result);
    });
  }
});

describe("the calculator hook, in-process", () => {
  it("offers get_weather and calculate to the LLM", async () => {
    const result = await testHook(hook).beforeLLM({ model: "scripted", messages: [], tools: [] });
    assert.equal(result.action, "modify");
    assert.deepEqual(result.action === "modify" && result.request.tools?.map((t) => t.function.name), [
      "get_weather",
      "calculate",
    ]);
  });

  it("answers each case with a result or an error result", async () => {
    for (const c of cases) {
      const reply = await testHook(hook).beforeTool({ tool: "calculate", arguments: { expression: expression(c) } });
      const result =
        c.error !== undefined
          ? { for_llm: `Calculation error: ${c.error}`, is_error: true }
          : { for_llm: `Calculation result: ${c.result}`, is_error: false };
      assert.deepEqual(reply, { action: "respond", result });
    }
  });

  it("answers get_weather from its data", async () => {
    assert.deepEqual(await testHook(hook).beforeTool({ tool: "get_weather", arguments: { city: "Beijing" } }), {
      action: "respond",
      result: { for_llm: "Beijing weather: Sunny, temperature 15°C, humidity 45%", is_error: false },
    });
  });

  it("lets other tools through", async () => {
    assert.deepEqual(await testHook(hook).beforeTool({ tool: "read_file", arguments: { path: "x" } }), {
      action: "continue",
    });
  });
});

// The model writes the expression: whatever it writes, the calculator
// answers a number or refuses it, and never fails another way.
describe("any text", () => {
  it("gets a result or a calculation error", () => {
    const chars = fc.constantFrom(..."0123456789.eE+-*/%^() \t_xa[]'\"\u0000é");
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: chars, maxLength: 200 }), fc.string({ maxLength: 50 })), (text) => {
        let answer: string;
        try {
          answer = evaluate(text);
        } catch (err) {
          assert.ok(err instanceof CalcError, `${JSON.stringify(text)}: ${err}`);
          return;
        }
        assert.ok(!Number.isNaN(Number(answer)), `${JSON.stringify(text)} gave ${answer}`);
      }),
      { numRuns: 500 },
    );
  });
});
