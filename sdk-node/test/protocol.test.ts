// The generated protocol module against the shared vectors of schema/testdata.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import * as p from "../src/protocol.gen.js";

const validDir = new URL("../../../schema/testdata/valid/", import.meta.url);

interface Vector {
  message?: unknown;
  method?: string;
  params?: unknown;
  result?: unknown;
  def?: string;
  value?: unknown;
}

function decoder(name: string | undefined): (value: unknown) => unknown {
  const decode = name === undefined ? undefined : p.decoders[name];
  assert.ok(decode, `no decoder for type ${name}`);
  return decode;
}

function method(name: string | undefined): p.MethodInfo {
  const info = name !== undefined && Object.hasOwn(p.MethodTable, name) ? p.MethodTable[name as p.Method] : undefined;
  assert.ok(info, `unknown method ${name}`);
  return info;
}

// decodeMessage decodes a whole message: the envelope, then its params or
// result by the method table.
function decodeMessage(message: unknown, answers: string | undefined): unknown {
  assert.ok(typeof message === "object" && message !== null);
  if (!("method" in message)) {
    const response = p.decodeResponse(message);
    if ("result" in response) decoder(method(answers).result)(response.result);
    return response;
  }
  if (!("id" in message) || message.id === 0) {
    const notification = p.decodeNotification(message);
    decoder(method(notification.method).params)(notification.params);
    return notification;
  }
  const request = p.decodeRequest(message);
  decoder(method(request.method).params)(request.params);
  return request;
}

function decodeVector(v: Vector): unknown {
  if ("message" in v) return decodeMessage(v.message, v.method);
  if ("def" in v) return decoder(v.def)(v.value);
  if ("params" in v) return decoder(method(v.method).params)(v.params);
  return decoder(method(v.method).result)(v.result);
}

const files = readdirSync(validDir).filter((f) => f.endsWith(".json"));

test("the vectors are there", () => {
  assert.ok(files.length > 0, "no vectors in schema/testdata/valid");
});

for (const file of files.sort()) {
  test(`valid vector ${file} decodes and re-encodes to the same JSON`, () => {
    const text = readFileSync(new URL(file, validDir), "utf8");
    const vector = JSON.parse(text) as Vector;
    const typed = decodeVector(vector);
    const form = (["message", "params", "result", "value"] as const).find((k) => k in vector);
    assert.ok(form);
    assert.deepEqual(JSON.parse(JSON.stringify(typed)), (JSON.parse(text) as Vector)[form]);
  });
}

test("a union decoder rejects an action the result does not allow", () => {
  assert.throws(
    () => p.decodeAfterToolResult({ action: "respond", result: { for_llm: "x" } }),
    (e: unknown) =>
      e instanceof p.DecodeError && /action "respond" is not allowed/.test(e.message) && /"modify"/.test(e.message),
  );
});

test("a result without action is continue", () => {
  const result = p.decodeBeforeToolResult({ reason: "fine" });
  assert.deepEqual(result, { reason: "fine" });
});

test("decoding names the variant, the path and the missing member", () => {
  assert.throws(() => p.decodeBeforeToolResult({ action: "deny_tool" }), {
    name: "DecodeError",
    message: 'BeforeToolResult: "reason" is missing',
  });
  assert.throws(() => p.decodeBeforeLLMParams({ model: "m", messages: [{ role: "user" }, { content: "x" }] }), {
    message: 'BeforeLLMParams.messages[1]: "role" is missing',
  });
});

test("member types are checked", () => {
  assert.throws(() => p.decodeAfterToolParams({ tool: "t", result: { for_llm: "" }, duration: "15ms" }), {
    message: "AfterToolParams.duration: want an integer, got string",
  });
  assert.throws(() => p.decodeMessage({ role: "user", content: null }), {
    message: "Message.content: want a string, got null",
  });
});

test("unknown members are kept", () => {
  const value = { for_llm: "x", from_a_newer_host: [1, 2] };
  assert.equal(p.decodeToolResult(value), value);
});

test("a member named like an Object.prototype property is not taken as present", () => {
  assert.throws(() => p.decodeBeforeToolResult({ action: "toString" }), /action "toString" is not allowed/);
});

test("the result type of a method allows exactly its actions", () => {
  // A compile-time check: tsc fails the build if an expected error is missing.
  const ok: p.Requests["hook.before_tool"]["result"] = { action: "respond", result: { for_llm: "x" } };
  // @ts-expect-error after_tool does not allow respond.
  const bad: p.Requests["hook.after_tool"]["result"] = { action: "respond", result: { for_llm: "x" } };
  assert.deepEqual(p.MethodTable["hook.before_tool"].actions, [
    "continue",
    "modify",
    "respond",
    "deny_tool",
    "abort_turn",
    "hard_abort",
  ]);
  assert.ok(ok && bad);
});
