// The audit log of the Blade Agent SDK's lifecycle hooks, ported: every
// tool call is recorded before it runs (time, tool, input), and the log is
// written as one JSON file when a session ends.

import { writeFileSync } from "node:fs";

import { HookEvent, lifecycle, type Hook, type JsonValue } from "hookwire";

/** One entry of the audit log. */
export interface AuditEntry {
  time: string;
  tool: string;
  input: JsonValue;
}

/**
 * The audit hook, writing to file. The log spans every session the hook
 * serves; each SessionEnd writes it whole, so that the file holds every
 * call audited so far.
 */
export function auditLog(file: string): Hook {
  const entries: AuditEntry[] = [];
  return lifecycle("lifecycle-audit-log", {
    hooks: {
      [HookEvent.PreToolUse]: [
        async (input) => {
          entries.push({ time: new Date().toISOString(), tool: input.toolName, input: input.toolInput });
          return { action: "continue" };
        },
      ],
      [HookEvent.SessionEnd]: [
        async () => {
          writeFileSync(file, JSON.stringify(entries, null, 2));
          return { action: "continue" };
        },
      ],
    },
  });
}
