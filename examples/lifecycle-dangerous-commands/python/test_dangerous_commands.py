"""The dangerous-command blocker: in-process, then its scenario under hookwire run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hookwire import BeforeToolParams

from dangerous_commands import hook

HERE = Path(__file__).parent


def shell(command: str, tool: str = "shell") -> BeforeToolParams:
    return {"meta": {"SessionKey": "ops"}, "tool": tool, "arguments": {"command": command}}


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build",
        "cd /tmp && rm  -rf *",
        "mkfs /dev/sdb",
        "mkfs.ext4 /dev/sdb1",
        "dd if=/dev/zero of=disk.img",
        "echo x > /dev/sda",
        "cat a >/dev/null",  # the seed's patterns, as they are
    ],
)
def test_a_dangerous_command_aborts_the_turn_with_the_command_in_the_reason(command: str) -> None:
    assert hook.test_client().before_tool(shell(command)) == {
        "action": "abort_turn",
        "reason": f"dangerous command blocked: {command}",
    }


@pytest.mark.parametrize("tool", ["Bash", "exec", "shell"])
def test_every_shell_tool_is_checked(tool: str) -> None:
    result = hook.test_client().before_tool(shell("rm -rf /", tool))
    assert result["action"] == "abort_turn"


@pytest.mark.parametrize(
    "call",
    [
        shell("ls build"),
        shell("rm build/old.log"),
        shell("du -sh build"),
        {"tool": "echo_text", "arguments": {"text": "rm -rf build"}},
        {"tool": "shell", "arguments": {}},
    ],
)
def test_other_calls_go_through_unchanged(call: BeforeToolParams) -> None:
    assert hook.test_client().before_tool(call) == {"action": "continue"}


def test_the_hook_asks_only_for_tool_calls() -> None:
    assert hook.test_client().hello()["modes"] == ["tool"]


@pytest.fixture(scope="session")
def hookwire_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference runtime's CLI, built once per test session from this checkout."""
    binary = tmp_path_factory.mktemp("bin") / "hookwire"
    core = HERE.parents[2] / "core"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/hookwire"], cwd=core, check=True)
    return binary


def play(hookwire_cli: Path, scenario: Path) -> subprocess.CompletedProcess[str]:
    """The scenario under the runtime with this hook, as a JSON transcript."""
    run = subprocess.run(
        [str(hookwire_cli), "run", "--json", "--hooks", str(HERE / "hooks.json"), str(scenario)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run


def test_under_the_runtime_each_dangerous_command_ends_its_turn_and_the_rest_run(
    hookwire_cli: Path,
) -> None:
    run = play(hookwire_cli, HERE / "scenario.json")
    records: list[dict[str, Any]] = [json.loads(line) for line in run.stdout.splitlines()]
    ran = [(r["tool"], r["arguments"]) for r in records if r["type"] == "tool"]
    assert ran == [
        ("shell", {"command": "ls build"}),
        ("echo_text", {"text": "next: rm -rf build"}),
        ("shell", {"command": "du -sh build"}),
    ]
    assert all(r["outcome"] == "ran" for r in records if r["type"] == "tool")
    ends = [(r["status"], r.get("by"), r.get("reason")) for r in records if r["type"] == "turn_end"]
    assert ends == [
        ("aborted", "dangerous_commands", "dangerous command blocked: rm  -rf build"),
        ("aborted", "dangerous_commands", "dangerous command blocked: mkfs.ext4 /dev/sdb"),
        ("aborted", "dangerous_commands", "dangerous command blocked: dd if=/dev/sda of=disk.img"),
        ("aborted", "dangerous_commands", "dangerous command blocked: cat zeros.bin > /dev/sda"),
        ("done", None, None),
    ]


def test_under_the_runtime_a_dangerous_command_nested_1200_deep_still_ends_its_turn(
    hookwire_cli: Path, tmp_path: Path
) -> None:
    # The LLM writes the arguments: deep nesting must not get a call past the
    # guard. Written by hand: json.dumps does not nest that deep either.
    nested = "[" * 1_200 + "]" * 1_200
    call = '{"name":"shell","arguments":{"command":"rm -rf /","nested":' + nested + "}}"
    scenario = (
        '{"tools":["shell"],"turns":[{"prompt":"Clean up.","replies":[{"tool_calls":['
        + call
        + "]}]}]}"
    )
    (tmp_path / "scenario.json").write_text(scenario)
    run = play(hookwire_cli, tmp_path / "scenario.json")
    # The records that carry the arguments nest too deep for json.loads.
    kinds = [line[: line.find(",")] for line in run.stdout.splitlines()]
    assert '{"type":"tool"' not in kinds, run.stdout[:2000]
    records = [json.loads(line) for line in run.stdout.splitlines() if '"turn_end"' in line[:20]]
    ends = [(r["status"], r.get("by"), r.get("reason")) for r in records if r["type"] == "turn_end"]
    assert ends == [("aborted", "dangerous_commands", "dangerous command blocked: rm -rf /")]
