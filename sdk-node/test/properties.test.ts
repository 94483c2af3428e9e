// Property-based tests of what reads a host's bytes: the line reader and
// the dispatch of a line. Inputs come from fast-check, seeded from the
// shared vectors of schema/testdata and the malformed lines a hostile host
// writes. Properties: never throw, never hang, answer only what JSON.parse
// reads (as UTF-8) with a result, and hand a handler what JSON.parse reads;
// a lifecycle hook answers every call its params decode for, and approves
// nothing when canUseTool fails.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import fc from "fast-check";

import { continue_, Hook, type HookInput, lifecycle, type RuntimeEvent, testHook } from "../src/index.js";
import { type Line, LineReader } from "../src/lines.js";
import { routes } from "../src/methods.gen.js";
import { Session } from "../src/session.js";
import { isJSON, malformedLines } from "./helpers/malformed.js";

const NUM_RUNS = 300;

/** The request lines of schema/testdata, valid and invalid: params wrapped in a request of their method. */
const vectorLines: string[] = ["valid", "invalid"].flatMap((dir) => {
  const url = new URL(`../../../schema/testdata/${dir}/`, import.meta.url);
  return readdirSync(url).flatMap((file) => {
    const v = JSON.parse(readFileSync(new URL(file, url), "utf8")) as {
      message?: unknown;
      method?: string;
      params?: unknown;
    };
    if (v.message !== undefined) return [JSON.stringify(v.message)];
    if (v.params !== undefined) return [JSON.stringify({ jsonrpc: "2.0", id: 1, method: v.method, params: v.params })];
    return [];
  });
});

const utf8 = new TextEncoder();

/** A line: a vector, a malformed line, either cut, spliced or with bytes changed, or bytes of any kind. */
const lineBytes: fc.Arbitrary<Uint8Array> = fc
  .oneof(
    fc.constantFrom(...vectorLines.map((l) => utf8.encode(l)), ...malformedLines.filter((l) => l.length < 1000)),
    fc
      .tuple(fc.constantFrom(...vectorLines), fc.nat(), fc.nat(), fc.string({ unit: "binary" }))
      .map(([l, a, b, s]) => utf8.encode(l.slice(0, a % (l.length + 1)) + s + l.slice(b % (l.length + 1)))),
    fc
      .tuple(
        fc.constantFrom(...vectorLines),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
      )
      .map(([l, edits]) => {
        const bytes = utf8.encode(l);
        for (const [at, byte] of edits) bytes[at % bytes.length] = byte;
        return bytes;
      }),
    fc.json().map((j) => utf8.encode(j)),
    fc.uint8Array({ maxLength: 200 }),
  )
  .map((b) => b.filter((c) => c !== 0x0a));

test("the line reader hands over each line whole, whatever the chunks, as text or as not UTF-8", () => {
  fc.assert(
    fc.property(
      fc.array(lineBytes, { maxLength: 8 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      fc.boolean(),
      (lines, cuts, lastNewline) => {
        const input = Buffer.concat(
          lines.flatMap((l, i) => (i < lines.length - 1 || lastNewline ? [l, Buffer.from("\n")] : [l])),
        );
        const at = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
        const got: Line[] = [];
        const reader = new LineReader();
        let from = 0;
        for (const to of [...at, input.length]) {
          reader.push(input.subarray(from, to), (l) => got.push(l));
          from = to;
        }
        reader.end((l) => got.push(l));
        const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
        const want = lines
          .filter((l, i) => l.length > 0 || i < lines.length - 1 || lastNewline)
          .map((l) => {
            try {
              return decoder.decode(l);
            } catch {
              return undefined;
            }
          });
        assert.deepEqual(got, want);
      },
    ),
    { numRuns: NUM_RUNS },
  );
});

test("a line of any kind is answered as JSON-RPC, with a result only when it is JSON, and the next request is answered", async () => {
  await fc.assert(
    fc.asyncProperty(lineBytes, async (bytes) => {
      const received: unknown[] = [];
      const hook = new Hook("props");
      const keep = (params: unknown): ReturnType<typeof continue_> => {
        received.push(params);
        return continue_();
      };
      hook.beforeTool(keep);
      hook.afterTool(keep);
      hook.beforeLLM(keep);
      hook.afterLLM(keep);
      hook.approveTool((params) => {
        received.push(params);
        return { approved: true };
      });
      const session = new Session(hook, () => {}, new AbortController().signal, true);
      const replies: string[] = [];
      const reader = new LineReader();
      const all = Buffer.concat([
        bytes,
        Buffer.from('\n{"jsonrpc":"2.0","id":"next","method":"hook.hello","params":{}}\n'),
      ]);
      reader.push(all, (line) => session.line(line, (reply) => replies.push(reply)));
      await new Promise((resolve) => setImmediate(resolve)); // replies of handlers that returned promises
      let next = false;
      for (const line of replies) {
        const r = JSON.parse(line) as { jsonrpc: string; id: unknown; result?: unknown; error?: unknown };
        assert.equal(r.jsonrpc, "2.0");
        assert.ok((r.result === undefined) !== (r.error === undefined), line);
        if (r.id === "next") next = true;
        else if (r.result !== undefined) assert.ok(isJSON(bytes), `a result for a line that is not JSON: ${line}`);
      }
      assert.ok(next, "the next request was not answered");
      if (received.length > 0) {
        assert.ok(isJSON(bytes), "a handler ran for a line that is not JSON");
        const sent = JSON.parse(new TextDecoder().decode(bytes)) as { params?: unknown };
        assert.deepEqual(received, [sent.params]);
      }
    }),
    { numRuns: NUM_RUNS },
  );
});

/** Results a JavaScript handler could return: continue and its near misses, and JSON of any kind. */
const handlerResult: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    continue_(),
    continue_("ok"),
    { action: "continue", reason: 5 },
    { action: "continue", extra: [1] },
    { action: "" },
    {},
    Object.assign(Object.create(null) as object, { action: "continue" }),
    new (class Continue {
      action = "continue";
      toJSON(): unknown {
        return { action: "deny_tool", reason: "from toJSON" };
      }
    })(),
    ["continue"],
    null,
    { approved: true },
  ),
  fc.record(
    { action: fc.constantFrom("continue", "", "modify", "respond", "deny_tool"), reason: fc.option(fc.string()) },
    { requiredKeys: ["action"] },
  ),
  fc.json().map((j): unknown => JSON.parse(j)),
);

test("a handler's result is written as JSON.stringify writes it when the method allows it, else answered with an error", () => {
  fc.assert(
    fc.property(
      handlerResult,
      fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
      fc.constantFrom(routes["hook.before_tool"], routes["hook.approve_tool"]),
      (result, id, route) => {
        const hook = new Hook("props").handle(route.method, () => result as never);
        const replies: string[] = [];
        new Session(hook, () => {}, new AbortController().signal, true).call(id, route.method, { tool: "exec" }, (l) =>
          replies.push(l),
        );
        let allowed = true;
        try {
          route.result(result);
        } catch {
          allowed = false;
        }
        assert.equal(replies.length, 1);
        if (allowed) assert.equal(replies[0], JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n");
        else
          assert.match(
            replies[0]!,
            /^\{"jsonrpc":"2\.0","id":.*,"error":\{"code":-32000,"message":"the handler returned an invalid result: /,
          );
      },
    ),
    { numRuns: NUM_RUNS },
  );
});

/** Params as the SDK's decoder lets them through: members a host may leave out left out, any JSON in a tool's arguments. */
const short = fc.string({ maxLength: 6 });
const lifecycleParams = fc.record(
  {
    meta: fc.record({ SessionKey: short, TurnID: short, Iteration: fc.nat(3) }, { requiredKeys: [] }),
    tool: short,
    arguments: fc.dictionary(short, fc.jsonValue(), { maxKeys: 3 }),
    result: fc.record({ for_llm: short, is_error: fc.boolean(), for_user: short }, { requiredKeys: ["for_llm"] }),
    messages: fc.array(
      fc.record(
        { role: fc.constantFrom("system", "user", "assistant", "tool"), content: short },
        { requiredKeys: ["role"] },
      ),
      { maxLength: 3 },
    ),
    model: short,
    tool_kind: fc.constantFrom("read", "write", "execute", "network", "other"),
    affected_paths: fc.array(short, { maxLength: 2 }),
    duration: fc.nat(10),
  },
  { requiredKeys: [] },
);

test("a lifecycle hook answers every call its params decode for, and approves nothing when canUseTool fails", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("hook.before_llm", "hook.before_tool", "hook.after_tool", "hook.approve_tool"),
      lifecycleParams,
      fc.constantFrom("continue", "skip", "abort"),
      fc.jsonValue(),
      async (method, params, action, modified) => {
        const callback = () => ({ action, modifiedInput: modified, modifiedOutput: modified }) as never;
        const hook = lifecycle("props", {
          hooks: {
            UserPromptSubmit: [callback],
            PreToolUse: [callback],
            PermissionRequest: [callback],
            PostToolUse: [callback],
            PostToolUseFailure: [callback],
          },
          canUseTool: () => {
            throw new Error("broken");
          },
          log: () => {},
        });
        const reply = await testHook(hook, { log: () => {} }).request(method, params);
        if (reply.error !== undefined) {
          assert.equal(reply.error.code, -32602, reply.error.message);
          return;
        }
        if (method === "hook.approve_tool") assert.notEqual((reply.result as { approved?: unknown }).approved, true);
      },
    ),
    { numRuns: NUM_RUNS },
  );
});

/**
 * A runtime event's session is the first of its scope's session_key and its
 * payload's SessionKey that is not empty, whatever else the event carries
 * (its payload is any JSON): the lifecycle layer runs the session's
 * callbacks with that key, or none when it is not a string, and never fails.
 */
test("a lifecycle hook runs a runtime event in the session it names", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("agent.session.end", "agent.turn.end", "agent.turn.start"),
      fc.record({ session_key: short }, { requiredKeys: [] }),
      fc.option(fc.oneof(fc.jsonValue(), fc.record({ SessionKey: fc.oneof(short, fc.jsonValue()) })), {
        nil: undefined,
      }),
      async (kind, scope, payload) => {
        const seen: string[] = [];
        const record = (input: HookInput) => (
          seen.push(`${input.event} ${input.sessionId}`), { action: "continue" as const }
        );
        const hook = lifecycle("props", {
          hooks: { SessionStart: [record], TaskCompleted: [record], SessionEnd: [record] },
          log: () => {},
        });
        const event = { kind, source: {}, scope, ...(payload === undefined ? {} : { payload }) };
        await testHook(hook, { log: () => {} }).event(event as RuntimeEvent);
        const fromPayload = typeof payload === "object" && payload !== null && !Array.isArray(payload);
        const key = scope.session_key || (fromPayload ? (payload as { SessionKey?: unknown }).SessionKey : undefined);
        if (typeof key !== "string" || key === "" || kind === "agent.session.end") assert.deepEqual(seen, []);
        else if (kind === "agent.turn.end") assert.deepEqual(seen, [`SessionStart ${key}`, `TaskCompleted ${key}`]);
        else assert.deepEqual(seen, [`SessionStart ${key}`]);
      },
    ),
    { numRuns: NUM_RUNS },
  );
});
