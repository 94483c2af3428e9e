"""The Blade Agent SDK's dangerous-command blocker, on the lifecycle layer.

The seed's PreToolUse callback as it is: a shell command that matches one
of its patterns aborts the turn, with the command in the reason. Run it as
a hook: ``python3 dangerous_commands.py`` (hooks.json does).
"""

from __future__ import annotations

import re

from hookwire import HookEvent, HookOutput, LifecycleHook, PreToolUseInput

DANGEROUS_PATTERNS = [
    re.compile(p) for p in (r"rm\s+-[a-zA-Z]*[rR]", r"mkfs", r"dd\s+if=", r">\s*/dev/")
]

# The seed's agent and Claude Code call their shell tool Bash; PicoClaw calls
# it exec, Gemini CLI and Qwen Code run_shell_command, Copilot CLI bash,
# Factory Droid Execute, Cursor Shell, OpenHands terminal, Mistral Vibe
# file_system.bash, Cline run_commands (the bridge gives its commands in
# "command" too, one line each); the reference runtime's demo tool is shell.
SHELL_TOOLS = {
    "Bash",
    "exec",
    "run_shell_command",
    "shell",
    "bash",
    "Execute",
    "Shell",
    "terminal",
    "file_system.bash",
    "run_commands",
}


def block_dangerous(input: PreToolUseInput) -> HookOutput:
    if input.tool_name in SHELL_TOOLS:
        cmd = str(input.tool_input.get("command", ""))
        for pattern in DANGEROUS_PATTERNS:
            if pattern.search(cmd):
                return {"action": "abort", "reason": f"dangerous command blocked: {cmd}"}
    return {"action": "continue"}


hook = LifecycleHook("dangerous-commands", hooks={HookEvent.PreToolUse: [block_dangerous]})

if __name__ == "__main__":
    hook.run()
