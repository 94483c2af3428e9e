// One tool vocabulary: a tool call in words every agent shares.

import type { CanonicalTool } from "./protocol.gen.js";
import { knownTools, mcpPrefixes } from "./tool-names.gen.js";

/** The members of a tool call canonicalTool reads: those of before_tool, approve_tool and after_tool params. */
export interface ToolCallLike {
  tool: string;
  arguments?: { [key: string]: unknown };
  canonical?: CanonicalTool;
}

/**
 * Says what a tool call is, whatever the agent names the tool: its kind
 * (shell, read, write, edit, list, search, fetch, web_search, agent, mcp,
 * other) and, where the tool has them, its command, path, url or search
 * pattern. It is the call's `canonical` member when the host sent one (the
 * bridge does), else what the tool's name and arguments say of it
 * (schema/tools.json): `canonicalTool(call).command` is the command line
 * of Claude Code's Bash, Gemini CLI's run_shell_command and PicoClaw's exec.
 */
export function canonicalTool(call: ToolCallLike): CanonicalTool {
  if (call.canonical !== undefined) return call.canonical;
  const prefix = mcpPrefixes.find((p) => call.tool.startsWith(p));
  if (prefix !== undefined) return { kind: "mcp", server: call.tool.slice(prefix.length).split("__")[0]! };
  const known = Object.hasOwn(knownTools, call.tool) ? knownTools[call.tool] : undefined;
  if (known === undefined) return { kind: "other" };
  const args = call.arguments ?? {};
  const found: { [member: string]: string } = {};
  for (const [member, names] of Object.entries(known.args)) {
    const value = names.map((name) => args[name]).find((v) => typeof v === "string");
    if (typeof value === "string") found[member] = value;
  }
  return { ...found, kind: known.kind };
}
