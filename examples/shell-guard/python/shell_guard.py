"""Keeps a shell in check under every agent.

It looks only at the canonical kind of a call, never at a tool's name: the
same file blocks ``rm -rf`` in Claude Code's Bash, Gemini CLI's
run_shell_command, PicoClaw's exec and the shell tool of ``hookwire run``,
and masks tokens in what those tools print, whatever shape each agent gives
their output.
"""

from __future__ import annotations

import re

from hookwire import (
    AfterToolParams,
    AfterToolReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    canonical_tool,
    deny,
    modify,
)

DANGEROUS = re.compile(r"rm\s+-[a-zA-Z]*[rR]|mkfs|dd\s+if=|>\s*/dev/")
# NAME=value where the name ends in TOKEN, SECRET, PASSWORD or KEY.
SECRET = re.compile(r"\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY))=\S+")

hook = Hook("shell-guard")


@hook.before_tool
def guard(call: BeforeToolParams) -> BeforeToolReply:
    use = canonical_tool(call)
    command = use.get("command", "")
    if use["kind"] == "shell" and DANGEROUS.search(command):
        return deny(f"dangerous command blocked: {command}")
    return None


@hook.after_tool
def mask(ran: AfterToolParams) -> AfterToolReply:
    result = ran.get("result")
    if canonical_tool(ran)["kind"] != "shell" or result is None:
        return None
    masked = SECRET.sub(r"\1=***", result["for_llm"])
    if masked == result["for_llm"]:
        return None
    return modify(ran, result={**result, "for_llm": masked})


if __name__ == "__main__":
    hook.run()
