"""What the generated rows (_lifecycle_gen) read a call with (its members and the
last user message), take a callback's modified value in with, and answer an
outcome with."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from ._protocol_gen import DecodeError, decode_tool_result


def get(value: Any, *path: str) -> Any:
    """The member at path; None when there is none."""
    for name in path:
        value = value.get(name) if isinstance(value, dict) else None
    return value


def _last_user(params: dict[str, Any]) -> int:
    """The index of the request's last user message; -1 when it has none."""
    messages = params.get("messages") or []  # a host leaves an empty history out
    return next((i for i in reversed(range(len(messages))) if messages[i]["role"] == "user"), -1)


def last_user_message(params: dict[str, Any]) -> Any:
    at = _last_user(params)
    return params["messages"][at].get("content", "") if at >= 0 else ""


def set_last_user_message(params: dict[str, Any], value: Any) -> None:
    at = _last_user(params)
    if at < 0:
        raise ValueError("the request has no user message to replace")
    messages = list(params["messages"])
    messages[at] = {**messages[at], "content": value}
    params["messages"] = messages


# What a tool's arguments are, said to a callback that answers something else.
ARGUMENTS: Final = "the tool's arguments (a dict)"


def as_json(value: object, kind: type, what: str, want: str) -> Any:
    """A callback's modified value (what) as JSON carries it, when it is a kind;
    a ValueError, saying what it should be (want), when it is not."""
    if not isinstance(value, kind):
        raise ValueError(f"{what} is a {type(value).__name__}, not {want}")
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} is not JSON: {e}") from None


def as_result(value: object, current: dict[str, Any], what: str) -> Any:
    """A callback's modified output as the tool's result: a whole ToolResult, or
    a str that replaces the for_llm of the current one."""
    if isinstance(value, str):
        return {**current, "for_llm": value}
    if not isinstance(value, dict):
        kind = type(value).__name__
        raise ValueError(f"{what} is a {kind}, neither a ToolResult nor a str (the new for_llm)")
    try:
        return decode_tool_result(as_json(value, dict, what, "a ToolResult"))
    except DecodeError as e:
        raise ValueError(f"{what} is not a ToolResult: {e}") from None


def answer(action: str, stop: Mapping[str, Any], default: str) -> Any:
    """The result an outcome maps to, with the callback's reason or the default."""
    reason = stop.get("reason")
    reason = reason if isinstance(reason, str) and reason else default
    if action == "refuse":
        return {"approved": False, "reason": reason}
    return {"action": action, "reason": reason} if reason else {"action": action}
