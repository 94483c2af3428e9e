"""A gate for shell commands: dangerous ones are denied with a reason, the rest approved.

It answers hook.approve_tool, not hook.before_tool: see ../README.md for why.
Run it as a hook: ``python3 approval_gate.py`` (hooks.json does).
"""

from __future__ import annotations

import re
from typing import Callable

from hookwire import ApproveToolParams, ApproveToolReply, Hook

# The patterns of the Blade SDK document's dangerous-command example, made
# a little harder to dodge: rm's flags in any order and form, mkfs.ext4 as
# well as mkfs, dd's operands in any order.
RM_FLAGS = re.compile(r"\brm((?:\s+-\S+)+)")


def rm_rf(command: str) -> bool:
    for flags in RM_FLAGS.findall(command):
        words = flags.split()
        short = "".join(w[1:] for w in words if not w.startswith("--"))
        recursive = "r" in short or "R" in short or "--recursive" in words
        if recursive and ("f" in short or "--force" in words):
            return True
    return False


DANGEROUS: list[tuple[str, Callable[[str], object]]] = [
    ("a recursive forced delete (rm -rf)", rm_rf),
    ("formatting a file system (mkfs)", re.compile(r"\bmkfs\b").search),
    ("a raw copy with dd (dd if=)", re.compile(r"\bdd\b.*\bif=").search),
    # /dev/null, /dev/stdout and /dev/stderr only throw output away or show it.
    ("a write to a device (> /dev/...)", re.compile(r">\s*/dev/(?!(null|stdout|stderr)\b)").search),
]

hook = Hook("approval-gate")


def danger(command: str) -> str | None:
    """What is dangerous about command, or None."""
    for what, test in DANGEROUS:
        if test(command):
            return what
    return None


@hook.approve_tool
def gate(call: ApproveToolParams) -> ApproveToolReply:
    # Any tool with a command argument runs a shell: shell, exec, bash...
    command = call.get("arguments", {}).get("command")
    if isinstance(command, str):
        what = danger(command)
        if what is not None:
            return {"approved": False, "reason": f"{what} is not allowed: {command}"}
    return True


if __name__ == "__main__":
    hook.run()
