// The lifecycle layer in-process, PermissionRequest and canUseTool: what the
// callbacks see of an approval, and what their outcomes and canUseTool's
// verdicts become on the wire.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import type { HookInput, LifecycleOptions } from "../src/index.js";
import { approval, setup } from "./helpers/lifecycle.js";

describe("PermissionRequest and canUseTool", () => {
  it("with continue and no canUseTool, approves; hands the callback the host's tool kind and paths", async () => {
    const inputs: HookInput[] = [];
    const { t } = setup({ hooks: { PermissionRequest: [(input) => (inputs.push(input), { action: "continue" })] } });
    const req = approval("read_file", {
      arguments: { path: "a.txt" },
      tool_kind: "readonly",
      affected_paths: ["/w/a.txt"],
    });
    assert.deepEqual(await t.approveTool(req), { approved: true });
    assert.deepEqual(await t.approveTool(approval("mystery")), { approved: true });
    assert.deepEqual(inputs, [
      {
        event: "PermissionRequest",
        sessionId: "s1",
        toolName: "read_file",
        toolInput: { path: "a.txt" },
        toolKind: "readonly",
        affectedPaths: ["/w/a.txt"],
      },
      {
        event: "PermissionRequest",
        sessionId: "s1",
        toolName: "mystery",
        toolInput: { command: "ls" },
        affectedPaths: [],
      },
    ]);
  });

  it("skip and abort deny with the reason, and canUseTool is not asked", async () => {
    let asked = 0;
    const { t } = setup({
      hooks: {
        PermissionRequest: [
          (input) =>
            input.toolName === "shell" ? { action: "skip", reason: "no shell" } : { action: "abort", reason: "stop" },
        ],
      },
      canUseTool: () => (asked++, { behavior: "allow" }),
    });
    assert.deepEqual(await t.approveTool(approval("shell")), { approved: false, reason: "no shell" });
    assert.deepEqual(await t.approveTool(approval("write_file")), { approved: false, reason: "stop" });
    assert.equal(asked, 0);
  });

  it("canUseTool decides what PermissionRequest lets through: allow, deny, ask", async () => {
    const asked: unknown[] = [];
    const { t } = setup({
      hooks: { PermissionRequest: [() => ({ action: "continue" })] },
      canUseTool: (toolName, input, options) => {
        asked.push([toolName, input, options.toolKind, options.affectedPaths, options.signal instanceof AbortSignal]);
        if (options.toolKind === "readonly") return { behavior: "allow" };
        if (toolName === "shell") return { behavior: "deny", message: "user refused", interrupt: true };
        return { behavior: "ask" };
      },
    });
    assert.deepEqual(await t.approveTool(approval("read_file", { tool_kind: "readonly", affected_paths: ["/w/a"] })), {
      approved: true,
    });
    assert.deepEqual(await t.approveTool(approval("shell", { tool_kind: "execute" })), {
      approved: false,
      reason: "user refused",
    });
    assert.deepEqual(await t.approveTool(approval("write_file")), { approved: false, abstain: true });
    assert.deepEqual(asked, [
      ["read_file", { command: "ls" }, "readonly", ["/w/a"], true],
      ["shell", { command: "ls" }, "execute", [], true],
      ["write_file", { command: "ls" }, undefined, [], true],
    ]);
  });

  it("allow with updatedInput approves with the arguments only when the host announced approve_tool.arguments", async () => {
    const canUseTool: LifecycleOptions["canUseTool"] = (_, input) => ({
      behavior: "allow",
      updatedInput: { ...input, dry_run: true },
    });
    const plain = setup({ canUseTool }).t;
    await plain.hello({ extensions: ["approve_tool.abstain"] });
    assert.deepEqual(await plain.approveTool(approval("shell")), {
      approved: false,
      reason:
        "canUseTool allowed shell with updated input, which this host cannot apply (it does not announce approve_tool.arguments)",
    });
    const able = setup({ canUseTool }).t;
    await able.hello({ extensions: ["approve_tool.abstain", "approve_tool.arguments"] });
    assert.deepEqual(await able.approveTool(approval("shell")), {
      approved: true,
      arguments: { command: "ls", dry_run: true },
    });
  });

  it("a canUseTool that throws approves nothing: it is logged and taken as ask", async () => {
    const { t, logs } = setup({
      canUseTool: () => {
        throw new Error("dialog crashed");
      },
    });
    assert.deepEqual(await t.approveTool(approval("shell")), { approved: false, abstain: true });
    assert.match(logs.join("\n"), /canUseTool failed, taken as ask: Error: dialog crashed/);
  });

  it("a PermissionRequest callback that throws is taken as continue", async () => {
    const { t, logs } = setup({
      hooks: {
        PermissionRequest: [
          () => {
            throw new Error("boom");
          },
        ],
      },
    });
    assert.deepEqual(await t.approveTool(approval("shell")), { approved: true });
    assert.equal(logs.length, 1);
  });
});
