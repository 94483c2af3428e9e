// Lifecycle hooks as a real process under the reference runtime: a scripted
// scenario of four turns in three sessions (tool success, tool failure, a
// denial, an abort, a two-round turn, a second session), asserted on the
// transcript (what the tools ran with, what the LLM saw) and on what the
// callbacks recorded (test/fixtures/lifecycle-hook.ts).

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { fixture, HookProcess } from "./helpers/hook-process.js";
import { HookwireCLI, type Run } from "./helpers/hookwire-cli.js";

type Rec = { [key: string]: unknown };

const readRecords = (file: string): Rec[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Rec)
    : [];

/** A record as "as tool input" or "as detail", short enough to compare lists. */
const brief = (r: Rec): string => {
  if (r["toolName"] !== undefined)
    return `${String(r["as"])} ${String(r["toolName"])} ${JSON.stringify(r["toolInput"])}`;
  if (r["message"] !== undefined) return `${String(r["as"])} ${String(r["message"])}`;
  return String(r["as"]);
};

const scenario = {
  tools: ["echo_text", "read_file", "shell"],
  turns: [
    {
      session: "alice",
      prompt: "Echo hello, read missing.txt, clean the build",
      replies: [
        {
          tool_calls: [
            { name: "echo_text", arguments: { text: "hello" } },
            { name: "read_file", arguments: { path: "missing.txt" } },
            { name: "shell", arguments: { command: "rm -rf build" } },
            { name: "shell", arguments: { command: "ls build" } },
          ],
        },
        { content: "Done." },
      ],
    },
    { session: "bob", prompt: "Say hi", replies: [{ content: "Hi." }], end_session: true },
    {
      session: "carol",
      prompt: "Format the disk",
      replies: [{ tool_calls: [{ name: "shell", arguments: { command: "mkfs /dev/sdb" } }] }],
    },
    { session: "alice", prompt: "Thanks", replies: [{ content: "You are welcome." }] },
  ],
};

const hooksFile = (dir: string, record: string, observe: boolean): string => {
  const file = join(dir, observe ? "hooks.json" : "hooks-no-events.json");
  const lifecycle = {
    enabled: true,
    command: [process.execPath, fixture("lifecycle-hook")],
    env: { LIFECYCLE_RECORD: record },
    intercept: ["before_llm", "before_tool", "approve_tool", "after_tool"],
    ...(observe ? { observe: ["agent.session.*", "agent.turn.end"] } : {}),
  };
  writeFileSync(file, JSON.stringify({ hooks: { enabled: true, processes: { lifecycle } } }));
  return file;
};

const cli = new HookwireCLI();
before(() => cli.build());
after(() => cli.remove());

describe("lifecycle hooks under hookwire run", () => {
  let run: Run;
  let recorded: Rec[];
  const of = (session: string) => recorded.filter((r) => r["sessionId"] === session);
  const calls = (session: string) =>
    of(session)
      .filter((r) => r["as"] !== "completed" && r["as"] !== "end")
      .map(brief);
  const tools = () => run.records.filter((r) => r["type"] === "tool");

  before(() => {
    const record = join(cli.dir, "observed.jsonl");
    writeFileSync(join(cli.dir, "scenario.json"), JSON.stringify(scenario));
    run = cli.run(hooksFile(cli.dir, record, true), join(cli.dir, "scenario.json"), "--messages");
    recorded = readRecords(record);
  });

  it("plays every turn: the abort ends only its own", () => {
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(
      run.records.filter((r) => r["type"] === "turn_end").map((r) => [r["status"], r["reason"]]),
      [
        ["done", undefined],
        ["done", undefined],
        ["aborted", "dangerous command, turn ended: mkfs /dev/sdb"],
        ["done", undefined],
      ],
    );
  });

  it("fires each event at its point of the turn, in the order of the callbacks", () => {
    assert.deepEqual(calls("alice"), [
      "start",
      "prompt Echo hello, read missing.txt, clean the build (checked)",
      // Tool success: the second PreToolUse record sees the first callback's change.
      'pre 1 echo_text {"text":"hello"}',
      'pre 2 echo_text {"text":"HELLO"}',
      'permission echo_text {"text":"HELLO"}',
      'post echo_text {"text":"HELLO"}',
      // Tool failure.
      'pre 1 read_file {"path":"missing.txt"}',
      'pre 2 read_file {"path":"missing.txt"}',
      'permission read_file {"path":"missing.txt"}',
      'failure read_file {"path":"missing.txt"}',
      // Denial: the skip stops the callbacks after it, and the tool.
      'pre 1 shell {"command":"rm -rf build"}',
      // canUseTool's updated input is what the tool ran with, and what after_tool reports.
      'pre 1 shell {"command":"ls build"}',
      'pre 2 shell {"command":"ls build"}',
      'permission shell {"command":"ls build"}',
      'post shell {"command":"ls build --dry-run"}',
      // The turn's second LLM round is no new prompt; the session's second turn is.
      "prompt Thanks (checked)",
    ]);
    assert.deepEqual(calls("bob"), ["start", "prompt Say hi (checked)"]);
    assert.deepEqual(calls("carol"), [
      "start",
      "prompt Format the disk (checked)",
      'pre 1 shell {"command":"mkfs /dev/sdb"}',
    ]);
  });

  it("starts each session once, and ends it once, after all else of it", () => {
    for (const session of ["alice", "bob", "carol"]) {
      const events = of(session).map((r) => r["event"]);
      assert.equal(events[0], "SessionStart", session);
      assert.equal(events.filter((e) => e === "SessionStart").length, 1, session);
      assert.equal(events.at(-1), "SessionEnd", session);
      assert.equal(events.filter((e) => e === "SessionEnd").length, 1, session);
    }
  });

  it("fires TaskCompleted after each turn, with the turn's status", () => {
    const completed = (session: string) =>
      of(session)
        .filter((r) => r["event"] === "TaskCompleted")
        .map((r) => (r["payload"] as Rec)["Status"]);
    assert.deepEqual(completed("alice"), ["done", "done"]);
    assert.deepEqual(completed("bob"), ["done"]);
    assert.deepEqual(completed("carol"), ["aborted"]);
  });

  it("gives the callbacks the failure's text, and the tool's kind and paths", () => {
    const failure = recorded.find((r) => r["event"] === "PostToolUseFailure");
    assert.equal(failure?.["error"], "read_file: missing.txt: no such file or directory");
    const permissions = recorded
      .filter((r) => r["event"] === "PermissionRequest")
      .map((r) => [r["toolName"], r["toolKind"], r["affectedPaths"]]);
    assert.deepEqual(permissions, [
      ["echo_text", "readonly", []],
      ["read_file", "readonly", [join(cli.dir, "missing.txt")]],
      ["shell", "execute", []],
    ]);
  });

  it("runs the tools with the modified input, and denies the skipped one with its reason, though a callback threw", () => {
    assert.deepEqual(
      tools().map((r) => [r["tool"], r["arguments"], r["outcome"], r["reason"]]),
      [
        ["echo_text", { text: "HELLO" }, "ran", undefined],
        ["read_file", { path: "missing.txt" }, "ran", undefined],
        ["shell", { command: "rm -rf build" }, "denied", "dangerous command: rm -rf build"],
        ["shell", { command: "ls build --dry-run" }, "ran", undefined],
      ],
    );
    const thrown = run.stderr
      .split("\n")
      .filter((line) => line.includes("PreToolUse callback 3 failed, taken as continue: Error: monitoring is down"));
    assert.equal(thrown.length, 1, run.stderr);
  });

  it("lets the LLM see the modified prompt and the modified tool outputs", () => {
    const requests = run.records.filter((r) => r["type"] === "llm_request").map((r) => r["messages"] as Rec[]);
    assert.deepEqual(requests[0], [
      { role: "user", content: "Echo hello, read missing.txt, clean the build (checked)" },
    ]);
    assert.deepEqual(
      requests[1]?.filter((m) => m["role"] === "tool").map((m) => m["content"]),
      [
        "echoed: HELLO",
        "no such file; carry on without it",
        "tool shell was denied by hook lifecycle: dangerous command: rm -rf build",
        "would run: ls build --dry-run",
      ],
    );
    assert.deepEqual(requests[2], [{ role: "user", content: "Say hi (checked)" }]);
  });
});

describe("lifecycle hooks under a host that sends no session events", () => {
  let run: Run;
  let recorded: Rec[];

  before(() => {
    const record = join(cli.dir, "unobserved.jsonl");
    writeFileSync(join(cli.dir, "scenario.json"), JSON.stringify(scenario));
    run = cli.run(hooksFile(cli.dir, record, false), join(cli.dir, "scenario.json"));
    recorded = readRecords(record);
  });

  it("starts sessions from the calls, and ends them when the hook stops, in the order they started", () => {
    assert.equal(run.status, 0, run.stderr);
    const sessions = (event: string) => recorded.filter((r) => r["event"] === event).map((r) => r["sessionId"]);
    assert.deepEqual(sessions("SessionStart"), ["alice", "bob", "carol"]);
    assert.deepEqual(sessions("SessionEnd"), ["alice", "bob", "carol"]);
    assert.equal(recorded.at(-1)?.["event"], "SessionEnd");
    assert.deepEqual(sessions("TaskCompleted"), []);
  });
});

describe("a lifecycle hook stopped by a signal", () => {
  it("ends its open sessions before it exits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwire-lifecycle-"));
    try {
      const hook = HookProcess.node(fixture("lifecycle-hook"), dir);
      await hook.request("hook.hello", { name: "lifecycle", version: 1, modes: ["tool"] });
      const reply = await hook.request("hook.before_tool", {
        meta: { SessionKey: "s9" },
        tool: "echo_text",
        arguments: { text: "x" },
      });
      assert.equal((reply.result as Rec | undefined)?.["action"], "modify");
      hook.child.kill("SIGTERM");
      assert.deepEqual(await hook.exited(), { code: 0, signal: null });
      assert.deepEqual(
        readRecords(join(dir, "lifecycle.jsonl")).map((r) => `${String(r["event"])} ${String(r["sessionId"])}`),
        ["SessionStart s9", "PreToolUse s9", "PreToolUse s9", "SessionEnd s9"],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
