"""A Python hook under the reference runtime: the hookwire CLI plays an agent turn."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import HOOKS, TIMEOUT

HERE = Path(__file__).parent
SRC = HERE.parent / "src"


def run_turn(cli: Path, tmp_path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """Play testdata/scenario.json with tests/hooks/agent.py; the transcript, the trace, stderr."""
    hooks = tmp_path / "hooks.json"
    hooks.write_text(
        json.dumps(
            {
                "hooks": {
                    "enabled": True,
                    "processes": {
                        "py": {
                            "enabled": True,
                            "command": [sys.executable, str(HOOKS / "agent.py")],
                            "env": {"PYTHONPATH": str(SRC)},
                            "intercept": [
                                "before_llm",
                                "after_llm",
                                "before_tool",
                                "approve_tool",
                                "after_tool",
                            ],
                            "observe": ["agent.tool.*"],
                        }
                    },
                }
            }
        )
    )
    trace = tmp_path / "trace.jsonl"
    scenario = HERE / "testdata" / "scenario.json"
    run = subprocess.run(
        [str(cli), "run", "--hooks", str(hooks), "--json", "--trace", str(trace), str(scenario)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr
    transcript = [json.loads(line) for line in run.stdout.splitlines()]
    return transcript, [json.loads(line) for line in trace.read_text().splitlines()], run.stderr


def test_every_decision_of_a_python_hook_takes_effect_in_the_agent_turn(
    hookwire_cli: Path, tmp_path: Path
) -> None:
    transcript, _, stderr = run_turn(hookwire_cli, tmp_path)
    hooks = [
        (r["method"], r.get("tool"), r.get("action", r.get("approved")))
        for r in transcript
        if r["type"] == "hook"
    ]
    assert hooks == [
        ("hook.before_llm", None, "modify"),
        ("hook.after_llm", None, "continue"),
        ("hook.before_tool", "echo_text", "modify"),
        ("hook.approve_tool", "echo_text", True),
        ("hook.after_tool", "echo_text", "modify"),
        ("hook.before_tool", "shout", "respond"),
        ("hook.before_tool", "read_file", "deny_tool"),
        ("hook.before_llm", None, "modify"),
        ("hook.after_llm", None, "continue"),
    ]
    requests = [r for r in transcript if r["type"] == "llm_request"]
    assert [r["tools"] for r in requests] == [["echo_text", "read_file", "shout"]] * 2
    tools = {r["tool"]: r for r in transcript if r["type"] == "tool"}
    assert tools["echo_text"]["arguments"] == {"text": "hi!"}
    assert tools["echo_text"]["result"] == {"for_llm": "hi! (checked)", "is_error": False}
    assert (tools["shout"]["outcome"], tools["shout"]["by"]) == ("answered", "py")
    assert tools["shout"]["result"] == {"for_llm": "HEY", "is_error": False}
    assert (tools["read_file"]["outcome"], tools["read_file"]["reason"]) == (
        "denied",
        "no reading today",
    )
    assert [r["status"] for r in transcript if r["type"] == "turn_end"] == ["done"]
    for kind in ("agent.tool.exec_start", "agent.tool.exec_end", "agent.tool.exec_skipped"):
        assert f"observed {kind}" in stderr


def test_every_line_the_hook_wrote_is_valid_against_the_schema(
    hookwire_cli: Path, tmp_path: Path
) -> None:
    _, trace, _ = run_turn(hookwire_cli, tmp_path)
    replies = {r["message"]["id"]: r["message"] for r in trace if r["dir"] == "recv"}
    sent = [r["message"] for r in trace if r["dir"] == "send"]
    # Each request followed by its reply, so the validator knows the method
    # each reply answers. (The trace may log a fast reply before its request.)
    lines = []
    for message in sent:
        lines.append(message)
        if "id" in message:
            lines.append(replies.pop(message["id"]))
    assert replies == {}
    assert len(lines) > len(sent)
    wire = tmp_path / "wire.jsonl"
    wire.write_text("".join(json.dumps(m) + "\n" for m in lines))
    check = subprocess.run(
        [str(hookwire_cli), "validate", str(wire)], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert check.returncode == 0, check.stdout + check.stderr
