"""Lifecycle hooks: the vocabulary of in-process agent SDKs, on a Hook.

Hook authors who know the lifecycle hooks of in-process agent SDKs (the
Blade Agent SDK's) write the same here: eight events, callbacks that answer
continue, skip or abort, with a modified input or output, and a
can_use_tool permission callback. LifecycleHook registers the protocol
handlers and observers those callbacks need, and translates both ways, so
that such a hook ports in minutes and runs out of process under any host of
the protocol:

    from hookwire import HookEvent, HookOutput, LifecycleHook, PreToolUseInput

    def guard(input: PreToolUseInput) -> HookOutput:
        if "rm -rf" in str(input.tool_input.get("command")):
            return {"action": "abort", "reason": "dangerous command"}
        return {"action": "continue"}

    LifecycleHook("guard", hooks={HookEvent.PreToolUse: [guard]}).run()

The mapping onto the protocol is the same in the Go and TypeScript SDKs;
the SDK's README has it as a table. The seed's camelCase names are
snake_case here: sessionId is session_id, modifiedInput modified_input,
canUseTool can_use_tool.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Final, Literal, TypedDict, TypeVar, Union

from ._async import is_async
from ._errors import HookwireError
from ._hook import Hook
from ._methods import AfterToolReply, ApproveToolReply, BeforeLLMReply, BeforeToolReply
from ._protocol import (
    EXT_APPROVE_TOOL_ARGUMENTS,
    JSON,
    KIND_AGENT_SESSION_END,
    KIND_AGENT_TURN_END,
    AfterToolParams,
    ApproveToolParams,
    ApproveToolResult,
    BeforeLLMParams,
    BeforeToolParams,
    DecodeError,
    Message,
    RuntimeEvent,
    ToolKind,
    ToolResult,
    abort_turn,
    decode_tool_result,
    deny_tool,
)
from ._results import modify
from ._workers import Workers

__all__ = [
    "CanUseTool",
    "CanUseToolOptions",
    "HookEvent",
    "HookInput",
    "HookOutput",
    "LifecycleHook",
    "LifecycleHooks",
    "PermissionAllow",
    "PermissionAsk",
    "PermissionDeny",
    "PermissionRequestInput",
    "PermissionResult",
    "PostToolUseFailureInput",
    "PostToolUseInput",
    "PreToolUseInput",
    "SessionEndInput",
    "SessionStartInput",
    "TaskCompletedInput",
    "ToolError",
    "ToolInput",
    "UserPromptSubmitInput",
]

log = logging.getLogger("hookwire")


class HookEvent:
    """The eight lifecycle events: the keys of LifecycleHook's hooks."""

    SessionStart: Final = "SessionStart"
    """The first call or event of a session key, once per session."""
    UserPromptSubmit: Final = "UserPromptSubmit"
    """The first hook.before_llm of a turn."""
    PreToolUse: Final = "PreToolUse"
    """hook.before_tool."""
    PostToolUse: Final = "PostToolUse"
    """hook.after_tool of a result that is not an error."""
    PostToolUseFailure: Final = "PostToolUseFailure"
    """hook.after_tool of a result with is_error."""
    PermissionRequest: Final = "PermissionRequest"
    """hook.approve_tool."""
    TaskCompleted: Final = "TaskCompleted"
    """The runtime event agent.turn.end (legacy turn_end)."""
    SessionEnd: Final = "SessionEnd"
    """agent.session.end, or the hook's stop for the sessions still open."""


# In the order a session meets them.
_EVENTS: Final = (
    HookEvent.SessionStart,
    HookEvent.UserPromptSubmit,
    HookEvent.PreToolUse,
    HookEvent.PermissionRequest,
    HookEvent.PostToolUse,
    HookEvent.PostToolUseFailure,
    HookEvent.TaskCompleted,
    HookEvent.SessionEnd,
)

ToolInput = dict[str, JSON]
"""A tool's arguments."""


class ToolError(HookwireError):
    """A tool's failure, as PostToolUseFailure gets it: message is the result's for_llm."""

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result)  # as args, so that copy and pickle rebuild it
        self.result = result

    @property
    def message(self) -> str:
        return self.result["for_llm"]

    def __str__(self) -> str:
        return self.message


# What each event's callbacks receive. Frozen: a callback changes what
# comes next by answering modified_input or modified_output.


@dataclass(frozen=True)
class SessionStartInput:
    """SessionStart: session_id is the host's session key ("" when it sends none)."""

    session_id: str
    event: Literal["SessionStart"] = field(default="SessionStart", init=False)


@dataclass(frozen=True)
class UserPromptSubmitInput:
    """UserPromptSubmit: message is the text of the last user message."""

    session_id: str
    message: str
    event: Literal["UserPromptSubmit"] = field(default="UserPromptSubmit", init=False)


@dataclass(frozen=True)
class PreToolUseInput:
    """PreToolUse: the tool about to run, and its arguments."""

    session_id: str
    tool_name: str
    tool_input: ToolInput
    event: Literal["PreToolUse"] = field(default="PreToolUse", init=False)


@dataclass(frozen=True)
class PostToolUseInput:
    """PostToolUse: the tool that ran, its arguments and its result."""

    session_id: str
    tool_name: str
    tool_input: ToolInput
    tool_output: ToolResult
    event: Literal["PostToolUse"] = field(default="PostToolUse", init=False)


@dataclass(frozen=True)
class PostToolUseFailureInput:
    """PostToolUseFailure: the tool that failed, its arguments and the error."""

    session_id: str
    tool_name: str
    tool_input: ToolInput
    error: ToolError
    event: Literal["PostToolUseFailure"] = field(default="PostToolUseFailure", init=False)


@dataclass(frozen=True)
class PermissionRequestInput:
    """PermissionRequest: tool_kind and affected_paths are what the host says, None and []
    when it says nothing."""

    session_id: str
    tool_name: str
    tool_input: ToolInput
    tool_kind: ToolKind | None
    affected_paths: list[str]
    event: Literal["PermissionRequest"] = field(default="PermissionRequest", init=False)


@dataclass(frozen=True)
class TaskCompletedInput:
    """TaskCompleted: payload is the agent.turn.end event's (Status, Iterations...)."""

    session_id: str
    payload: JSON
    event: Literal["TaskCompleted"] = field(default="TaskCompleted", init=False)


@dataclass(frozen=True)
class SessionEndInput:
    """SessionEnd: the session that ended."""

    session_id: str
    event: Literal["SessionEnd"] = field(default="SessionEnd", init=False)


HookInput = Union[
    SessionStartInput,
    UserPromptSubmitInput,
    PreToolUseInput,
    PostToolUseInput,
    PostToolUseFailureInput,
    PermissionRequestInput,
    TaskCompletedInput,
    SessionEndInput,
]
"""What a lifecycle callback receives; input.event tells which."""


class _HookOutputRequired(TypedDict):
    action: Literal["continue", "skip", "abort"]


class HookOutput(_HookOutputRequired, total=False):
    """What a callback answers: {"action": "continue"}, "skip" or "abort".

    skip and abort stop the callbacks after this one. With continue,
    modified_input is the new text of the user's message (UserPromptSubmit)
    or the tool's new arguments, whole (PreToolUse); modified_output is the
    tool's new result (PostToolUse, PostToolUseFailure): a whole ToolResult,
    or a str, the new text the LLM sees.
    """

    reason: str
    modified_input: str | ToolInput
    modified_output: str | ToolResult


_Reply = Union[HookOutput, Awaitable[HookOutput]]


class LifecycleHooks(TypedDict, total=False):
    """The callbacks of each event, run in the order given; plain or async."""

    SessionStart: Sequence[Callable[[SessionStartInput], _Reply]]
    UserPromptSubmit: Sequence[Callable[[UserPromptSubmitInput], _Reply]]
    PreToolUse: Sequence[Callable[[PreToolUseInput], _Reply]]
    PostToolUse: Sequence[Callable[[PostToolUseInput], _Reply]]
    PostToolUseFailure: Sequence[Callable[[PostToolUseFailureInput], _Reply]]
    PermissionRequest: Sequence[Callable[[PermissionRequestInput], _Reply]]
    TaskCompleted: Sequence[Callable[[TaskCompletedInput], _Reply]]
    SessionEnd: Sequence[Callable[[SessionEndInput], _Reply]]


@dataclass(frozen=True)
class CanUseToolOptions:
    """What can_use_tool knows of a call besides its tool and arguments.

    What the host says: None and [] when it says nothing. There is no abort
    signal: an async can_use_tool is cancelled, asyncio's way, when the
    hook is told to stop.
    """

    tool_kind: ToolKind | None
    affected_paths: list[str]


class _PermissionAllowRequired(TypedDict):
    behavior: Literal["allow"]


class PermissionAllow(_PermissionAllowRequired, total=False):
    """Run the tool, with updated_input as its arguments when given."""

    updated_input: ToolInput


class _PermissionDenyRequired(TypedDict):
    behavior: Literal["deny"]
    message: str


class PermissionDeny(_PermissionDenyRequired, total=False):
    """Do not run the tool; the LLM is told the message. interrupt is ignored:
    approval cannot end a turn."""

    interrupt: bool


class PermissionAsk(TypedDict):
    """No opinion: the next approver, then the host's default, decide."""

    behavior: Literal["ask"]


PermissionResult = Union[PermissionAllow, PermissionDeny, PermissionAsk]
"""The verdict of can_use_tool."""

CanUseTool = Callable[
    [str, ToolInput, CanUseToolOptions],
    Union[PermissionResult, Awaitable[PermissionResult]],
]
"""The permission callback: may this tool call run? Plain or async."""


class LifecycleHook(Hook):
    """A hook speaking the lifecycle vocabulary.

    It registers what its callbacks need, so its hello modes follow from
    them: hook.before_llm for UserPromptSubmit, hook.before_tool for
    PreToolUse, hook.after_tool for PostToolUse and PostToolUseFailure,
    hook.approve_tool for PermissionRequest and can_use_tool, an observer
    of every event and an on_close function for SessionStart, TaskCompleted
    and SessionEnd. Add handlers of other methods, observers or plugin
    tools to it as to any Hook.

    A callback that raises, or answers something else than an outcome, is
    logged and counts as continue: it does not stop the tool. A
    can_use_tool that raises counts as ask, so that a broken permission
    check approves nothing. Plain callbacks run on worker threads, as plain
    handlers do: guard what they share with a lock.
    """

    def __init__(
        self,
        name: str | None = None,
        *,
        hooks: LifecycleHooks | None = None,
        can_use_tool: CanUseTool | None = None,
        threads: int = 64,
    ) -> None:
        super().__init__(name, threads=threads)
        self._lifecycle = _Layer(self, hooks or {}, can_use_tool)


class _Ignored(ValueError):
    """A callback's modified input or output that cannot be used."""


class _Session:
    def __init__(self) -> None:
        # Pending while the SessionStart callbacks run.
        self.starting: asyncio.Future[None] | None = None
        # The turns whose first LLM call was seen.
        self.turns: set[str] = set()


_Input = TypeVar("_Input", bound=HookInput)
_Callback = tuple[Callable[..., Any], bool]


class _Layer:
    """Translates between the protocol and the callbacks of one hook.

    Its state is the event loop's: the handlers and the observer are
    coroutines, and only the callbacks run elsewhere.
    """

    def __init__(self, hook: Hook, hooks: LifecycleHooks, can_use_tool: CanUseTool | None) -> None:
        self.hook = hook
        self.workers = Workers(hook.threads)  # for the plain callbacks
        self.callbacks: dict[str, list[_Callback]] = {}
        given: Mapping[str, object] = hooks
        for event, callbacks in given.items():
            if event not in _EVENTS:
                raise ValueError(f"unknown lifecycle event {event!r}: one of {', '.join(_EVENTS)}")
            if not isinstance(callbacks, Sequence) or not all(callable(c) for c in callbacks):
                raise TypeError(f"the {event} callbacks are not a sequence of callables")
            self.callbacks[event] = [(fn, is_async(fn)) for fn in callbacks]
        self.can_use_tool = can_use_tool
        self.open: dict[str, _Session] = {}  # started and not ended, in the order they started
        self.tail: asyncio.Future[None] | None = None  # done when the last notification is

        def has(*events: str) -> bool:
            return any(self.callbacks.get(e) for e in events)

        if has(HookEvent.UserPromptSubmit):
            hook.before_llm(self.before_llm)
        if has(HookEvent.PreToolUse):
            hook.before_tool(self.before_tool)
        if has(HookEvent.PostToolUse, HookEvent.PostToolUseFailure):
            hook.after_tool(self.after_tool)
        if has(HookEvent.PermissionRequest) or can_use_tool is not None:
            hook.approve_tool(self.approve_tool)
        if has(HookEvent.SessionStart, HookEvent.TaskCompleted, HookEvent.SessionEnd):
            hook.observe(self.observe)
            hook.on_close(self.close)

    async def call(self, fn: Callable[..., Any], fn_is_async: bool, *args: Any) -> Any:
        """fn(*args): a coroutine function on the loop, a plain one on a worker thread."""
        if fn_is_async:
            return await fn(*args)
        result = await asyncio.wrap_future(self.workers.submit(fn, *args))
        return await result if inspect.isawaitable(result) else result

    async def chain(
        self, input: _Input, apply: Callable[[_Input, object], _Input] | None = None
    ) -> tuple[_Input, HookOutput | None]:
        """Run the callbacks of input's event in order, each on the input as
        the one before left it, until one skips or aborts; return the input
        and that one's output.

        apply takes the modified input or output the event uses into the
        input, and raises _Ignored when it cannot; None for the events that
        use none.
        """
        event = input.event
        used = _USES.get(event)
        for i, (fn, fn_is_async) in enumerate(self.callbacks.get(event, ()), 1):
            which = f"{event} callback {i}"
            try:
                out = await self.call(fn, fn_is_async, input)
            except Exception as e:
                log.error("%s failed, taken as continue: %s", which, _describe(e), exc_info=e)
                continue
            action = out.get("action") if isinstance(out, dict) else None
            if action in ("skip", "abort"):
                return input, out
            if action != "continue":
                log.error(
                    "%s answered %r, not continue, skip or abort: taken as continue", which, out
                )
                continue
            for key in ("modified_input", "modified_output"):
                if key in out and key != used:
                    log.warning(
                        "%s answered %s, which %s has no use for: ignored", which, key, event
                    )
            if apply is None or used not in out:
                continue
            try:
                input = apply(input, out[used])
            except _Ignored as e:
                log.error("%s: %s; taken as continue", which, e)
        return input, None

    # Sessions.

    async def start(self, key: str) -> _Session:
        """Run SessionStart the first time a session is seen; return once it has run."""
        session = self.open.get(key)
        if session is None:
            session = self.open[key] = _Session()
            starting = session.starting = asyncio.get_running_loop().create_future()
            try:
                await self.chain(SessionStartInput(key))
            finally:
                session.starting = None
                starting.set_result(None)
        elif session.starting is not None:
            # Shielded: a call that is cancelled must not cancel the start.
            await asyncio.shield(session.starting)
        return session

    async def end(self, key: str) -> None:
        """Run SessionEnd for a session started and not ended."""
        session = self.open.pop(key, None)
        if session is None:
            return
        if session.starting is not None:
            await asyncio.shield(session.starting)
        await self.chain(SessionEndInput(key))

    async def observe(self, event: RuntimeEvent) -> None:
        # One at a time, in the order they came: a session's last
        # TaskCompleted runs before its SessionEnd. The server starts
        # observers in arrival order; each waits for the one before.
        before = self.tail
        mine = self.tail = asyncio.get_running_loop().create_future()
        try:
            if before is not None:
                await asyncio.shield(before)
            await self.observed(event)
        finally:
            mine.set_result(None)
            if self.tail is mine:
                self.tail = None

    async def observed(self, event: RuntimeEvent) -> None:
        kind, payload = event["kind"], event.get("payload")
        key = event["scope"].get("session_key") or ""
        if not key and kind.startswith("agent.session.") and isinstance(payload, dict):
            k = payload.get("SessionKey")
            key = k if isinstance(k, str) else ""
        if not key:
            return  # not in a session
        if kind == KIND_AGENT_SESSION_END:
            await self.end(key)
            return
        await self.start(key)
        if kind == KIND_AGENT_TURN_END:
            await self.chain(TaskCompletedInput(key, payload))

    async def close(self) -> None:
        """At the hook's stop: end every session still open, in the order they started."""
        if self.tail is not None:
            await asyncio.shield(self.tail)
        for key in list(self.open):
            await self.end(key)

    # The protocol's calls.

    def first_of_turn(self, session: _Session, req: BeforeLLMParams) -> bool:
        """Whether a before_llm call is the first of its turn: of a TurnID new
        to the session or, from a host that sends none, of a request whose last
        message is the user's."""
        turn = req.get("meta", {}).get("TurnID") or ""
        if not turn:
            messages = req.get("messages", [])
            return bool(messages) and messages[-1]["role"] == "user"
        if turn in session.turns:
            return False
        session.turns.add(turn)
        return True

    async def before_llm(self, req: BeforeLLMParams) -> BeforeLLMReply:
        key = _session_of(req)
        if not self.first_of_turn(await self.start(key), req):
            return None
        messages = req.get("messages", [])  # a host leaves an empty history out
        at = next((i for i in reversed(range(len(messages))) if messages[i]["role"] == "user"), -1)
        message = messages[at].get("content", "") if at >= 0 else ""

        def apply(input: UserPromptSubmitInput, text: object) -> UserPromptSubmitInput:
            if not isinstance(text, str):
                raise _Ignored(
                    f"modified_input is a {type(text).__name__}, not the message's new text (a str)"
                )
            if at < 0:
                raise _Ignored("the request has no user message to replace")
            return replace(input, message=text)

        input, stop = await self.chain(UserPromptSubmitInput(key, message), apply)
        if stop is not None and stop["action"] == "abort":
            return abort_turn(_reason(stop))
        # skip is taken as continue: the prompt cannot be skipped.
        if input.message == message:
            return None
        changed: list[Message] = list(messages)
        changed[at] = {**messages[at], "content": input.message}
        return modify(req, messages=changed)

    async def before_tool(self, call: BeforeToolParams) -> BeforeToolReply:
        key = _session_of(call)
        await self.start(key)

        def apply(input: PreToolUseInput, arguments: object) -> PreToolUseInput:
            if not isinstance(arguments, dict):
                raise _Ignored(
                    f"modified_input is a {type(arguments).__name__}, "
                    "not the tool's arguments (a dict)"
                )
            return replace(input, tool_input=_json_copy(arguments, "modified_input"))

        received = PreToolUseInput(key, call["tool"], call.get("arguments", {}))
        input, stop = await self.chain(received, apply)
        if stop is not None:
            if stop["action"] == "skip":
                return deny_tool(
                    _reason(stop) or f"{call['tool']} skipped by a PreToolUse callback"
                )
            return abort_turn(_reason(stop))
        if input is received:
            return None
        return modify(call, arguments=input.tool_input)

    async def after_tool(self, ran: AfterToolParams) -> AfterToolReply:
        key = _session_of(ran)
        await self.start(key)
        tool_input = ran.get("arguments", {})
        # A host leaves an empty result out.
        received: ToolResult = ran.get("result", {"for_llm": ""})
        result = received
        failed = result.get("is_error") is True

        def apply(
            input: PostToolUseInput | PostToolUseFailureInput, output: object
        ) -> PostToolUseInput | PostToolUseFailureInput:
            nonlocal result
            if isinstance(output, str):
                result = {**result, "for_llm": output}
            elif isinstance(output, dict):
                try:
                    result = decode_tool_result(_json_copy(output, "modified_output"))
                except DecodeError as e:
                    raise _Ignored(f"modified_output is not a ToolResult: {e}") from None
            else:
                raise _Ignored(
                    f"modified_output is a {type(output).__name__}, "
                    "neither a ToolResult nor a str (the new for_llm)"
                )
            if isinstance(input, PostToolUseFailureInput):
                return replace(input, error=ToolError(result))
            return replace(input, tool_output=result)

        input: PostToolUseInput | PostToolUseFailureInput
        if failed:
            input = PostToolUseFailureInput(key, ran["tool"], tool_input, ToolError(result))
        else:
            input = PostToolUseInput(key, ran["tool"], tool_input, result)
        _, stop = await self.chain(input, apply)
        if stop is not None and stop["action"] == "abort":
            return abort_turn(_reason(stop))
        if result is received:
            return None
        return modify(ran, result=result)

    async def approve_tool(self, req: ApproveToolParams) -> ApproveToolReply:
        key = _session_of(req)
        await self.start(key)
        tool, arguments = req["tool"], req.get("arguments", {})
        kind, paths = req.get("tool_kind"), req.get("affected_paths", [])
        _, stop = await self.chain(PermissionRequestInput(key, tool, arguments, kind, list(paths)))
        if stop is not None:
            # Approval cannot end a turn: abort refuses the call, as skip does.
            return _refuse(_reason(stop) or f"{tool} refused by a PermissionRequest callback")
        if self.can_use_tool is None:
            return True
        try:
            verdict: Any = await self.call(
                self.can_use_tool,
                is_async(self.can_use_tool),
                tool,
                arguments,
                CanUseToolOptions(kind, list(paths)),
            )
        except Exception as e:
            # Not an approval: a broken permission check leaves the call to the host.
            log.error("can_use_tool failed, taken as ask: %s", _describe(e), exc_info=e)
            return _abstain()
        behavior = verdict.get("behavior") if isinstance(verdict, dict) else None
        if behavior == "allow":
            if "updated_input" not in verdict:
                return True
            updated = verdict["updated_input"]
            try:
                if not isinstance(updated, dict):
                    raise _Ignored(f"updated_input is a {type(updated).__name__}, not a dict")
                updated = _json_copy(updated, "updated_input")
            except _Ignored as e:
                log.error("can_use_tool answered allow with %s: taken as ask", e)
                return _abstain()
            if EXT_APPROVE_TOOL_ARGUMENTS in self.hook.host_extensions:
                return {"approved": True, "arguments": updated}
            # Running the call with the arguments it came with would not be
            # what was allowed.
            return _refuse(
                f"canUseTool allowed {tool} with updated input, which this host cannot apply "
                f"(it does not announce {EXT_APPROVE_TOOL_ARGUMENTS})"
            )
        if behavior == "deny":
            return _refuse(str(verdict.get("message", "")))
        if behavior != "ask":
            log.error("can_use_tool answered %r, not allow, deny or ask: taken as ask", verdict)
        return _abstain()


# The member of a callback's output that each event uses.
_USES: Final = {
    HookEvent.UserPromptSubmit: "modified_input",
    HookEvent.PreToolUse: "modified_input",
    HookEvent.PostToolUse: "modified_output",
    HookEvent.PostToolUseFailure: "modified_output",
}


def _abstain() -> ApproveToolResult:
    # "ask" on the wire: a host without the approve_tool.abstain extension
    # reads a denial, which is the safe side.
    return {"approved": False, "abstain": True}


def _refuse(reason: str) -> ApproveToolResult:
    return {"approved": False, "reason": reason}


def _reason(output: HookOutput) -> str | None:
    reason = output.get("reason")
    return reason if isinstance(reason, str) and reason else None


def _session_of(
    params: BeforeLLMParams | BeforeToolParams | AfterToolParams | ApproveToolParams,
) -> str:
    return params.get("meta", {}).get("SessionKey") or ""


def _json_copy(value: Any, what: str) -> Any:
    """value as JSON carries it; _Ignored when it is not JSON."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as e:
        raise _Ignored(f"{what} is not JSON: {e}") from None


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"
