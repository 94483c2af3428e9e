"""The lifecycle layer in-process, the events of runtime events and of a
session's end: TaskCompleted and SessionEnd, in the order their notifications
came."""

from __future__ import annotations

import asyncio

import pytest

from hookwire import JSON, HookInput, HookOutput
from test_lifecycle import CONTINUE, call, event, recorder, setup


def test_task_completed_fires_on_agent_turn_end_and_a_legacy_turn_end_with_the_payload() -> None:
    inputs: list[tuple[str, str, JSON]] = []

    def keep(input: HookInput) -> HookOutput:
        assert input.event == "TaskCompleted"
        inputs.append((input.event, input.session_id, input.payload))
        return CONTINUE

    t = setup({"TaskCompleted": [keep]})
    t.runtime_event(event("agent.turn.start", "s1"))
    t.runtime_event(event("agent.turn.end", "s1", {"Status": "done", "Iterations": 2}))
    t.legacy_event(
        {"Kind": "turn_end", "Meta": {"SessionKey": "s2"}, "Payload": {"Status": "aborted"}}
    )
    assert inputs == [
        ("TaskCompleted", "s1", {"Status": "done", "Iterations": 2}),
        ("TaskCompleted", "s2", {"Status": "aborted"}),
    ]


def test_session_end_fires_once_on_session_end_and_at_close_for_open_ones() -> None:
    seen: list[str] = []
    t = setup({"SessionEnd": [recorder(seen)], "PreToolUse": [lambda input: CONTINUE]})
    t.before_tool(call("a", {}, "s1"))
    t.runtime_event(event("agent.session.start", "s2"))
    t.before_tool(call("b", {}, "s3"))
    t.runtime_event(event("agent.session.end", "s2"))
    t.runtime_event(event("agent.session.end", "s2"))
    t.runtime_event(event("agent.session.end", "never-seen"))
    assert seen == ["SessionEnd s2"]
    t.close()
    t.close()
    assert seen == ["SessionEnd s2", "SessionEnd s1", "SessionEnd s3"]


def test_notifications_run_in_arrival_order_task_completed_before_session_end() -> None:
    seen: list[str] = []

    async def slow(input: HookInput) -> HookOutput:
        await asyncio.sleep(0.05)
        seen.append(f"TaskCompleted {input.session_id}")
        return CONTINUE

    t = setup({"TaskCompleted": [slow], "SessionEnd": [recorder(seen)]})

    async def together() -> None:
        await asyncio.gather(
            t.notify_async("hook.runtime_event", event("agent.turn.end", "s1")),
            t.notify_async("hook.runtime_event", event("agent.session.end", "s1")),
        )

    asyncio.run(together())
    assert seen == ["TaskCompleted s1", "SessionEnd s1"]


def test_a_session_end_callback_that_raises_does_not_stop_the_next_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[str] = []

    def full(input: HookInput) -> HookOutput:
        raise OSError("disk full")

    t = setup({"SessionEnd": [full, recorder(seen)]})
    t.runtime_event(event("agent.session.start", "s1"))
    t.close()
    assert seen == ["SessionEnd s1"]
    assert "SessionEnd callback 1 failed, taken as continue: OSError: disk full" in caplog.text
