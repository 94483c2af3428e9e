# The lifecycle layer's runner. Its vocabulary and docs, this module's
# __doc__ included, are generated from the lifecycle table into _lifecycle.

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Callable

from ._async import is_async
from ._errors import ToolError
from ._hook import Hook
from ._lifecycle import *  # noqa: F403 (the events, their inputs, the rows)
from ._lifecycle import (
    END,
    END_KINDS,
    EVENTS,
    LIFECYCLE_HOOK_DOC,
    METHODS,
    OBSERVED,
    START,
    CanUseTool,
    CanUseToolOptions,
    HookInput,
    HookOutput,
    LifecycleHooks,
    __doc__,  # noqa: F401 (this module's)
    on_event,
)
from ._lifecycle import __all__ as _generated
from ._lifecycle_support import READ
from ._protocol import (
    EXT_APPROVE_TOOL_ARGUMENTS,
    JSON,
    METHOD_APPROVE_TOOL,
    ApproveToolResult,
    DecodeError,
    RuntimeEvent,
    decode_tool_result,
)
from ._results import modify
from ._workers import Workers

__all__ = [*_generated, "LifecycleHook", "ToolError"]

log = logging.getLogger("hookwire")


class LifecycleHook(Hook):
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


LifecycleHook.__doc__ = LIFECYCLE_HOOK_DOC  # from the table, as this module's __doc__


def _coerce(type: str, field: str, what: str, value: object, current: Any) -> JSON:
    """A callback's modified value as what it replaces, a field of a type: a
    str; a tool's arguments, a dict; a whole ToolResult, or a str that
    replaces the for_llm of the current one. a ValueError when it is none."""
    if type == "string":
        if not isinstance(value, str):
            raise ValueError(f"{what} is a {_kind(value)}, not the {field}'s new text (a str)")
        return value
    if type == "arguments":
        if not isinstance(value, dict):
            raise ValueError(f"{what} is a {_kind(value)}, not the tool's arguments (a dict)")
        return _json_copy(value, what)
    if isinstance(value, str):  # a tool result's for_llm
        return {**READ["tool_result"](current), "for_llm": value}
    if not isinstance(value, dict):
        raise ValueError(
            f"{what} is a {_kind(value)}, neither a ToolResult nor a str (the new for_llm)"
        )
    try:
        return decode_tool_result(_json_copy(value, what))  # type: ignore[return-value]
    except DecodeError as e:
        raise ValueError(f"{what} is not a ToolResult: {e}") from None


class _Session:
    def __init__(self) -> None:
        # Pending while the SessionStart callbacks run.
        self.starting: asyncio.Future[None] | None = None
        # The turns whose first LLM call was seen.
        self.turns: set[str] = set()


class _Layer:
    """Runs the callbacks of one hook on the rows of the lifecycle table.

    Its state is the event loop's: the handlers and the observer are
    coroutines, and only the callbacks run elsewhere.
    """

    def __init__(self, hook: Hook, hooks: LifecycleHooks, can_use_tool: CanUseTool | None) -> None:
        self.hook = hook
        self.workers = Workers(hook.threads)  # for the plain callbacks
        self.callbacks: dict[str, list[tuple[Callable[..., Any], bool]]] = {}
        given: Mapping[str, object] = hooks
        for event, callbacks in given.items():
            if event not in EVENTS:
                raise ValueError(f"unknown lifecycle event {event!r}: one of {', '.join(EVENTS)}")
            if not isinstance(callbacks, Sequence) or not all(callable(c) for c in callbacks):
                raise TypeError(f"the {event} callbacks are not a sequence of callables")
            self.callbacks[event] = [(fn, is_async(fn)) for fn in callbacks]
        self.can_use_tool = can_use_tool
        self.open: dict[str, _Session] = {}  # started and not ended, in the order they started
        self.tail: asyncio.Future[None] | None = None  # done when the last notification is
        for method, (events, _) in METHODS.items():
            if any(map(self.has, events)) or (method == METHOD_APPROVE_TOOL and can_use_tool):
                hook._register(method, functools.partial(self.handle, method))
        if any(map(self.has, OBSERVED)):
            hook.observe(self.observe)
            hook.on_close(self.close)

    coerce = staticmethod(_coerce)

    def has(self, event: str) -> bool:
        return bool(self.callbacks.get(event))

    async def call(self, fn: Callable[..., Any], fn_is_async: bool, *args: Any) -> Any:
        """fn(*args): a coroutine function on the loop, a plain one on a worker thread."""
        if fn_is_async:
            return await fn(*args)
        result = await asyncio.wrap_future(self.workers.submit(fn, *args))
        return await result if inspect.isawaitable(result) else result

    async def chain(
        self,
        event: str,
        read: Callable[[], HookInput],
        used: str,
        apply: Callable[[object], None] | None,
    ) -> HookOutput | None:
        """Run the callbacks of an event in order, each on the input as the one
        before left it, until one skips or aborts; return that one's output.
        apply takes a modified input or output that the event uses (used) into
        the call."""
        input = read()
        for i, (fn, fn_is_async) in enumerate(self.callbacks.get(event, ()), 1):
            which = f"{event} callback {i}"
            try:
                out = await self.call(fn, fn_is_async, input)
            except Exception as e:
                log.error("%s failed, taken as continue: %s", which, _describe(e), exc_info=e)
                continue
            action = out.get("action") if isinstance(out, dict) else None
            if action in ("skip", "abort"):
                return out  # type: ignore[no-any-return]
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
                apply(out[used])
                input = read()
            except ValueError as e:
                log.error("%s: %s; taken as continue", which, e)
        return None

    async def session_rows(self, step: tuple[tuple[str, Any], ...], key: str) -> None:
        for event, input_type in step:
            await self.chain(event, lambda: input_type(key), "", None)  # noqa: B023

    async def start(self, key: str) -> _Session:
        """Run the session's start the first time a session is seen; return once it has run."""
        session = self.open.get(key)
        if session is None:
            session = self.open[key] = _Session()
            starting = session.starting = asyncio.get_running_loop().create_future()
            try:
                await self.session_rows(START, key)
            finally:
                session.starting = None
                starting.set_result(None)
        elif session.starting is not None:
            # Shielded: a call that is cancelled must not cancel the start.
            await asyncio.shield(session.starting)
        return session

    async def end(self, key: str) -> None:
        """Run the session's end for a session started and not ended."""
        session = self.open.pop(key, None)
        if session is None:
            return
        if session.starting is not None:
            await asyncio.shield(session.starting)
        await self.session_rows(END, key)

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
        if kind in END_KINDS:
            await self.end(key)
            return
        await self.start(key)
        await on_event(self, key, dict(event))

    async def close(self) -> None:
        """At the hook's stop: end every session still open, in the order they started."""
        if self.tail is not None:
            await asyncio.shield(self.tail)
        for key in list(self.open):
            await self.end(key)

    def first_of_turn(self, session: _Session, turn: object, messages: Any) -> bool:
        """Whether a before_llm call is the first of its turn: of a TurnID new
        to the session or, from a host that sends none, of a request whose last
        message is the user's."""
        if not isinstance(turn, str) or not turn:
            return bool(messages) and messages[-1]["role"] == "user"
        if turn in session.turns:
            return False
        session.turns.add(turn)
        return True

    async def handle(self, method: str, received: dict[str, Any]) -> Any:
        """Run the rows of a method on a call; answer what their outcomes map to."""
        key = received.get("meta", {}).get("SessionKey") or ""
        session = await self.start(key)
        params = dict(received)
        result = await METHODS[method][1](self, session, key, params)
        if result is not None:
            return result
        if method == METHOD_APPROVE_TOOL:
            return await self.approve(params)
        return None if params == received else modify(params)

    async def approve(self, req: dict[str, Any]) -> ApproveToolResult | bool:
        """Ask can_use_tool about a call the rows let through."""
        if self.can_use_tool is None:
            return True
        tool, arguments = req["tool"], req.get("arguments", {})
        options = CanUseToolOptions(req.get("tool_kind"), list(req.get("affected_paths", [])))
        try:
            verdict: Any = await self.call(
                self.can_use_tool, is_async(self.can_use_tool), tool, arguments, options
            )
        except Exception as e:
            # Not an approval: a broken permission check leaves the call to the host.
            log.error("can_use_tool failed, taken as ask: %s", _describe(e), exc_info=e)
            return _ABSTAIN
        behavior = verdict.get("behavior") if isinstance(verdict, dict) else None
        if behavior == "allow":
            if "updated_input" not in verdict:
                return True
            updated = verdict["updated_input"]
            try:
                if not isinstance(updated, dict):
                    raise ValueError(f"updated_input is a {_kind(updated)}, not a dict")
                updated = _json_copy(updated, "updated_input")
            except ValueError as e:
                log.error("can_use_tool answered allow with %s: taken as ask", e)
                return _ABSTAIN
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
        return _ABSTAIN


# "ask" on the wire: a host without the approve_tool.abstain extension reads
# a denial, which is the safe side.
_ABSTAIN: ApproveToolResult = {"approved": False, "abstain": True}


def _refuse(reason: str) -> ApproveToolResult:
    return {"approved": False, "reason": reason}


def _json_copy(value: Any, what: str) -> JSON:
    """value as JSON carries it; a ValueError when it is not JSON."""
    try:
        return json.loads(json.dumps(value))  # type: ignore[no-any-return]
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} is not JSON: {e}") from None


def _kind(value: object) -> str:
    return type(value).__name__  # where a parameter named type hides the builtin


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"
