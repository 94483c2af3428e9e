// An audit log: every runtime event the host sends becomes one JSON line,
// {time, kind, tool, arguments}, appended to the file AUDIT_LOG names
// (audit.jsonl in the working directory by default).

import { appendFileSync } from "node:fs";

import { Hook, type JsonValue, type RuntimeEvent } from "hookwire";

/** One line of the audit log; tool and arguments only for tool events. */
export interface AuditRecord {
  time: string;
  kind: string;
  tool?: string;
  arguments?: JsonValue;
}

export function record(event: RuntimeEvent): AuditRecord {
  const rec: AuditRecord = { time: event.time ?? new Date().toISOString(), kind: event.kind };
  // Tool events carry the tool in their payload, with PascalCase keys as PicoClaw writes them.
  const payload = event.payload;
  if (payload !== null && typeof payload === "object" && !Array.isArray(payload)) {
    if (typeof payload["Tool"] === "string") rec.tool = payload["Tool"];
    if (payload["Arguments"] !== undefined) rec.arguments = payload["Arguments"];
  }
  return rec;
}

export function auditLog(file: string): Hook {
  // appendFileSync, not a stream: each line is on disk before the next
  // event is handled, and nothing is lost when the host closes stdin.
  return new Hook("audit-log").on("*", (event) => appendFileSync(file, JSON.stringify(record(event)) + "\n"));
}
