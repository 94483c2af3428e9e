"""One tool vocabulary: a tool call in words every agent shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ._protocol_gen import BeforeToolParams, CanonicalTool
from ._results import Modify, modify
from ._tool_names_gen import KNOWN_TOOLS, MCP_PREFIXES

__all__ = ["canonical_tool", "rewrite"]


def canonical_tool(call: Mapping[str, Any]) -> CanonicalTool:
    """Say what a tool call is, whatever the agent names the tool.

    call is the params of a tool call a hook is asked about: before it
    runs, for its approval or after it ran. The result has the kind (shell, read, write, edit,
    list, search, fetch, web_search, agent, mcp, other) and, where the tool
    has them, its command, path, url or search pattern: the call's
    ``canonical`` member when the host sent one (the bridge does), else
    what the tool's name and arguments say of it (schema/tools.json), so
    that ``canonical_tool(call).get("command")`` is the command line of
    Claude Code's Bash, Gemini CLI's run_shell_command and PicoClaw's exec.
    """
    sent = call.get("canonical")
    if isinstance(sent, dict):
        return sent  # type: ignore[return-value]
    tool = call.get("tool", "")
    for prefix in MCP_PREFIXES:
        if tool.startswith(prefix):
            return {"kind": "mcp", "server": tool[len(prefix) :].split("__", 1)[0]}
    known = KNOWN_TOOLS.get(tool)
    if known is None:
        return {"kind": "other"}
    kind, members = known
    result: dict[str, Any] = {"kind": kind}
    arguments = call.get("arguments") or {}
    for member, names in members.items():
        for name in names:
            value = arguments.get(name)
            if isinstance(value, str):
                result[member] = value
                break
    return result  # type: ignore[return-value]


def rewrite(
    call: BeforeToolParams,
    *,
    command: str | None = None,
    path: str | None = None,
    url: str | None = None,
    pattern: str | None = None,
) -> Modify[BeforeToolParams]:
    """Change what a call does, whatever the agent names the tool.

    The one way to rewrite a call: a modify of call with the command, path,
    url or search pattern given written in the argument that holds it for
    this tool (schema/tools.json), the command of Claude Code's Bash,
    Gemini CLI's run_shell_command and PicoClaw's exec alike; the call's
    ``canonical`` member, when the host sent one, says the same.
    ``rewrite(call, command="ls -la")``. A tool with no known argument for a
    member, an MCP tool say, raises ValueError naming the member.
    """
    arguments = dict(call.get("arguments") or {})
    canonical = dict(call["canonical"]) if "canonical" in call else None
    changes = {"command": command, "path": path, "url": url, "pattern": pattern}
    for member, value in changes.items():
        if value is None:
            continue
        name = _argument_of(call.get("tool", ""), member, arguments)
        if name is None:
            raise ValueError(
                f"cannot rewrite the {member} of tool {call.get('tool')!r}: "
                "no argument of it is known to hold one (schema/tools.json)"
            )
        arguments[name] = value
        if canonical is not None:
            canonical[member] = value
    new = cast("BeforeToolParams", {**call, "arguments": arguments})
    if canonical is not None:
        new["canonical"] = cast("CanonicalTool", canonical)
    return modify(new)


def _argument_of(tool: str, member: str, arguments: Mapping[str, Any]) -> str | None:
    """The argument of tool that holds a canonical member: of the names the
    agents give it, the one the call has, else the first."""
    known = KNOWN_TOOLS.get(tool)
    names = known[1].get(member, ()) if known else ()
    if not names:
        return None
    return next((name for name in names if isinstance(arguments.get(name), str)), names[0])
