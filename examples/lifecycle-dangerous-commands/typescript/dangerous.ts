// The dangerous-command blocker of the Blade Agent SDK's lifecycle hooks,
// on the TypeScript SDK's lifecycle layer: a shell command that matches one
// of the seed's patterns aborts the turn, with the command in the reason.

import { HookEvent, lifecycle, type Hook } from "hookwire";

const DANGEROUS_PATTERNS = [/rm\s+-[a-zA-Z]*[rR]/, /mkfs/, /dd\s+if=/, />\s*\/dev\//];

// The seed's agent and Claude Code call their shell tool Bash; PicoClaw calls
// it exec, Gemini CLI and Qwen Code run_shell_command, Copilot CLI bash,
// Factory Droid Execute, Cursor Shell, OpenHands terminal; the reference runtime's demo tool is
// shell.
const SHELL_TOOLS = new Set(["Bash", "exec", "run_shell_command", "shell", "bash", "Execute", "Shell", "terminal"]);

/** The hook, with the seed's PreToolUse callback. */
export function dangerousCommands(): Hook {
  return lifecycle("dangerous-commands", {
    hooks: {
      [HookEvent.PreToolUse]: [
        async (input) => {
          if (SHELL_TOOLS.has(input.toolName)) {
            const cmd = String((input.toolInput as Record<string, unknown>)["command"] ?? "");
            for (const pattern of DANGEROUS_PATTERNS) {
              if (pattern.test(cmd)) return { action: "abort", reason: `dangerous command blocked: ${cmd}` };
            }
          }
          return { action: "continue" };
        },
      ],
    },
  });
}
