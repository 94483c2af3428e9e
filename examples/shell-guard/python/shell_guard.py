"""Keeps a shell in check under every agent.

It looks only at the canonical kind of a call, never at a tool's name: the
same file guards Claude Code's Bash, Gemini CLI's run_shell_command,
PicoClaw's exec and the shell tool of ``hookwire run``, and masks tokens in
what those tools print, whatever shape each agent gives their output.

It decides on the programs the shell would run, as hookwire.shell reads the
line, not on its text: ``rm --recursive x``, ``r\\m -rf x`` and
``sudo bash -c 'rm -rf x'`` are recursive deletes, ``echo 'rm -rf /'`` is
an echo. What the reader cannot know (``$RM -rf x``, ``curl x | sh``) is
refused: a guard that cannot read a command does not let it run.
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
from hookwire.shell import Command, read

# Devices a command may write to: they hold no one's data.
HARMLESS_DEVICES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty")
# NAME=value where the name ends in TOKEN, SECRET, PASSWORD or KEY.
SECRET = re.compile(r"\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY))=\S+")

hook = Hook("shell-guard")


def danger(c: Command) -> str | None:
    """What makes one command dangerous, or None."""
    if c.name == "rm":
        if c.has_flag("r", "recursive") or c.has_flag("R", "recursive"):
            return "a recursive delete"
        # has_flag skips what only the shell knows: "$FLAGS" may be -r.
        end = c.args.index("--") if "--" in c.args else len(c.args)
        if any(0 < i < end for i in c.dynamic):
            return "a delete whose options are known only when it runs"
    if c.name == "find" and "-delete" in c.args[1:]:
        return "a delete by find"
    if c.name.startswith("mkfs"):
        return "formatting a file system"
    if c.name == "dd" and any(a.startswith("of=/dev/") for a in c.args[1:]):
        return "a raw write to a device"
    for r in c.redirects:
        if ">" in r.op and device(r.target):
            return f"a write to the device {r.target}"
    return None


def device(target: str) -> bool:
    """Whether a redirect's target is a device that holds data."""
    if not target.startswith("/dev/") or target.startswith("/dev/fd/"):
        return False
    return target not in HARMLESS_DEVICES


def verdict(command: str) -> str | None:
    """Why the command must not run, or None to let it through."""
    reading = read(command)
    if reading.unknown:
        why = "; ".join(f"{u.reason} ({clip(u.text)})" for u in reading.unknown)
        return f"command refused, it cannot be read: {why}"
    for c in reading.commands:
        found = danger(c)
        if found:
            via = f", run by {c.via}" if c.via else ""
            return f"dangerous command blocked: {clip(' '.join(c.args))} ({found}{via})"
    return None


def clip(text: str) -> str:
    # A reason is read by a person and a model: a line of 1 MiB is neither's.
    return text if len(text) <= 300 else text[:300] + "..."


@hook.before_tool
def guard(call: BeforeToolParams) -> BeforeToolReply:
    use = canonical_tool(call)
    if use["kind"] != "shell":
        return None
    reason = verdict(use.get("command", ""))
    return deny(reason) if reason else None


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
