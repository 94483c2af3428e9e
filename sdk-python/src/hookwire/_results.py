"""The respond helpers: what a handler returns.

Each helper builds the result as it goes on the wire, except modify: its
wire form depends on the method (request, response, call or result), so
it returns a Modify that the dispatcher renders for the method it answers.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, cast

from ._protocol_gen import ApproveToolResult, BeforeToolParams, Respond, ToolResult, deny_tool

__all__ = ["Modify", "abstain", "deny", "modify", "respond", "tool_result"]

T = TypeVar("T")


class Modify(Generic[T]):
    """A modify decision: the whole replacement object, and why.

    Build it with modify(); the dispatcher puts the object under the key the
    method expects. Like the frozen dataclass it once was, it is immutable
    and equal to another with the same value and reason; not a dataclass,
    because dataclasses imports inspect, which a hook otherwise does without.
    """

    __slots__ = ("_reason", "_value")

    def __init__(self, value: T, reason: str | None = None) -> None:
        self._value = value
        self._reason = reason

    @property
    def value(self) -> T:
        """The whole replacement object."""
        return self._value

    @property
    def reason(self) -> str | None:
        """Why the hook modifies, if it says."""
        return self._reason

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Modify):
            return NotImplemented
        return (self.value, self.reason) == (other.value, other.reason)

    def __hash__(self) -> int:
        return hash((self.value, self.reason))

    def __repr__(self) -> str:
        return f"Modify(value={self.value!r}, reason={self.reason!r})"


def modify(value: T, *, reason: str | None = None, **changes: Any) -> Modify[T]:
    """Replace the received object with value, with changes applied on top.

    Pass the object the handler received, whole: hosts replace it, they do
    not merge, so a member left out is a member deleted.
    ``modify(call, arguments={"text": "hi"})`` keeps everything else of call.
    """
    if changes:
        if not isinstance(value, dict):
            raise TypeError(f"modify() applies changes to a dict, not {type(value).__name__}")
        value = cast("T", {**value, **changes})
    return Modify(value, reason)


def tool_result(
    for_llm: str,
    *,
    for_user: str | None = None,
    silent: bool | None = None,
    is_error: bool | None = None,
    media: list[str] | None = None,
    artifact_tags: list[str] | None = None,
    response_handled: bool | None = None,
) -> ToolResult:
    """A tool result: for_llm is what the LLM sees; the rest is left out unless given."""
    result: ToolResult = {"for_llm": for_llm}
    if for_user is not None:
        result["for_user"] = for_user
    if silent is not None:
        result["silent"] = silent
    if is_error is not None:
        result["is_error"] = is_error
    if media is not None:
        result["media"] = list(media)
    if artifact_tags is not None:
        result["artifact_tags"] = list(artifact_tags)
    if response_handled is not None:
        result["response_handled"] = response_handled
    return result


def respond(
    result: str | ToolResult,
    *,
    for_user: str | None = None,
    silent: bool | None = None,
    is_error: bool | None = None,
    media: list[str] | None = None,
    artifact_tags: list[str] | None = None,
    response_handled: bool | None = None,
    call: BeforeToolParams | None = None,
    reason: str | None = None,
) -> Respond:
    """Answer the tool call without running the tool (before_tool only).

    result is the text for the LLM, or a whole ToolResult; the keywords set
    its other members. The host skips the tool, its approval and after_tool.
    """
    tool: ToolResult = (
        tool_result(result) if isinstance(result, str) else cast("ToolResult", dict(result))
    )
    tool.update(
        tool_result(
            tool["for_llm"],
            for_user=for_user,
            silent=silent,
            is_error=is_error,
            media=media,
            artifact_tags=artifact_tags,
            response_handled=response_handled,
        )
    )
    reply: Respond = {"action": "respond", "result": tool}
    if call is not None:
        reply["call"] = call
    if reason is not None:
        reply["reason"] = reason
    return reply


def abstain() -> ApproveToolResult:
    """An approver's "no opinion".

    The host asks its next approver, then applies its own default, as if
    this hook had not been asked. A host that does not announce the
    EXT_APPROVE_TOOL_ABSTAIN extension reads it as a denial, so abstaining
    never approves by accident.
    """
    return {"approved": False, "abstain": True}


# deny_tool's name before every SDK named each helper after its action;
# hooks written with it keep working.
deny = deny_tool
