"""The lifecycle vocabulary (what a callback answers, what can_use_tool decides)
and the rows of the lifecycle table, with what the runner (lifecycle) reads a
call with and answers an outcome with.

_lifecycle_gen holds the table (schema/lifecycle.json) as data: for each
event, where it comes from (METHODS, EVENT_ROWS, or a session step: START, END
and END_KINDS), its named conditions (when, unless), the members its input is
read from, what a callback's modified value replaces and what skip and abort
become. What each word means is on the table's page, docs/lifecycle.md;
lifecycle gives it effect, with the session key read at SESSION_KEY (a call
without one is in the session "", a runtime event without one in none).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, Callable, Final, Literal, TypedDict, Union

from ._errors import ToolError
from ._protocol_gen import JSON, DecodeError, ToolKind, ToolResult, decode_tool_result

ToolInput = dict[str, JSON]
"""A tool's arguments."""


class _HookOutputRequired(TypedDict):
    action: Literal["continue", "skip", "abort"]


class HookOutput(_HookOutputRequired, total=False):
    """What a callback answers. continue lets the next callback run. skip stops the callbacks
    after this one, and skips what the event is about: PreToolUse denies the tool call,
    PermissionRequest refuses it. abort stops the callbacks after this one and ends the turn
    (PermissionRequest refuses the call: approval cannot end a turn)."""

    reason: str
    """reason says why: the reason of a denial or an abort."""
    modified_input: str | ToolInput
    """modified_input replaces, with continue, the input for the callbacks after this one and for
    the host: in UserPromptSubmit, the new text of the user's message; in PreToolUse, the
    tool's new arguments, whole."""
    modified_output: str | ToolResult
    """modified_output replaces, with continue, the tool's result: in PostToolUse and
    PostToolUseFailure, the tool's new result: a whole ToolResult, or a string, the new
    for_llm."""


@dataclass(frozen=True)
class CanUseToolOptions:
    """What can_use_tool knows of a call besides its tool and arguments: what the host says of it,
    none and empty when it says nothing. There is no abort signal: an async can_use_tool is
    cancelled, asyncio's way, when the hook is told to stop."""

    tool_kind: ToolKind | None
    """tool_kind is what the tool does to the world, when the host says."""
    affected_paths: list[str]
    """affected_paths are the paths the call touches, when the host says; empty otherwise."""


class _PermissionAllowRequired(TypedDict):
    behavior: Literal["allow"]


class PermissionAllow(_PermissionAllowRequired, total=False):
    """Runs the tool, with the updated input as its arguments when given. updated_input are, with
    allow, the arguments the tool is to run with, whole."""

    updated_input: ToolInput


class _PermissionDenyRequired(TypedDict):
    behavior: Literal["deny"]
    message: str


class PermissionDeny(_PermissionDenyRequired, total=False):
    """Refuses the call; the LLM is told the message. message says, with deny, why. interrupt is
    ignored: approval cannot end a turn."""

    interrupt: bool


class PermissionAsk(TypedDict):
    """Has no opinion: the next approver, then the host's default, decide."""

    behavior: Literal["ask"]


PermissionResult = Union[PermissionAllow, PermissionDeny, PermissionAsk]
"""The verdict of can_use_tool."""

CanUseTool = Callable[
    [str, ToolInput, CanUseToolOptions],
    Union[PermissionResult, Awaitable[PermissionResult]],
]
"""The permission callback: may this tool call run? It decides the calls that the
PermissionRequest callbacks let through. A failure is logged and counts as ask, so that a
broken check approves nothing. Plain or async."""


@dataclass(frozen=True)
class Source:
    """An input field, the member it is read from, and the field's type."""

    field: str
    member: str
    type: str


@dataclass(frozen=True)
class Modify:
    """The modified value a row takes, the field it modifies, and that field's member and type."""

    value: Literal["modified_input", "modified_output"]
    field: str
    member: str
    type: str


@dataclass(frozen=True)
class Outcome:
    action: str
    reason: str = ""


@dataclass(frozen=True)
class Row:
    event: str
    input_type: Callable[..., Any]
    input: tuple[Source, ...] = ()
    when: str = ""
    unless: str = ""
    kind: str = ""
    modify: Modify | None = None
    skip: Outcome | None = None
    abort: Outcome | None = None


@dataclass(frozen=True)
class Method:
    """A request method that events come from, with its rows. An approval's result is
    can_use_tool's to decide after the rows."""

    name: str
    rows: tuple[Row, ...]
    approval: bool = False


@dataclass(frozen=True)
class SessionKey:
    call: str
    event: tuple[str, ...]


# How an input field of each type is read from its member, absent or not.
READ: Final[dict[str, Callable[[Any], Any]]] = {
    "arguments": lambda v: v if isinstance(v, dict) else {},
    "json": lambda v: v,
    "paths": lambda v: list(v or []),
    "string": lambda v: v if isinstance(v, str) else "",
    "tool_error": lambda v: ToolError(v if isinstance(v, dict) else {"for_llm": ""}),
    "tool_kind": lambda v: v,
    "tool_result": lambda v: v if isinstance(v, dict) else {"for_llm": ""},
}


def get(value: Any, path: str) -> Any:
    """The member at a dotted path; None when there is none."""
    for name in path.split("."):
        value = value.get(name) if isinstance(value, dict) else None
    return value


def source(params: dict[str, Any], member: str) -> Any:
    """The member at a dotted path, or the text of the request's last user message."""
    if member != "last_user_message":
        return get(params, member)
    at = _last_user(params)
    return params["messages"][at].get("content", "") if at >= 0 else ""


def _last_user(params: dict[str, Any]) -> int:
    """The index of the request's last user message; -1 when it has none."""
    messages = params.get("messages") or []  # a host leaves an empty history out
    return next((i for i in reversed(range(len(messages))) if messages[i]["role"] == "user"), -1)


def replace(params: dict[str, Any], modify: Modify, value: object) -> None:
    """Take a callback's modified value into the call, in place of the member it replaces, as
    the type of the field it modifies; a ValueError when it cannot be."""
    if modify.type == "string":
        what = f"the {modify.field.replace('_', ' ')}'s new text (a str)"
        new = as_json(value, str, modify.value, what)
    elif modify.type == "arguments":
        new = as_json(value, dict, modify.value, ARGUMENTS)
    else:  # a tool result, or the error it is read as
        new = as_result(value, READ["tool_result"](get(params, modify.member)), modify.value)
    if modify.member != "last_user_message":
        params[modify.member] = new
        return
    at = _last_user(params)
    if at < 0:
        raise ValueError("the request has no user message to replace")
    messages = list(params["messages"])
    messages[at] = {**messages[at], "content": new}
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


def answer(outcome: Outcome, stop: Mapping[str, Any], tool: object) -> Any:
    """The result an outcome maps to, with the callback's reason or the row's, said after the
    call's tool."""
    reason = stop.get("reason")
    if not isinstance(reason, str) or not reason:
        reason = f"{tool} {outcome.reason}" if outcome.reason else ""
    if outcome.action == "refuse":
        return {"approved": False, "reason": reason}
    return {"action": outcome.action, "reason": reason} if reason else {"action": outcome.action}
