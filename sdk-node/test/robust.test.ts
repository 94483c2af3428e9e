// What a host can throw at a hook process: malformed lines, deep nesting,
// a stuck handler when stdin closes, a reply longer than the host reads.
// The hook runs as a real child process, in a process group of its own.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";

import { fixture, HookProcess, type Reply } from "./helpers/hook-process.js";
import { HookwireCLI } from "./helpers/hookwire-cli.js";
import { isJSON, malformedLines } from "./helpers/malformed.js";

const started: HookProcess[] = [];
const start = (): HookProcess => {
  const hook = new HookProcess(process.execPath, [fixture("wire-hook")], undefined, true);
  started.push(hook);
  return hook;
};
afterEach(() => {
  for (const hook of started.splice(0)) hook.kill();
});

/** Closes the hook's stdin; it must exit 0 within a second and leave no process of its group behind. */
async function closeAndCheck(hook: HookProcess): Promise<void> {
  const closed = Date.now();
  const exit = await hook.close();
  const took = Date.now() - closed;
  assert.deepEqual(exit, { code: 0, signal: null }, hook.stderr);
  assert.ok(took < 1000, `the hook exited ${took} ms after stdin closed, want within 1 s`);
  const groups = execFileSync("ps", ["-A", "-o", "pgid="], { encoding: "utf8" }).split(/\s+/);
  assert.ok(!groups.includes(String(hook.child.pid)), `a process of the hook's group ${hook.child.pid} is left behind`);
}

const parsed = (line: string): Reply => JSON.parse(line) as Reply;

describe("a hook under a hostile host", () => {
  it("answers every malformed line with an error or ignores it, and answers the next request", async () => {
    const hook = start();
    let seen = 0;
    for (const [i, line] of malformedLines.entries()) {
      hook.child.stdin.write(Buffer.concat([line, Buffer.from("\n")]));
      const next = 1000 + i;
      hook.send(
        JSON.stringify({ jsonrpc: "2.0", id: next, method: "hook.before_tool", params: { tool: "ls", arguments: {} } }),
      );
      assert.deepEqual(
        (await hook.reply(next)).result,
        { action: "continue" },
        `after ${line.toString("latin1").slice(0, 80)}`,
      );
      for (const reply of hook.lines.slice(seen).map(parsed)) {
        assert.ok(
          reply.jsonrpc === "2.0" && (reply.result === undefined) !== (reply.error === undefined),
          JSON.stringify(reply),
        );
        // JSON that only looks odd is read as JSON.parse reads it: a member named twice as its last value.
        if (reply.id !== next && !isJSON(line)) {
          assert.ok(
            reply.error !== undefined,
            `${line.toString("latin1").slice(0, 80)} got a result: ${JSON.stringify(reply)}`,
          );
        }
      }
      seen = hook.lines.length;
    }
    await closeAndCheck(hook);
  });

  it("answers a request whatever the depth of its arguments", async () => {
    const hook = start();
    for (const depth of [1200, 100000]) {
      const args = `{"command":"rm -rf /","nested":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      hook.send(
        `{"jsonrpc":"2.0","id":${depth},"method":"hook.before_tool","params":{"tool":"shell","arguments":${args}}}`,
      );
      const reply = await hook.reply(depth);
      assert.ok(
        reply.error !== undefined ||
          (reply.result?.["action"] === "deny_tool" && reply.result?.["reason"] === "dangerous command"),
        `depth ${depth}: ${JSON.stringify(reply)}`,
      );
    }
    await closeAndCheck(hook);
  });

  it("exits within a second of stdin closing with a handler still running", async () => {
    const hook = start();
    hook.post("hook.before_tool", { tool: "stuck", arguments: {} });
    while (!hook.stderr.includes("stuck")) await new Promise((resolve) => setTimeout(resolve, 10));
    await closeAndCheck(hook);
    assert.match(hook.stderr, /stdin is closed and handlers are still running/);
  });

  it("answers a before_llm modify longer than a host that announces nothing reads with abort_turn, and the next call", async () => {
    const hook = start();
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["llm", "tool"] });
    const messages = Array.from({ length: 2000 }, () => ({ role: "user", content: "x".repeat(1000) }));
    const reply = await hook.request("hook.before_llm", { model: "m", messages });
    assert.deepEqual(reply.result, {
      action: "abort_turn",
      reason: "the hook's answer is longer than the host reads in a line (1048576 bytes)",
    });
    assert.deepEqual((await hook.request("hook.before_tool", { tool: "ls", arguments: {} })).result, {
      action: "continue",
    });
    await closeAndCheck(hook);
    assert.match(
      hook.stderr,
      /the reply to hook\.before_llm \(id 2\) is 20\d{5} bytes, longer than the host reads in a line \(1048576 bytes\); sending {"action":"abort_turn"/,
    );
  });

  it("answers an approval longer than the host reads with a denial, and a deny_tool with its action", async () => {
    const hook = new HookProcess(process.execPath, [fixture("reference-hook")], undefined, true);
    started.push(hook);
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["tool", "approve"], max_line_bytes: 40 });
    const approval = await hook.request("hook.approve_tool", { tool: "approve", arguments: {} });
    const reason = "the hook's answer is longer than the host reads in a line (40 bytes)";
    assert.deepEqual(approval.result, { approved: false, reason }, JSON.stringify(approval));
    assert.deepEqual((await hook.request("hook.before_tool", { tool: "deny_tool", arguments: {} })).result, {
      action: "deny_tool",
      reason,
    });
    await closeAndCheck(hook);
    assert.match(
      hook.stderr,
      /the reply to hook\.approve_tool \(id 2\) is \d+ bytes, longer than the host reads in a line \(40 bytes\); sending {"approved":false,/,
    );
  });

  it("cuts an after_tool modify to fit on a character boundary, with the bytes cut in the marker", async () => {
    const text = `secret ${"é€😀<".repeat(100)}`; // 2, 3, 4 and 1 bytes: 1007 in all
    const hook = new HookProcess(process.execPath, [fixture("reference-hook")], undefined, true);
    started.push(hook);
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["tool"], max_line_bytes: 700 });
    const ran = { tool: "redact", arguments: {}, result: { for_llm: text } };
    const reply = await hook.request("hook.after_tool", ran);
    await closeAndCheck(hook);
    assert.ok(Buffer.byteLength(JSON.stringify(reply)) + 1 <= 700, JSON.stringify(reply));
    const result = reply.result as { action: string; result: { result: { for_llm: string } } };
    assert.equal(result.action, "modify");
    const got = result.result.result.for_llm;
    const at = got.indexOf("\n[hookwire: ");
    const kept = got.slice(0, at);
    const masked = text.replaceAll("secret", "***");
    assert.ok(at > 50 && masked.startsWith(kept) && !/[\uD800-\uDBFF]$/.test(kept), got);
    const cut = Buffer.byteLength(masked) - Buffer.byteLength(kept);
    assert.equal(got.slice(at), `\n[hookwire: ${cut} bytes cut to fit the host's line]`);
  });

  it("answers a HookError whose data is longer than the host reads with its code alone", async () => {
    const hook = start();
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["tool"], max_line_bytes: 200 });
    const reply = await hook.request("hook.before_tool", {
      tool: "hook_error",
      arguments: { code: -32010, message: "quota", data: "x".repeat(500) },
    });
    assert.equal(reply.error?.code, -32010);
    assert.ok(!Object.hasOwn(reply.error ?? {}, "data"), JSON.stringify(reply));
    assert.match(
      reply.error?.message ?? "",
      /^the error reply \(5\d\d bytes\) is longer than the host reads \(200 bytes\)$/,
    );
    assert.deepEqual((await hook.request("hook.before_tool", { tool: "ls", arguments: {} })).result, {
      action: "continue",
    });
    await closeAndCheck(hook);
    assert.match(
      hook.stderr,
      /the error reply to hook\.before_tool \(id 2\) is 5\d\d bytes, longer than the host reads in a line \(200 bytes\)/,
    );
  });

  it("sends a reply as long as the host announces in hello", async () => {
    const hook = start();
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["llm"], max_line_bytes: 64 << 20 });
    const req = { model: "m", messages: [{ role: "user", content: "x".repeat(2 << 20) }] };
    assert.deepEqual((await hook.request("hook.before_llm", req)).result, { action: "modify", request: req });
    await closeAndCheck(hook);
  });

  it("warns at hello about a granted mode that no handler serves", async () => {
    const hook = start();
    await hook.request("hook.hello", { name: "wire", version: 1, modes: ["tool", "approve"] });
    await closeAndCheck(hook);
    assert.match(
      hook.stderr,
      /the host grants mode "approve", which no handler of this hook serves: hook\.approve_tool is answered with an error, which a host may take as a denial of every tool call\n/,
    );
    assert.doesNotMatch(hook.stderr, /mode "tool"/);
  });
});

describe("a hook under hookwire run --host picoclaw", () => {
  it("answers a 2 MB before_llm modify with abort_turn, and the next turn's calls", () => {
    const cli = new HookwireCLI();
    try {
      cli.build();
      const hooks = join(cli.dir, "hooks.json");
      const processes = {
        ts: {
          enabled: true,
          command: [process.execPath, fixture("wire-hook")],
          intercept: ["before_llm", "before_tool"],
        },
      };
      writeFileSync(hooks, JSON.stringify({ hooks: { enabled: true, processes } }));
      const scenario = join(cli.dir, "scenario.json");
      const replies = [{ tool_calls: [{ name: "echo_text", arguments: { text: "rm -rf /" } }] }, { content: "done" }];
      const turns = [
        { prompt: "a long conversation ".repeat(100_000), replies: [{ content: "never read" }] },
        { session: "another", prompt: "clean up", replies }, // without the long conversation
      ];
      writeFileSync(scenario, JSON.stringify({ turns }));
      const run = cli.run(hooks, scenario, "--host", "picoclaw");
      assert.match(
        run.stderr,
        /the reply to hook\.before_llm \(id \d+\) is 20\d{5} bytes, longer than the host reads in a line \(1048576 bytes\); sending {"action":"abort_turn"/,
      );
      const ends = run.records.filter((r) => r["type"] === "turn_end").map((r) => r["status"]);
      assert.equal(ends.length, 2, JSON.stringify(ends));
      assert.notEqual(ends[0], "done", JSON.stringify(ends));
      const echo = run.records.find((r) => r["type"] === "tool" && r["tool"] === "echo_text");
      assert.equal(echo?.["outcome"], "denied", JSON.stringify(echo));
      assert.equal(echo?.["by"], "ts");
    } finally {
      cli.remove();
    }
  });
});
