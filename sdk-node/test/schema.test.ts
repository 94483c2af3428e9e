import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { check, type JSONSchema } from "../src/index.js";

const trip = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    days: { type: "integer", minimum: 1, maximum: 14 },
    unit: { enum: ["c", "f"] },
    tags: { type: "array", items: { type: "string" }, maxItems: 2 },
    where: {
      type: "object",
      properties: { lat: { type: "number" }, lon: { type: "number" } },
      required: ["lat"],
      additionalProperties: false,
    },
    note: { type: ["string", "null"] },
    code: { type: "string", pattern: "^[A-Z]{3}$" },
  },
  required: ["city"],
} as const satisfies JSONSchema;

describe("check", () => {
  it("accepts arguments that fit", () => {
    assert.equal(check(trip, { city: "Beijing" }), undefined);
    assert.equal(
      check(trip, { city: "Oslo", days: 3, unit: "c", tags: ["a"], where: { lat: 1.5 }, note: null, code: "OSL" }),
      undefined,
    );
    assert.equal(check(trip, { city: "Oslo", extra: "kept" }), undefined, "unknown arguments pass unless forbidden");
  });

  const cases: [string, unknown, string][] = [
    ["not an object", "Beijing", "the arguments must be an object, not string"],
    ["missing required", {}, '"city" is required'],
    ["wrong type", { city: 5 }, '"city" must be a string, not integer'],
    ["too short", { city: "" }, '"city" must be at least 1 characters long'],
    ["integer wanted", { city: "x", days: 1.5 }, '"days" must be an integer, not number'],
    ["below minimum", { city: "x", days: 0 }, '"days" must be at least 1'],
    ["above maximum", { city: "x", days: 15 }, '"days" must be at most 14'],
    ["not in enum", { city: "x", unit: "k" }, '"unit" must be one of "c", "f"'],
    ["array item", { city: "x", tags: ["a", 2] }, '"tags[1]" must be a string, not integer'],
    ["too many items", { city: "x", tags: ["a", "b", "c"] }, '"tags" must have at most 2 items'],
    ["nested required", { city: "x", where: { lon: 1 } }, '"where.lat" is required'],
    ["nested type", { city: "x", where: { lat: "n" } }, '"where.lat" must be a number, not string'],
    ["additional property", { city: "x", where: { lat: 1, alt: 3 } }, '"where.alt" is not a known argument'],
    ["type list", { city: "x", note: 3 }, '"note" must be a string or null, not integer'],
    ["pattern", { city: "x", code: "osl" }, '"code" must match ^[A-Z]{3}$'],
  ];
  for (const [name, args, problem] of cases) {
    it(`names the argument: ${name}`, () => {
      assert.equal(check(trip, args), problem);
    });
  }

  it("checks const and exclusive bounds", () => {
    assert.equal(check({ const: "v1" }, "v2", "version"), '"version" must be "v1"');
    assert.equal(check({ type: "number", exclusiveMinimum: 0 }, 0, "x"), '"x" must be more than 0');
    assert.equal(check({ type: "number", exclusiveMaximum: 1 }, 1, "x"), '"x" must be less than 1');
  });
});
