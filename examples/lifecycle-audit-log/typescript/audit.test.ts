import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { testHook } from "hookwire";

import { auditLog, type AuditEntry } from "./audit.js";

const tmp = mkdtempSync(join(tmpdir(), "hookwire-lifecycle-audit-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const read = (file: string): AuditEntry[] => JSON.parse(readFileSync(file, "utf8")) as AuditEntry[];

describe("the audit log, in-process", () => {
  it("records each tool call before it runs, lets it through, and writes the log when the session ends", async () => {
    const file = join(tmp, "in-process.json");
    const t = testHook(auditLog(file));
    const started = new Date().toISOString();
    const call = { meta: { SessionKey: "s1" }, tool: "shell", arguments: { command: "ls" } };
    assert.deepEqual(await t.beforeTool(call), { action: "continue" });
    assert.deepEqual(await t.beforeTool({ ...call, tool: "echo_text", arguments: { text: "hi" } }), { action: "continue" });
    assert.equal(existsSync(file), false);

    await t.event({ kind: "agent.session.end", source: {}, scope: { session_key: "s1" }, payload: { SessionKey: "s1" } });
    const log = read(file);
    assert.deepEqual(
      log.map(({ tool, input }) => ({ tool, input })),
      [
        { tool: "shell", input: { command: "ls" } },
        { tool: "echo_text", input: { text: "hi" } },
      ],
    );
    for (const entry of log) assert.ok(entry.time >= started && entry.time <= new Date().toISOString(), entry.time);
    assert.match(readFileSync(file, "utf8"), /^\[\n  \{\n    "time": /); // indented, as the seed writes it
  });

  it("writes the log when the hook stops, for a session the host never ended", async () => {
    const file = join(tmp, "at-stop.json");
    const t = testHook(auditLog(file));
    await t.beforeTool({ meta: { SessionKey: "s1" }, tool: "shell", arguments: { command: "make" } });
    await t.close();
    assert.deepEqual(read(file).map((e) => e.tool), ["shell"]);
  });
});

describe("the audit log under the reference runtime", () => {
  const here = fileURLToPath(new URL("..", import.meta.url));
  const hookwire = join(tmp, "hookwire");
  before(() => {
    execFileSync("go", ["build", "-o", hookwire, "./cmd/hookwire"], { cwd: join(here, "..", "..", "..", "core"), stdio: "inherit" });
  });

  it("records every tool call of the scenario's two sessions, as the tools ran them", () => {
    const file = join(tmp, "audit.json");
    const started = new Date().toISOString();
    const out = execFileSync(hookwire, ["run", "--json", "--hooks", join(here, "hooks.json"), join(here, "scenario.json")], {
      encoding: "utf8",
      env: { ...process.env, AUDIT_LOG: file },
    });
    const records = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { [key: string]: unknown });
    assert.deepEqual(
      records.filter((r) => r["type"] === "turn_end").map((r) => r["status"]),
      ["done", "done"],
    );
    const ran = records.filter((r) => r["type"] === "tool").map((r) => ({ tool: r["tool"], input: r["arguments"], outcome: r["outcome"] }));
    assert.deepEqual(ran, [
      { tool: "shell", input: { command: "ls build" }, outcome: "ran" },
      { tool: "shell", input: { command: "rm -r build/cache" }, outcome: "ran" },
      { tool: "echo_text", input: { text: "Cache cleared." }, outcome: "ran" },
      { tool: "echo_text", input: { text: "hello" }, outcome: "ran" },
    ]);

    const log = read(file);
    assert.deepEqual(
      log.map(({ tool, input }) => ({ tool, input })),
      ran.map(({ tool, input }) => ({ tool, input })),
    );
    for (const entry of log) assert.ok(entry.time >= started && entry.time <= new Date().toISOString(), entry.time);
  });
});
