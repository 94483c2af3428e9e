"""Observers: runtime events and legacy events, filtered by kind globs."""

from __future__ import annotations

import pytest

from hookwire import Hook, RuntimeEvent


def event(kind: str) -> RuntimeEvent:
    return {
        "kind": kind,
        "source": {"component": "agent", "name": "main"},
        "scope": {"agent_id": "main", "turn_id": "t1"},
        "payload": {"Tool": "exec"},
    }


def test_observers_see_the_kinds_their_globs_match() -> None:
    hook = Hook("h")
    seen: dict[str, list[str]] = {"tools": [], "ends": [], "all": []}

    @hook.observe("agent.tool.*")
    def tools(e: RuntimeEvent) -> None:
        seen["tools"].append(e["kind"])

    @hook.observe("agent.*.end", "agent.error")
    def ends(e: RuntimeEvent) -> None:
        seen["ends"].append(e["kind"])

    @hook.observe
    def everything(e: RuntimeEvent) -> None:
        seen["all"].append(e["kind"])

    client = hook.test_client()
    for kind in ("agent.turn.start", "agent.tool.exec_start", "agent.turn.end", "agent.error"):
        client.runtime_event(event(kind))
    assert seen == {
        "tools": ["agent.tool.exec_start"],
        "ends": ["agent.turn.end", "agent.error"],
        "all": ["agent.turn.start", "agent.tool.exec_start", "agent.turn.end", "agent.error"],
    }


def test_a_legacy_event_reaches_the_same_observer_as_its_runtime_kind() -> None:
    hook = Hook("h")
    seen: list[RuntimeEvent] = []

    @hook.observe("agent.tool.exec_start")
    async def observer(e: RuntimeEvent) -> None:
        seen.append(e)

    client = hook.test_client()
    client.legacy_event(
        {
            "Kind": "tool_exec_start",
            "Meta": {"AgentID": "main", "TurnID": "t1", "SessionKey": "s1"},
            "Payload": {"Tool": "echo_text", "Arguments": {"text": "hello"}},
        }
    )
    client.runtime_event(event("agent.tool.exec_start"))
    assert seen[0] == {
        "kind": "agent.tool.exec_start",
        "source": {},
        "scope": {"agent_id": "main", "turn_id": "t1", "session_key": "s1"},
        "payload": {"Tool": "echo_text", "Arguments": {"text": "hello"}},
    }
    assert seen[1] == event("agent.tool.exec_start")


def test_kinds_this_version_does_not_know_still_reach_matching_observers() -> None:
    hook = Hook("h")
    seen: list[str] = []
    hook.observe("agent.*")(lambda e: seen.append(e["kind"]))
    hook.test_client().runtime_event(event("agent.subturn.spawn"))
    hook.test_client().legacy_event({"Kind": "subturn_spawn"})
    assert seen == ["agent.subturn.spawn"]  # an unmapped legacy kind stays as it is


def test_an_observer_failure_is_raised_by_the_test_client() -> None:
    hook = Hook("h")

    @hook.observe
    def broken(e: RuntimeEvent) -> None:
        raise RuntimeError("observer broke")

    with pytest.raises(RuntimeError, match="observer broke"):
        hook.test_client().runtime_event(event("agent.turn.start"))


def test_observe_takes_kind_globs() -> None:
    with pytest.raises(TypeError, match="kind globs"):
        Hook("h").observe("agent.*", 3)  # type: ignore[call-overload]
