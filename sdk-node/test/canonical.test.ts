// canonicalTool reads the canonical member, or works it out from every
// agent's tool names.

import assert from "node:assert/strict";
import { test } from "node:test";

import { canonicalTool, type ToolCallLike } from "../src/index.js";

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
