"""What goes instead of a reply longer than the host reads, by method.

The table is schema/methods.json's overLimit, generated into _methods_gen;
these hold the function that reads it to docs/protocol.md's "Replies longer
than the host reads", case by case, as the exchange vectors
line-limit*.txtar hold the whole hook to it on the wire.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookwire import HookError
from hookwire._line_limit import fit

LIMIT = 300
REASON = "the hook's answer is longer than the host reads in a line (300 bytes)"


def test_a_hello_too_long_is_an_error_that_fails_the_hooks_start() -> None:
    answer = fit("hook.hello", {"ok": True, "name": "x" * 400}, 250, LIMIT)
    assert isinstance(answer, HookError)
    assert (answer.code, answer.message) == (-32000, REASON)


@pytest.mark.parametrize(
    ("method", "action"),
    [
        ("hook.before_tool", "deny_tool"),
        ("hook.before_tool", "abort_turn"),
        ("hook.before_tool", "hard_abort"),
        ("hook.before_llm", "abort_turn"),
        ("hook.after_llm", "hard_abort"),
        ("hook.after_tool", "abort_turn"),
    ],
)
def test_a_stop_keeps_its_action_with_the_reason_alone(method: str, action: str) -> None:
    reply = {"action": action, "reason": "x" * 400, "message": "y" * 400}
    assert fit(method, reply, 250, LIMIT) == {"action": action, "reason": REASON}


@pytest.mark.parametrize(
    ("method", "reply", "instead"),
    [
        ("hook.before_tool", {"action": "respond", "result": {"for_llm": "x" * 400}}, "deny_tool"),
        ("hook.before_tool", {"action": "continue", "context": "x" * 400}, "deny_tool"),
        ("hook.before_tool", {"action": "modify", "call": {"tool": "x" * 400}}, "deny_tool"),
        ("hook.before_llm", {"action": "modify", "request": {"model": "x" * 400}}, "abort_turn"),
        ("hook.after_llm", {"action": "continue", "context": "x" * 400}, "abort_turn"),
        ("hook.after_tool", {"action": "continue", "context": "x" * 400}, "abort_turn"),
    ],
)
def test_anything_else_is_refused_never_let_through(
    method: str, reply: dict[str, Any], instead: str
) -> None:
    assert fit(method, reply, 250, LIMIT) == {"action": instead, "reason": REASON}


def test_an_approval_too_long_is_a_denial_not_an_error() -> None:
    reply = {"approved": True, "arguments": {"text": "x" * 400}}
    assert fit("hook.approve_tool", reply, 250, LIMIT) == {"approved": False, "reason": REASON}


def after_tool_modify(for_llm: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    ran = {"tool": "redact", "arguments": arguments, "result": {"for_llm": for_llm}}
    return {"action": "modify", "result": ran}


def test_an_after_tool_modify_goes_cut_to_fit_with_a_marker() -> None:
    reply = after_tool_modify("SECRET " + "x" * 400, {})
    answer = fit("hook.after_tool", reply, 250, LIMIT)
    assert isinstance(answer, dict)
    assert len(json.dumps(answer, separators=(",", ":"))) <= 250
    for_llm = answer["result"]["result"]["for_llm"]
    kept, _, marker = for_llm.partition("\n[hookwire: ")
    assert kept.startswith("SECRET xxx")
    assert marker == f"{407 - len(kept)} bytes cut to fit the host's line]"
    assert {**answer["result"], "result": {}} == {**reply["result"], "result": {}}


@pytest.mark.parametrize(
    "reply",
    [
        after_tool_modify("SECRET", {"text": "x" * 400}),  # even an empty for_llm does not fit
        after_tool_modify(None, {}),  # no for_llm to cut
        {"action": "modify", "result": "not an object"},
    ],
)
def test_an_after_tool_modify_that_cannot_be_cut_ends_the_turn(reply: dict[str, Any]) -> None:
    assert fit("hook.after_tool", reply, 250, LIMIT) == {"action": "abort_turn", "reason": REASON}
