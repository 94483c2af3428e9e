"""canonical_tool reads the canonical member, or works it out from every agent's tool names."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, cast

import pytest

from hookwire import BeforeToolParams, Modify, canonical_tool, rewrite

REWRITES = Path(__file__).resolve().parents[2] / "schema" / "testdata" / "rewrite" / "vectors.json"


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


@pytest.mark.parametrize(
    "vector", json.loads(REWRITES.read_text(encoding="utf-8")), ids=lambda v: str(v["note"])
)
def test_rewrite_vectors(vector: dict[str, Any]) -> None:
    """The one way to rewrite a call, as the Go and TypeScript SDKs do it with the same file."""
    call = cast("BeforeToolParams", vector["call"])
    received = copy.deepcopy(call)
    if "error" in vector:
        with pytest.raises(ValueError, match=vector["error"]):
            rewrite(call, **vector["change"])
    else:
        reply = rewrite(call, **vector["change"])
        assert isinstance(reply, Modify)
        assert reply.value == vector["want"]
    assert call == received, "rewrite changed the call it was given"
