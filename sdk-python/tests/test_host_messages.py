"""Every message a host sends reaches its handler: the lines of the PicoClaw
capture and the messages with the members that host leaves out or adds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwire import AfterLLMParams, Hook, TestClient

VALID = Path(__file__).resolve().parents[2] / "schema" / "testdata" / "valid"


def host_messages() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(VALID.glob("*.json")):
        message = json.loads(path.read_text(encoding="utf-8")).get("message", {})
        if message.get("method") not in (None, "hook.hello"):
            out[path.stem] = message
    return out


MESSAGES = host_messages()


def test_the_capture_and_the_absent_member_vectors_are_there() -> None:
    assert "capture.2.before_llm" in MESSAGES
    assert "capture.7.runtime_event" in MESSAGES
    assert "after_llm.params.tool_call_id_only" in MESSAGES


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_every_message_a_host_sends_reaches_its_handler(name: str) -> None:
    message = MESSAGES[name]
    reached: list[str] = []
    hook = Hook("all")
    hook.before_llm(lambda req: reached.append("hook.before_llm"))
    hook.after_llm(lambda res: reached.append("hook.after_llm"))
    hook.before_tool(lambda call: reached.append("hook.before_tool"))
    hook.after_tool(lambda ran: reached.append("hook.after_tool"))

    @hook.approve_tool
    def approve(req: Any) -> bool:
        reached.append("hook.approve_tool")
        return True

    hook.observe(lambda event: reached.append("event"))
    client = TestClient(hook)
    if message.get("id", 0) == 0:
        client.notify(message["method"], message.get("params"))
        assert reached == ["event"]
    else:
        client.call(message["method"], message.get("params"))
        assert reached == [message["method"]]


def test_an_after_llm_whose_tool_call_has_only_an_id_is_handled() -> None:
    seen: list[AfterLLMParams] = []
    hook = Hook("h")
    hook.after_llm(lambda res: seen.append(res))
    result = TestClient(hook).call(
        "hook.after_llm",
        {
            "meta": {"TurnID": "t1"},
            "model": "gpt-4o",
            "response": {
                "content": "",
                "tool_calls": [{"id": "call-1"}],
                "finish_reason": "tool_calls",
                "reasoning": "",
                "reasoning_details": None,
            },
        },
    )
    assert result.get("action", "continue") == "continue"
    call = seen[0]["response"]["tool_calls"][0]
    assert call == {"id": "call-1"}
    assert "function" not in call  # absent, not an error: the handler checks before it reads


def test_a_plugin_tool_called_with_no_arguments_which_a_host_leaves_out_runs_with_none() -> None:
    hook = Hook("h")

    @hook.tool
    def now() -> str:
        """The time."""
        return "noon"

    result = TestClient(hook).call("hook.before_tool", {"tool": "now"})
    assert result == {"action": "respond", "result": {"for_llm": "noon"}}
