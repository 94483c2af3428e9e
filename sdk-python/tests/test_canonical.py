"""canonical_tool reads the canonical member, or works it out from every agent's tool names."""

from __future__ import annotations

from typing import Any

import pytest

from hookwire import canonical_tool


@pytest.mark.parametrize(
    ("call", "want"),
    [
        ({"tool": "Bash", "arguments": {"command": "ls"}}, {"kind": "shell", "command": "ls"}),
        (
            {"tool": "run_shell_command", "arguments": {"command": "ls"}},
            {"kind": "shell", "command": "ls"},
        ),
        ({"tool": "exec", "arguments": {"command": "ls"}}, {"kind": "shell", "command": "ls"}),
        ({"tool": "read_file", "arguments": {"path": "a.txt"}}, {"kind": "read", "path": "a.txt"}),
        (
            {"tool": "read_file", "arguments": {"file_path": "b.txt"}},
            {"kind": "read", "path": "b.txt"},
        ),
        (
            {"tool": "mcp__github__get_issue", "arguments": {"number": 7}},
            {"kind": "mcp", "server": "github"},
        ),
        ({"tool": "Bash"}, {"kind": "shell"}),
        ({"tool": "no_such_tool"}, {"kind": "other"}),
        (
            {"tool": "no_such_tool", "canonical": {"kind": "shell", "command": "rm -rf /"}},
            {"kind": "shell", "command": "rm -rf /"},
        ),
    ],
)
def test_canonical_tool_under_every_agents_names(
    call: dict[str, Any], want: dict[str, str]
) -> None:
    assert canonical_tool(call) == want
