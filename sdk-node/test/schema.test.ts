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
    assert.equal(check(trip, { city: "Oslo", days: null }), undefined, "an optional argument sent as null is not sent");
  });

  const cases: [string, unknown, string][] = [
    ["not an object", "Beijing", 'the arguments must be an object, not "Beijing"'],
    ["missing required", {}, 'argument "city" is missing'],
    ["wrong type", { city: 5 }, 'argument "city" must be a string, not 5'],
    ["wrong type, an object", { city: { name: "x" } }, 'argument "city" must be a string, not an object'],
    ["required null", { city: null }, 'argument "city" must be a string, not null'],
    ["too short", { city: "" }, 'argument "city" must be at least 1 characters long'],
    ["integer wanted", { city: "x", days: 1.5 }, 'argument "days" must be an integer, not 1.5'],
    ["below minimum", { city: "x", days: 0 }, 'argument "days" must be at least 1'],
    ["above maximum", { city: "x", days: 15 }, 'argument "days" must be at most 14'],
    ["not in enum", { city: "x", unit: "k" }, 'argument "unit" must be one of "c", "f", not "k"'],
    ["array item", { city: "x", tags: ["a", 2] }, 'argument "tags[1]" must be a string, not 2'],
    ["too many items", { city: "x", tags: ["a", "b", "c"] }, 'argument "tags" must have at most 2 items'],
    ["nested required", { city: "x", where: { lon: 1 } }, 'argument "where.lat" is missing'],
    ["nested type", { city: "x", where: { lat: "n" } }, 'argument "where.lat" must be a number, not "n"'],
    ["additional property", { city: "x", where: { lat: 1, alt: 3 } }, 'argument "where.alt" is not a known argument'],
    ["type list", { city: "x", note: [] }, 'argument "note" must be a string or null, not an array'],
    ["pattern", { city: "x", code: "osl" }, 'argument "code" must match ^[A-Z]{3}$'],
  ];
  for (const [name, args, problem] of cases) {
    it(`names the argument: ${name}`, () => {
      assert.equal(check(trip, args), problem);
    });
  }

  it("checks const and exclusive bounds", () => {
    assert.equal(check({ const: "v1" }, "v2", "version"), 'argument "version" must be "v1", not "v2"');
    assert.equal(check({ type: "number", exclusiveMinimum: 0 }, 0, "x"), 'argument "x" must be more than 0');
    assert.equal(check({ type: "number", exclusiveMaximum: 1 }, 1, "x"), 'argument "x" must be less than 1');
  });
});
