// One tool vocabulary: a tool call in words every agent shares.

import type { BeforeToolModify, BeforeToolParams, CanonicalTool, JsonValue } from "./protocol.gen.js";
import { modify } from "./results.js";
import { knownTools, mcpPrefixes } from "./tool-names.gen.js";

/** The members of a tool call canonicalTool reads: those a tool call's params have before it runs, at its approval and after it ran. */
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

/** The canonical members a {@link rewrite} may change. */
export type RewriteChange = Partial<Pick<CanonicalTool, "command" | "path" | "url" | "pattern">>;

/**
 * Changes what a call does, whatever the agent names the tool: the one way
 * to rewrite a call. It returns a modify of the call with the command,
 * path, url or search pattern given written in the argument that holds it
 * for this tool (schema/tools.json): the command of Claude Code's Bash,
 * Gemini CLI's run_shell_command and PicoClaw's exec alike; the call's
 * `canonical` member, when the host sent one, says the same.
 * `rewrite(call, { command: "ls -la" })`. A tool with no known argument for
 * a member, an MCP tool say, throws an error naming the member.
 */
export function rewrite(call: BeforeToolParams, change: RewriteChange): BeforeToolModify {
  const args: { [key: string]: JsonValue } = { ...call.arguments };
  const canonical = call.canonical === undefined ? undefined : { ...call.canonical };
  for (const member of ["command", "path", "url", "pattern"] as const) {
    const value = change[member];
    if (value === undefined) continue;
    const name = argumentOf(call.tool, member, args);
    if (name === undefined) {
      throw new Error(
        `cannot rewrite the ${member} of tool ${JSON.stringify(call.tool)}: no argument of it is known to hold one (schema/tools.json)`,
      );
    }
    args[name] = value;
    if (canonical !== undefined) canonical[member] = value;
  }
  return modify(call, canonical === undefined ? { arguments: args } : { arguments: args, canonical });
}

/** The argument of tool that holds a canonical member: of the names the agents give it, the one the call has, else the first. */
function argumentOf(tool: string, member: string, args: { readonly [key: string]: unknown }): string | undefined {
  const names = (Object.hasOwn(knownTools, tool) ? knownTools[tool] : undefined)?.args[member] ?? [];
  return names.find((name) => typeof args[name] === "string") ?? names[0];
}
