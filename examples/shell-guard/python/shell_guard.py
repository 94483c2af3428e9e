"""Blocks dangerous shell commands under every agent.

It looks only at the canonical kind of a call: the same file blocks
``rm -rf`` in Claude Code's Bash, Gemini CLI's run_shell_command,
PicoClaw's exec and the shell tool of ``hookwire run``.
"""

from __future__ import annotations

import re

from hookwire import BeforeToolParams, BeforeToolReply, Hook, canonical_tool, deny

DANGEROUS = re.compile(r"rm\s+-rf|mkfs|dd\s+if=|>\s*/dev/")

hook = Hook("shell-guard")


@hook.before_tool
def guard(call: BeforeToolParams) -> BeforeToolReply:
    use = canonical_tool(call)
    command = use.get("command", "")
    if use["kind"] == "shell" and DANGEROUS.search(command):
        return deny(f"dangerous command blocked: {command}")
    return None


if __name__ == "__main__":
    hook.run()
