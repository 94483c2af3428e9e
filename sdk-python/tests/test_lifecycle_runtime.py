"""Lifecycle hooks as a real process under the reference runtime.

A scripted scenario of four turns in three sessions (tool success, tool
failure, a denial, an abort, a two-round turn, a second session), asserted
on the transcript (what the tools ran with, what the LLM saw) and on what
the callbacks recorded (tests/hooks/lifecycle.py).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import HOOKS, HookProcess

SRC = Path(__file__).parents[1] / "src"

SCENARIO = {
    "tools": ["echo_text", "read_file", "shell"],
    "turns": [
        {
            "session": "alice",
            "prompt": "Echo hello, read missing.txt, clean the build",
            "replies": [
                {
                    "tool_calls": [
                        {"name": "echo_text", "arguments": {"text": "hello"}},
                        {"name": "read_file", "arguments": {"path": "missing.txt"}},
                        {"name": "shell", "arguments": {"command": "rm -rf build"}},
                        {"name": "shell", "arguments": {"command": "ls build"}},
                    ]
                },
                {"content": "Done."},
            ],
        },
        {
            "session": "bob",
            "prompt": "Say hi",
            "replies": [{"content": "Hi."}],
            "end_session": True,
        },
        {
            "session": "carol",
            "prompt": "Format the disk",
            "replies": [
                {"tool_calls": [{"name": "shell", "arguments": {"command": "mkfs /dev/sdb"}}]}
            ],
        },
        {"session": "alice", "prompt": "Thanks", "replies": [{"content": "You are welcome."}]},
    ],
}

Record = dict[str, Any]


class Run:
    """One hookwire run --json of the scenario: its transcript, stderr, and the hook's records."""

    def __init__(self, cli: Path, folder: Path, observe: bool) -> None:
        self.file = folder / "records.jsonl"
        process: dict[str, Any] = {
            "enabled": True,
            "command": [sys.executable, str(HOOKS / "lifecycle.py")],
            "env": {"PYTHONPATH": str(SRC), "LIFECYCLE_RECORD": str(self.file)},
            "intercept": ["before_llm", "before_tool", "approve_tool", "after_tool"],
        }
        if observe:
            process["observe"] = ["agent.session.*", "agent.turn.end"]
        hooks = folder / "hooks.json"
        hooks.write_text(
            json.dumps({"hooks": {"enabled": True, "processes": {"lifecycle": process}}})
        )
        scenario = folder / "scenario.json"
        scenario.write_text(json.dumps(SCENARIO))
        run = subprocess.run(
            [str(cli), "run", "--json", "--messages", "--hooks", str(hooks), str(scenario)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.status, self.stderr = run.returncode, run.stderr
        self.transcript: list[Record] = [json.loads(line) for line in run.stdout.splitlines()]
        self.records: list[Record] = (
            [json.loads(line) for line in self.file.read_text().splitlines()]
            if self.file.exists()
            else []
        )

    def of(self, session: str) -> list[Record]:
        return [r for r in self.records if r["session_id"] == session]

    def calls(self, session: str) -> list[str]:
        """What each callback of a call saw, as "as tool input" or "as message"."""
        return [brief(r) for r in self.of(session) if r["as"] not in ("completed", "end")]


def brief(r: Record) -> str:
    if "tool_name" in r:
        return f"{r['as']} {r['tool_name']} {json.dumps(r['tool_input'])}"
    if "message" in r:
        return f"{r['as']} {r['message']}"
    return str(r["as"])


@pytest.fixture(scope="module")
def observed(hookwire_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Run:
    return Run(hookwire_cli, tmp_path_factory.mktemp("observed"), observe=True)


def test_every_turn_is_played_and_the_abort_ends_only_its_own(observed: Run) -> None:
    assert observed.status == 0, observed.stderr
    ends = [(r["status"], r.get("reason")) for r in observed.transcript if r["type"] == "turn_end"]
    assert ends == [
        ("done", None),
        ("done", None),
        ("aborted", "dangerous command, turn ended: mkfs /dev/sdb"),
        ("done", None),
    ]


def test_each_event_fires_at_its_point_of_the_turn_in_the_order_of_the_callbacks(
    observed: Run,
) -> None:
    assert observed.calls("alice") == [
        "start",
        "prompt Echo hello, read missing.txt, clean the build (checked)",
        # Tool success: the last PreToolUse callback sees the change of the second.
        'pre 1 echo_text {"text": "hello"}',
        'pre 2 echo_text {"text": "HELLO"}',
        'permission echo_text {"text": "HELLO"}',
        'post echo_text {"text": "HELLO"}',
        # Tool failure.
        'pre 1 read_file {"path": "missing.txt"}',
        'pre 2 read_file {"path": "missing.txt"}',
        'permission read_file {"path": "missing.txt"}',
        'failure read_file {"path": "missing.txt"}',
        # Denial: the skip stops the callbacks after it, and the tool.
        'pre 1 shell {"command": "rm -rf build"}',
        # can_use_tool's updated input is what the tool ran with, and what after_tool reports.
        'pre 1 shell {"command": "ls build"}',
        'pre 2 shell {"command": "ls build"}',
        'permission shell {"command": "ls build"}',
        'post shell {"command": "ls build --dry-run"}',
        # The turn's second LLM round is no new prompt; the session's second turn is.
        "prompt Thanks (checked)",
    ]
    assert observed.calls("bob") == ["start", "prompt Say hi (checked)"]
    assert observed.calls("carol") == [
        "start",
        "prompt Format the disk (checked)",
        'pre 1 shell {"command": "mkfs /dev/sdb"}',
    ]


def test_each_session_starts_once_and_ends_once_after_all_else_of_it(observed: Run) -> None:
    for session in ("alice", "bob", "carol"):
        events = [r["event"] for r in observed.of(session)]
        assert events[0] == "SessionStart", session
        assert events.count("SessionStart") == 1, session
        assert events[-1] == "SessionEnd", session
        assert events.count("SessionEnd") == 1, session


def test_task_completed_fires_after_each_turn_with_its_status(observed: Run) -> None:
    def completed(session: str) -> list[str]:
        return [
            r["payload"]["Status"] for r in observed.of(session) if r["event"] == "TaskCompleted"
        ]

    assert completed("alice") == ["done", "done"]
    assert completed("bob") == ["done"]
    assert completed("carol") == ["aborted"]


def test_the_callbacks_get_the_failures_text_and_the_tools_kind_and_paths(
    observed: Run, tmp_path_factory: pytest.TempPathFactory
) -> None:
    [failure] = [r for r in observed.records if r["event"] == "PostToolUseFailure"]
    assert failure["error"] == "read_file: missing.txt: no such file or directory"
    permissions = [
        (r["tool_name"], r["tool_kind"], [Path(p).name for p in r["affected_paths"]])
        for r in observed.records
        if r["event"] == "PermissionRequest"
    ]
    assert permissions == [
        ("echo_text", "readonly", []),
        ("read_file", "readonly", ["missing.txt"]),
        ("shell", "execute", []),
    ]


def test_tools_run_with_the_modified_input_and_the_skipped_one_is_denied_though_a_callback_raised(
    observed: Run,
) -> None:
    tools = [
        (r["tool"], r["arguments"], r["outcome"], r.get("reason"))
        for r in observed.transcript
        if r["type"] == "tool"
    ]
    assert tools == [
        ("echo_text", {"text": "HELLO"}, "ran", None),
        ("read_file", {"path": "missing.txt"}, "ran", None),
        ("shell", {"command": "rm -rf build"}, "denied", "dangerous command: rm -rf build"),
        ("shell", {"command": "ls build --dry-run"}, "ran", None),
    ]
    raised = [
        line
        for line in observed.stderr.splitlines()
        if "PreToolUse callback 3 failed, taken as continue: ConnectionError: monitoring is down"
        in line
    ]
    assert len(raised) == 1, observed.stderr


def test_the_llm_sees_the_modified_prompt_and_the_modified_tool_outputs(observed: Run) -> None:
    requests = [r["messages"] for r in observed.transcript if r["type"] == "llm_request"]
    assert requests[0] == [
        {"role": "user", "content": "Echo hello, read missing.txt, clean the build (checked)"}
    ]
    assert [m["content"] for m in requests[1] if m["role"] == "tool"] == [
        "echoed: HELLO",
        "no such file; carry on without it",
        "tool shell was denied by hook lifecycle: dangerous command: rm -rf build",
        "would run: ls build --dry-run",
    ]
    assert requests[2] == [{"role": "user", "content": "Say hi (checked)"}]


def test_under_a_host_that_sends_no_session_events_sessions_start_from_calls_and_end_at_stop(
    hookwire_cli: Path, tmp_path: Path
) -> None:
    run = Run(hookwire_cli, tmp_path, observe=False)
    assert run.status == 0, run.stderr

    def sessions(event: str) -> list[str]:
        return [r["session_id"] for r in run.records if r["event"] == event]

    assert sessions("SessionStart") == ["alice", "bob", "carol"]
    assert sessions("SessionEnd") == ["alice", "bob", "carol"]  # in the order they started
    assert run.records[-1]["event"] == "SessionEnd"
    assert sessions("TaskCompleted") == []


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_hook_stopped_by_a_signal_ends_its_open_sessions_before_it_exits(
    stop: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "records.jsonl"
    monkeypatch.setenv("LIFECYCLE_RECORD", str(file))
    hook = HookProcess(str(HOOKS / "lifecycle.py"))
    try:
        hook.hello()
        reply = hook.call(
            2,
            "hook.before_tool",
            {"meta": {"SessionKey": "s9"}, "tool": "echo_text", "arguments": {"text": "x"}},
        )
        assert reply["result"]["action"] == "modify"
        hook.proc.send_signal(stop)
        assert hook.wait() == 0, hook.stderr
        records = [json.loads(line) for line in file.read_text().splitlines()]
        assert [f"{r['event']} {r['session_id']}" for r in records] == [
            "SessionStart s9",
            "PreToolUse s9",
            "PreToolUse s9",
            "SessionEnd s9",
        ]
    finally:
        hook.kill()
