"""One tool vocabulary: a tool call in words every agent shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._protocol import CanonicalTool
from ._tool_names import KNOWN_TOOLS, MCP_PREFIXES


def canonical_tool(call: Mapping[str, Any]) -> CanonicalTool:
    """Say what a tool call is, whatever the agent names the tool.

    call is the params of hook.before_tool, hook.approve_tool or
    hook.after_tool. The result has the kind (shell, read, write, edit,
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
