// canonicalTool reads the canonical member, or works it out from every
// agent's tool names.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { type BeforeToolParams, canonicalTool, type RewriteChange, rewrite, type ToolCallLike } from "../src/index.js";

test("canonicalTool under every agent's names", () => {
  const cases: [ToolCallLike, object][] = [
    [
      { tool: "Bash", arguments: { command: "ls" } },
      { kind: "shell", command: "ls" },
    ],
    [
      { tool: "run_shell_command", arguments: { command: "ls" } },
      { kind: "shell", command: "ls" },
    ],
    [
      { tool: "exec", arguments: { command: "ls" } },
      { kind: "shell", command: "ls" },
    ],
    [
      { tool: "read_file", arguments: { path: "a.txt" } },
      { kind: "read", path: "a.txt" },
    ],
    [
      { tool: "read_file", arguments: { file_path: "b.txt" } },
      { kind: "read", path: "b.txt" },
    ],
    [
      { tool: "mcp__github__get_issue", arguments: { number: 7 } },
      { kind: "mcp", server: "github" },
    ],
    [{ tool: "Bash" }, { kind: "shell" }],
    [{ tool: "no_such_tool" }, { kind: "other" }],
    [{ tool: "toString" }, { kind: "other" }], // not the table's prototype
    [
      { tool: "x", canonical: { kind: "shell", command: "rm -rf /" } },
      { kind: "shell", command: "rm -rf /" },
    ],
  ];
  for (const [call, want] of cases) assert.deepEqual(canonicalTool(call), want, call.tool);
});

interface RewriteVector {
  note: string;
  call: BeforeToolParams;
  change: RewriteChange;
  want?: BeforeToolParams;
  error?: string;
}

const rewrites: RewriteVector[] = JSON.parse(
  readFileSync(new URL("../../../schema/testdata/rewrite/vectors.json", import.meta.url), "utf8"),
);

// The one way to rewrite a call, as the Go and Python SDKs do it with the same file.
for (const v of rewrites) {
  test(`rewrite: ${v.note}`, () => {
    const received = structuredClone(v.call);
    if (v.error !== undefined) {
      assert.throws(() => rewrite(v.call, v.change), new RegExp(v.error));
    } else {
      const reply = rewrite(v.call, v.change);
      assert.deepEqual(JSON.parse(JSON.stringify(reply)), { action: "modify", call: v.want });
    }
    assert.deepEqual(v.call, received, "rewrite changed the call it was given");
  });
}
