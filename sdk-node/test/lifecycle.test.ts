// The lifecycle layer in-process: each event fires from the protocol call or
// event it maps to, its outcomes become the reply the design says, and the
// rules within one hook hold (order, chained input, short-circuit, failures
// taken as continue).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { type HookInput, type LifecycleOptions, lifecycle } from "../src/index.js";
import { approval, call, event, ran, recorder, request, setup } from "./helpers/lifecycle.js";

describe("hello", () => {
  const modes = async (options: LifecycleOptions) => (await setup(options).t.hello()).modes;
  const cont = () => ({ action: "continue" as const });

  it("declares the modes the registered events need", async () => {
    assert.deepEqual(await modes({ hooks: { UserPromptSubmit: [cont] } }), ["llm"]);
    assert.deepEqual(await modes({ hooks: { PreToolUse: [cont] } }), ["tool"]);
    assert.deepEqual(await modes({ hooks: { PostToolUseFailure: [cont] } }), ["tool"]);
    assert.deepEqual(await modes({ hooks: { PermissionRequest: [cont] } }), ["approve"]);
    assert.deepEqual(await modes({ canUseTool: () => ({ behavior: "allow" }) }), ["approve"]);
    for (const e of ["SessionStart", "SessionEnd", "TaskCompleted"] as const) {
      assert.deepEqual(await modes({ hooks: { [e]: [cont] } }), ["observe"], e);
    }
    assert.deepEqual(await modes({ hooks: { PreToolUse: [], SessionEnd: [cont] } }), ["observe"]);
  });
});

describe("SessionStart", () => {
  it("fires once per session key, before the callbacks of the call that revealed it", async () => {
    const seen: string[] = [];
    const { t } = setup({ hooks: { SessionStart: [recorder(seen)], PreToolUse: [recorder(seen)] } });
    await t.beforeTool(call("read_file", { path: "a" }, "s1"));
    await t.beforeTool(call("read_file", { path: "b" }, "s1"));
    await t.beforeTool(call("read_file", { path: "c" }, "s2"));
    assert.deepEqual(seen, [
      "SessionStart s1",
      'PreToolUse read_file {"path":"a"}',
      'PreToolUse read_file {"path":"b"}',
      "SessionStart s2",
      'PreToolUse read_file {"path":"c"}',
    ]);
  });

  it("fires from agent.session.start, or any event's session, and not again for a call of that session", async () => {
    const seen: string[] = [];
    const { t } = setup({ hooks: { SessionStart: [recorder(seen)], PreToolUse: [recorder(seen)] } });
    await t.event(event("agent.session.start", "s1", { SessionKey: "s1" }));
    await t.event(event("agent.turn.start", "s2"));
    await t.event({ kind: "agent.session.start", source: {}, scope: {}, payload: { SessionKey: "s3" } });
    await t.event({ kind: "agent.turn.start", source: {}, scope: {}, payload: { SessionKey: "s4" } });
    await t.event(event("agent.turn.start", "s1"));
    await t.beforeTool(call("echo_text", {}, "s2"));
    assert.deepEqual(seen, [
      "SessionStart s1",
      "SessionStart s2",
      "SessionStart s3",
      "SessionStart s4",
      "PreToolUse echo_text {}",
    ]);
  });

  it("fires again for a key seen after its session ended: a new session", async () => {
    const seen: string[] = [];
    const { t } = setup({ hooks: { SessionStart: [recorder(seen)], SessionEnd: [recorder(seen)] } });
    await t.event(event("agent.session.start", "s1"));
    await t.event(event("agent.session.end", "s1"));
    await t.event(event("agent.session.start", "s1"));
    assert.deepEqual(seen, ["SessionStart s1", "SessionEnd s1", "SessionStart s1"]);
  });

  it("lets the call wait for a slow SessionStart, and runs it once for concurrent calls", async () => {
    const seen: string[] = [];
    let starts = 0;
    const { t } = setup({
      hooks: {
        SessionStart: [
          async () => {
            starts++;
            await new Promise((resolve) => setTimeout(resolve, 20));
            seen.push("started");
            return { action: "continue" };
          },
        ],
        PreToolUse: [recorder(seen)],
      },
    });
    await Promise.all([t.beforeTool(call("a", {})), t.beforeTool(call("b", {}))]);
    assert.equal(starts, 1);
    assert.deepEqual(seen, ["started", "PreToolUse a {}", "PreToolUse b {}"]);
  });
});

describe("UserPromptSubmit", () => {
  it("fires on the first before_llm of each turn, with the last user message", async () => {
    const seen: string[] = [];
    const { t } = setup({ hooks: { UserPromptSubmit: [recorder(seen)] } });
    assert.deepEqual(await t.beforeLLM(request("s1", "t1", "first")), { action: "continue" });
    await t.beforeLLM(request("s1", "t1", "first")); // the second round of the turn
    await t.beforeLLM(request("s1", "t2", "second"));
    await t.beforeLLM(request("s2", "t1", "other session"));
    assert.deepEqual(seen, ["UserPromptSubmit first", "UserPromptSubmit second", "UserPromptSubmit other session"]);
  });

  it("without a TurnID, fires when the request ends with a user message", async () => {
    const seen: string[] = [];
    const { t } = setup({ hooks: { UserPromptSubmit: [recorder(seen)] } });
    const req = { model: "m", messages: [{ role: "user", content: "hi" }] };
    await t.beforeLLM(req);
    await t.beforeLLM({
      ...req,
      messages: [...req.messages, { role: "assistant", content: "" }, { role: "tool", content: "x" }],
    });
    assert.deepEqual(seen, ["UserPromptSubmit hi"]);
  });

  it("modifiedInput replaces the user message's text in the whole request; each callback sees the one before", async () => {
    const seen: string[] = [];
    const { t } = setup({
      hooks: {
        UserPromptSubmit: [
          (input) => ({ action: "continue", modifiedInput: input.message + " please" }),
          recorder(seen),
          (input) => ({ action: "continue", modifiedInput: input.message.toUpperCase() }),
        ],
      },
    });
    const req = request("s1", "t1", "read notes");
    assert.deepEqual(await t.beforeLLM(req), {
      action: "modify",
      request: { ...req, messages: [req.messages![0]!, { role: "user", content: "READ NOTES PLEASE" }] },
    });
    assert.deepEqual(seen, ["UserPromptSubmit read notes please"]);
  });

  it("a modifiedInput that leaves the text as it was is continue, not modify", async () => {
    const { t } = setup({
      hooks: { UserPromptSubmit: [(input) => ({ action: "continue", modifiedInput: input.message })] },
    });
    assert.deepEqual(await t.beforeLLM(request("s1", "t1")), { action: "continue" });
  });

  it("abort ends the turn; skip is taken as continue, keeping what came before, and stops the rest", async () => {
    const seen: string[] = [];
    const { t } = setup({
      hooks: {
        UserPromptSubmit: [
          (input) =>
            input.message === "stop"
              ? { action: "abort", reason: "not today" }
              : { action: "continue", modifiedInput: "edited" },
          () => ({ action: "skip" }),
          recorder(seen),
        ],
      },
    });
    assert.deepEqual(await t.beforeLLM(request("s1", "t1", "stop")), { action: "abort_turn", reason: "not today" });
    const result = await t.beforeLLM(request("s1", "t2", "go"));
    assert.equal(result.action === "modify" && result.request.messages?.[1]?.content, "edited");
    assert.deepEqual(seen, []);
  });
});

describe("PreToolUse", () => {
  it("modifiedInput becomes a modify of the whole call; callbacks run in order, each on the input before", async () => {
    const seen: string[] = [];
    const { t } = setup({
      hooks: {
        PreToolUse: [
          (input) => ({ action: "continue", modifiedInput: { ...input.toolInput, text: "one" } }),
          recorder(seen),
          (input) => ({ action: "continue", modifiedInput: { ...input.toolInput, extra: true } }),
          recorder(seen),
        ],
      },
    });
    const c = call("echo_text", { text: "zero" });
    assert.deepEqual(await t.beforeTool(c), {
      action: "modify",
      call: { ...c, arguments: { text: "one", extra: true } },
    });
    assert.deepEqual(seen, ['PreToolUse echo_text {"text":"one"}', 'PreToolUse echo_text {"text":"one","extra":true}']);
  });

  it("continue alone lets the call through unchanged", async () => {
    const { t } = setup({ hooks: { PreToolUse: [() => ({ action: "continue" })] } });
    assert.deepEqual(await t.beforeTool(call("echo_text", { text: "x" })), { action: "continue" });
  });

  it("skip denies the tool with the reason; abort ends the turn; the first of them stops the rest", async () => {
    const seen: string[] = [];
    const { t } = setup({
      hooks: {
        PreToolUse: [
          (input) =>
            input.toolName === "shell"
              ? { action: "skip", reason: "no shell" }
              : input.toolName === "nuke"
                ? { action: "abort", reason: "dangerous" }
                : { action: "continue" },
          recorder(seen),
        ],
      },
    });
    assert.deepEqual(await t.beforeTool(call("shell", {})), { action: "deny_tool", reason: "no shell" });
    assert.deepEqual(await t.beforeTool(call("nuke", {})), { action: "abort_turn", reason: "dangerous" });
    assert.deepEqual(await t.beforeTool(call("echo_text", {})), { action: "continue" });
    assert.deepEqual(seen, ["PreToolUse echo_text {}"]);
  });

  it("a skip without a reason still gives the LLM one", async () => {
    const { t } = setup({ hooks: { PreToolUse: [() => ({ action: "skip" })] } });
    assert.deepEqual(await t.beforeTool(call("shell", {})), {
      action: "deny_tool",
      reason: "shell skipped by a PreToolUse callback",
    });
  });

  it("a callback that throws is logged and taken as continue: the tool runs, the next callbacks too", async () => {
    const seen: string[] = [];
    const { t, logs } = setup({
      hooks: {
        PreToolUse: [
          (input) => ({ action: "continue", modifiedInput: { ...input.toolInput, checked: true } }),
          async () => {
            throw new Error("monitoring is down");
          },
          recorder(seen),
        ],
      },
    });
    const c = call("echo_text", { text: "hi" });
    assert.deepEqual(await t.beforeTool(c), {
      action: "modify",
      call: { ...c, arguments: { text: "hi", checked: true } },
    });
    assert.deepEqual(seen, ['PreToolUse echo_text {"text":"hi","checked":true}']);
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /PreToolUse callback 2 failed, taken as continue: Error: monitoring is down/);
  });

  it("an answer that is no outcome, or a modifiedInput that is no object, is logged and taken as continue", async () => {
    const { t, logs } = setup({
      hooks: {
        PreToolUse: [
          (() => undefined) as never,
          (() => ({ action: "continue", modifiedInput: "rm -rf /" })) as never,
          () => ({ action: "continue" }),
        ],
      },
    });
    assert.deepEqual(await t.beforeTool(call("echo_text", {})), { action: "continue" });
    assert.equal(logs.length, 2);
    assert.match(logs[0]!, /PreToolUse callback 1 answered undefined, not continue, skip or abort/);
    assert.match(logs[1]!, /PreToolUse callback 2: modifiedInput is not an object of arguments, ignored/);
  });
});

describe("an outcome's modified input or output", () => {
  it("that the event has no use for is ignored and logged", async () => {
    const { t, logs } = setup({
      hooks: {
        PreToolUse: [() => ({ action: "continue", modifiedOutput: "x" }) as never],
        PermissionRequest: [() => ({ action: "continue", modifiedInput: { command: "rm" } }) as never],
      },
    });
    const c = call("echo_text", { text: "hi" });
    assert.deepEqual(await t.beforeTool(c), { action: "continue" });
    assert.deepEqual(await t.approveTool(approval("shell")), { approved: true });
    assert.deepEqual(logs, [
      "hookwire: PreToolUse callback 1 answered modifiedOutput, which PreToolUse has no use for; ignored",
      "hookwire: PermissionRequest callback 1 answered modifiedInput, which PermissionRequest has no use for; ignored",
    ]);
  });
});

describe("PostToolUse and PostToolUseFailure", () => {
  const ok = { for_llm: "Ship on Friday.", for_user: "", is_error: false };
  const failed = { for_llm: "open missing.txt: no such file", is_error: true };

  it("PostToolUse fires on a result that is not an error, with the tool's input and output", async () => {
    const inputs: HookInput[] = [];
    const keep = (input: HookInput) => (inputs.push(input), { action: "continue" as const });
    const { t } = setup({ hooks: { PostToolUse: [keep], PostToolUseFailure: [keep] } });
    assert.deepEqual(await t.afterTool(ran("read_file", ok)), { action: "continue" });
    assert.deepEqual(inputs, [
      {
        event: "PostToolUse",
        sessionId: "s1",
        toolName: "read_file",
        toolInput: { path: "notes.txt" },
        toolOutput: ok,
      },
    ]);
  });

  it("PostToolUseFailure fires on an error result, with its text as error.message", async () => {
    const inputs: HookInput[] = [];
    const keep = (input: HookInput) => (inputs.push(input), { action: "continue" as const });
    const { t } = setup({ hooks: { PostToolUse: [keep], PostToolUseFailure: [keep] } });
    await t.afterTool(ran("read_file", failed));
    assert.equal(inputs.length, 1);
    const [input] = inputs;
    assert.equal(input?.event, "PostToolUseFailure");
    assert.ok(input?.event === "PostToolUseFailure" && input.error instanceof Error);
    assert.equal(input.error.message, "open missing.txt: no such file");
    assert.deepEqual(input.toolInput, { path: "notes.txt" });
  });

  it("modifiedOutput as text replaces for_llm, as a ToolResult the whole result; the next callback sees it", async () => {
    const seen: unknown[] = [];
    const { t } = setup({
      hooks: {
        PostToolUse: [
          (input) => ({ action: "continue", modifiedOutput: input.toolOutput.for_llm.replace("Friday", "Monday") }),
          (input) => (seen.push(input.toolOutput), { action: "continue" }),
        ],
        PostToolUseFailure: [
          () => ({
            action: "continue",
            modifiedOutput: { for_llm: "the file is not there; ask the user", is_error: true },
          }),
          (input) => (seen.push(input.error.message), { action: "continue" }),
        ],
      },
    });
    const r = ran("read_file", ok);
    assert.deepEqual(await t.afterTool(r), {
      action: "modify",
      result: { ...r, result: { ...ok, for_llm: "Ship on Monday." } },
    });
    const f = ran("read_file", failed);
    assert.deepEqual(await t.afterTool(f), {
      action: "modify",
      result: { ...f, result: { for_llm: "the file is not there; ask the user", is_error: true } },
    });
    assert.deepEqual(seen, [{ ...ok, for_llm: "Ship on Monday." }, "the file is not there; ask the user"]);
  });

  it("abort ends the turn, and stops the rest", async () => {
    const seen: string[] = [];
    const { t } = setup({
      hooks: { PostToolUseFailure: [() => ({ action: "abort", reason: "cannot go on" }), recorder(seen)] },
    });
    assert.deepEqual(await t.afterTool(ran("read_file", failed)), { action: "abort_turn", reason: "cannot go on" });
    assert.deepEqual(seen, []);
  });
});

describe("TaskCompleted and SessionEnd", () => {
  it("TaskCompleted fires on agent.turn.end, and on a legacy turn_end, with the payload", async () => {
    const inputs: HookInput[] = [];
    const { t } = setup({ hooks: { TaskCompleted: [(input) => (inputs.push(input), { action: "continue" })] } });
    await t.event(event("agent.turn.start", "s1"));
    await t.event(event("agent.turn.end", "s1", { Status: "done", Iterations: 2 }));
    await t.event({ Kind: "turn_end", Meta: { SessionKey: "s2" }, Payload: { Status: "aborted" } });
    assert.deepEqual(inputs, [
      { event: "TaskCompleted", sessionId: "s1", payload: { Status: "done", Iterations: 2 } },
      { event: "TaskCompleted", sessionId: "s2", payload: { Status: "aborted" } },
    ]);
  });

  it("SessionEnd fires on agent.session.end, once, and at close for every session still open, in the order they started", async () => {
    const seen: string[] = [];
    const { t } = setup({ hooks: { SessionEnd: [recorder(seen)], PreToolUse: [() => ({ action: "continue" })] } });
    await t.beforeTool(call("a", {}, "s1"));
    await t.event(event("agent.session.start", "s2"));
    await t.beforeTool(call("b", {}, "s3"));
    await t.event(event("agent.session.end", "s2"));
    await t.event(event("agent.session.end", "s2"));
    await t.event(event("agent.session.end", "never-seen"));
    assert.deepEqual(seen, ["SessionEnd s2"]);
    await t.close();
    await t.close();
    assert.deepEqual(seen, ["SessionEnd s2", "SessionEnd s1", "SessionEnd s3"]);
  });

  it("handles notifications in the order they came: the turn's TaskCompleted before its session's end", async () => {
    const seen: string[] = [];
    const { t } = setup({
      hooks: {
        TaskCompleted: [
          async (input) => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            seen.push(`TaskCompleted ${input.sessionId}`);
            return { action: "continue" };
          },
        ],
        SessionEnd: [recorder(seen)],
      },
    });
    await Promise.all([t.event(event("agent.turn.end", "s1")), t.event(event("agent.session.end", "s1"))]);
    assert.deepEqual(seen, ["TaskCompleted s1", "SessionEnd s1"]);
  });

  it("a SessionEnd callback that throws does not stop the next one", async () => {
    const seen: string[] = [];
    const { t, logs } = setup({
      hooks: {
        SessionEnd: [
          () => {
            throw new Error("disk full");
          },
          recorder(seen),
        ],
      },
    });
    await t.event(event("agent.session.start", "s1"));
    await t.close();
    assert.deepEqual(seen, ["SessionEnd s1"]);
    assert.match(logs.join("\n"), /SessionEnd callback 1 failed, taken as continue: Error: disk full/);
  });
});

// Type-level checks: tsc compiles this file; each @ts-expect-error line must
// fail to compile, or the unused directive fails the build.
export function typeChecks(): void {
  lifecycle("types", {
    hooks: {
      // @ts-expect-error SessionStart can only continue
      SessionStart: [async () => ({ action: "abort" })],
    },
  });
  lifecycle("types", {
    hooks: {
      // @ts-expect-error PostToolUse has no skip: the tool has run
      PostToolUse: [async () => ({ action: "skip" })],
    },
  });
  lifecycle("types", {
    hooks: {
      // @ts-expect-error PreToolUse changes the input, not the output
      PreToolUse: [async () => ({ action: "continue", modifiedOutput: "x" })],
    },
  });
  lifecycle("types", {
    hooks: {
      // @ts-expect-error the prompt's modifiedInput is its new text
      UserPromptSubmit: [() => ({ action: "continue", modifiedInput: { text: "x" } })],
    },
  });
  lifecycle("types", {
    hooks: {
      // @ts-expect-error a skip carries no modifiedInput
      PreToolUse: [() => ({ action: "skip", modifiedInput: {} })],
    },
  });
  lifecycle("types", {
    hooks: {
      // @ts-expect-error the input of PostToolUseFailure has the error, not the output
      PostToolUseFailure: [(input) => ({ action: "continue", modifiedOutput: input.toolOutput })],
    },
  });
  lifecycle("types", {
    hooks: {
      // @ts-expect-error SessionEnd has no toolName
      SessionEnd: [(input) => ({ action: "continue", reason: input.toolName })],
    },
  });
  lifecycle("types", {
    // @ts-expect-error a deny needs its message
    canUseTool: () => ({ behavior: "deny" }),
  });
  lifecycle("types", {
    // @ts-expect-error allow, deny or ask
    canUseTool: () => ({ behavior: "continue" }),
  });
  // The right ones compile.
  lifecycle("types", {
    hooks: {
      SessionStart: [() => ({ action: "continue" })],
      UserPromptSubmit: [(i) => ({ action: "continue", modifiedInput: i.message.trim() }), () => ({ action: "skip" })],
      PreToolUse: [
        async (i) => ({ action: "continue", modifiedInput: { ...i.toolInput, n: 1 } }),
        () => ({ action: "abort", reason: "x" }),
      ],
      PostToolUse: [(i) => ({ action: "continue", modifiedOutput: { ...i.toolOutput, for_llm: "y" } })],
      PostToolUseFailure: [(i) => ({ action: "continue", modifiedOutput: i.error.message })],
      PermissionRequest: [
        (i) => (i.toolKind === "execute" ? { action: "skip", reason: "no" } : { action: "continue" }),
      ],
      TaskCompleted: [(i) => (void i.payload, { action: "continue" })],
      SessionEnd: [async () => ({ action: "continue" })],
    },
    canUseTool: async (_, input, { affectedPaths }) =>
      affectedPaths.length > 0 ? { behavior: "allow", updatedInput: { ...input, dry_run: true } } : { behavior: "ask" },
  });
}
