// hookwire's plugin for OpenCode's plugin API, with real processes: the
// warm server of the reference runtime's CLI (hookwire bridge --mcp) in
// front of a Python guard, and scripted servers that fail in each way a
// server can.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { decodeDecision, decodeResponse, openCodePlugin } from "../src/opencode-plugin.js";
import { HookwireCLI } from "./helpers/hookwire-cli.js";

const dir = mkdtempSync(join(tmpdir(), "hookwire-opencode-"));
const cli = new HookwireCLI();

// A guard in plain Python: deny, rewrite the command, or let it through.
const guard = join(dir, "guard.py");
writeFileSync(
  guard,
  `import json, sys
behaviour = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "hook.hello":
        result = {"ok": True, "modes": ["tool"]}
    elif msg["method"] != "hook.before_tool":
        result = {"action": "continue"}
    elif behaviour == "deny":
        result = {"action": "deny_tool", "reason": "the guard says no"}
    elif behaviour == "rewrite":
        call = msg["params"]
        result = {"action": "modify", "call": {"tool": call["tool"], "arguments": {"command": "echo safe"}}}
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`,
);

// A server that fails: says nothing, writes what is not JSON-RPC, or ends
// once it has answered initialize.
const broken = join(dir, "broken.mjs");
writeFileSync(
  broken,
  `import readline from "node:readline";
const how = process.argv[2];
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (how === "silent" || msg.id === undefined) return;
  if (msg.method === "initialize") {
    console.log(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "x", version: "1" } } }));
    if (how === "exit") setTimeout(() => process.exit(0), 50);
    return;
  }
  if (how === "garbage") console.log("this is not JSON");
});
`,
);

type Hooks = Awaited<ReturnType<ReturnType<typeof openCodePlugin>>>;

const warm = (behaviour: string, timeoutMs = 20_000) =>
  openCodePlugin({
    server: [
      cli.bin,
      "bridge",
      "--mcp",
      "--dir",
      dir,
      "--timeout",
      "5s",
      "opencode",
      "--",
      "python3",
      guard,
      behaviour,
    ],
    timeoutMs,
  })({ directory: dir });

const bash = (hooks: Hooks, command: string) => {
  const output = { args: { command, description: "x" } as Record<string, unknown> };
  return hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, output).then(
    () => output.args,
  );
};

describe("hookwire's plugin for OpenCode", () => {
  before(() => cli.build());
  after(() => cli.remove());

  it("blocks a call the guard denies, with the guard's reason", async () => {
    await assert.rejects(bash(await warm("deny"), "rm -rf /"), /the guard says no/);
  });

  it("lets a call through, and asks the same server again", async () => {
    const hooks = await warm("continue");
    assert.equal((await bash(hooks, "ls")).command, "ls");
    assert.equal((await bash(hooks, "pwd")).command, "pwd");
  });

  it("runs the call with the arguments the guard rewrote", async () => {
    assert.equal((await bash(await warm("rewrite"), "rm -rf /")).command, "echo safe");
  });

  // The server is a Node.js program, which a loaded machine may take over
  // 300 ms to start: only the silent one is given no more.
  for (const [how, why, timeoutMs] of [
    ["silent", /did not answer within 300 ms/, 300],
    ["garbage", /cannot read/, 10_000],
    ["exit", /the server ended/, 10_000],
  ] as const) {
    it(`blocks a guarded call when the server is ${how}`, async () => {
      const hooks = await openCodePlugin({ server: [process.execPath, broken, how], timeoutMs })({
        directory: dir,
      });
      // Every call is blocked; the reason is the failure's once the plugin
      // has seen it (an exit is seen after the server started and ended,
      // which a loaded machine may take a while to do).
      const deadline = Date.now() + 20_000;
      for (;;) {
        const err = await bash(hooks, "rm -rf /").then(
          () => assert.fail("the call was let through"),
          (e: Error) => e,
        );
        assert.match(err.message, /^hookwire blocked the call/);
        if (why.test(err.message)) break;
        assert.ok(Date.now() < deadline, `no call was blocked for its reason ${why}: the last said ${err.message}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  }

  it("blocks when the server cannot start", async () => {
    const hooks = await openCodePlugin({ server: [join(dir, "no-such-program")], timeoutMs: 2000 })({ directory: dir });
    await assert.rejects(bash(hooks, "ls"), /hookwire blocked the call: .*did not start/);
  });
});

describe("the plugin's decoders of the server's bytes", () => {
  it("read a tool's result and a decision", () => {
    assert.deepEqual(decodeResponse('{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{}"}]}}'), {
      id: 3,
      text: "{}",
    });
    assert.deepEqual(decodeDecision('{"block":"no","args":{"command":"ls"}}'), {
      block: "no",
      args: { command: "ls" },
    });
  });

  it("either read what they are given or throw an Error, whatever the bytes", () => {
    const json = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(json, (line) => {
        for (const decode of [decodeResponse, decodeDecision]) {
          try {
            decode(line);
          } catch (err) {
            assert.ok(err instanceof Error);
          }
        }
      }),
    );
  });

  it("never take a block for an allow: a block in any answer is read as one", () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), (reason, rest) => {
        const d = decodeDecision(JSON.stringify({ ...rest, block: reason }));
        assert.equal(d.block, reason);
      }),
    );
  });
});

describe("the plugin, shipped with the SDK", () => {
  it("is imported as hookwire/opencode-plugin", async () => {
    const shipped = await import("hookwire/opencode-plugin");
    assert.equal(shipped.openCodePlugin, openCodePlugin);
  });
});
