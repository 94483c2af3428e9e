# The lifecycle layer's runner. Its vocabulary and docs, this module's
# __doc__ included, are generated from the lifecycle table into _lifecycle_gen.

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Awaitable, Sequence
from typing import Any, Callable

from . import _lifecycle_gen as table
from ._async import is_async
from ._errors import ToolError
from ._hook import Hook
from ._lifecycle_gen import *  # noqa: F403 (the events, their inputs, the vocabulary)
from ._lifecycle_support import ARGUMENTS, as_json
from ._protocol_gen import (
    EXT_APPROVE_TOOL_ARGUMENTS,
    METHOD_APPROVE_TOOL,
    ApproveToolResult,
    RuntimeEvent,
)
from ._workers import Workers

__all__ = [*table.__all__, "LifecycleHook", "ToolError"]
__doc__ = table.__doc__

log = logging.getLogger("hookwire")


class LifecycleHook(Hook):
    __doc__ = table.LIFECYCLE_HOOK_DOC

    def __init__(
        self,
        name: str | None = None,
        *,
        hooks: table.LifecycleHooks | None = None,
        can_use_tool: table.CanUseTool | None = None,
        threads: int = 64,
    ) -> None:
        super().__init__(name, threads=threads)
        self._lifecycle = _Layer(self, hooks or {}, can_use_tool)


class _Layer:
    """Runs the callbacks of one hook on the rows of the lifecycle table.

    Its state is the event loop's: the handlers and the observer are
    coroutines, and only the callbacks run elsewhere.
    """

    def __init__(self, hook: Hook, hooks: Any, can_use_tool: table.CanUseTool | None) -> None:
        self.hook = hook
        self.workers = Workers(hook.threads)  # for the plain callbacks
        self.can_use_tool = can_use_tool and self.coroutine(can_use_tool)
        self.callbacks: dict[str, list[Callable[..., Awaitable[Any]]]] = {}
        for event, callbacks in hooks.items():
            if event not in table.EVENTS:
                raise ValueError(
                    f"unknown lifecycle event {event!r}: one of {', '.join(table.EVENTS)}"
                )
            if not isinstance(callbacks, Sequence) or not all(callable(c) for c in callbacks):
                raise TypeError(f"the {event} callbacks are not a sequence of callables")
            self.callbacks[event] = [self.coroutine(fn) for fn in callbacks]
        # The sessions started and not ended, in the order they started, with their start.
        self.open: dict[str, asyncio.Future[None]] = {}
        self.turns: dict[str, set[str]] = {}  # by session, those whose first LLM call was seen
        self.events: asyncio.Lock | None = None  # taken by each notification, in turn
        for method, (events, handler) in table.METHODS.items():
            if any(map(self.has, events)) or (method == METHOD_APPROVE_TOOL and can_use_tool):
                hook._register(method, functools.partial(handler, self))
        if any(map(self.has, table.OBSERVED)):
            hook.observe(self.observe)
            hook.on_close(self.close)

    def has(self, event: str) -> bool:
        return bool(self.callbacks.get(event))

    def coroutine(self, fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        """fn as a coroutine function: itself, or one that runs it on a worker
        thread. Asked once, when it is given, as the SDK asks of its handlers."""
        return fn if is_async(fn) else functools.partial(self.in_thread, fn)

    async def in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        result = await asyncio.wrap_future(self.workers.submit(fn, *args))
        return await result if inspect.isawaitable(result) else result

    async def chain(
        self, event: str, read: Callable[[], Any], used: str, apply: Callable[[Any], None] | None
    ) -> Any:
        """Run the callbacks of an event in order, each on the input as the one
        before left it, until one skips or aborts; return that one's output.
        apply takes a modified input or output that the event uses (used) into
        the call."""
        input = read()
        for i, fn in enumerate(self.callbacks.get(event, ()), 1):
            which = f"{event} callback {i}"
            try:
                out = await fn(input)
            except Exception as e:
                log.error("%s failed, taken as continue: %s", which, _describe(e), exc_info=e)
                continue
            action = out.get("action") if isinstance(out, dict) else None
            if action in ("skip", "abort"):
                return out
            if action != "continue":
                log.error(
                    "%s answered %r, not continue, skip or abort: taken as continue", which, out
                )
                continue
            for key in sorted({"modified_input", "modified_output"} & out.keys() - {used}):
                log.warning("%s answered %s, which %s has no use for: ignored", which, key, event)
            if apply is not None and used in out:
                try:
                    apply(out[used])
                    input = read()
                except ValueError as e:
                    log.error("%s: %s; taken as continue", which, e)
        return None

    async def start(self, key: str) -> None:
        """Run the session's start the first time a session is seen; return once it has run."""
        if key not in self.open:
            self.open[key] = asyncio.ensure_future(self.session_rows(table.START, key))
        await asyncio.shield(self.open[key])  # a call cancelled must not cancel the start

    async def end(self, key: str) -> None:
        """Run the session's end for a session started and not ended."""
        started = self.open.pop(key, None)
        self.turns.pop(key, None)
        if started is not None:
            await asyncio.shield(started)
            await self.session_rows(table.END, key)

    async def session_rows(self, step: tuple[tuple[str, Any], ...], key: str) -> None:
        for event, input_type in step:
            await self.chain(event, lambda: input_type(key), "", None)  # noqa: B023

    async def observe(self, event: RuntimeEvent) -> None:
        # One at a time, in the order they came (the lock wakes its waiters
        # in turn): a session's last TaskCompleted runs before its SessionEnd.
        self.events = self.events or asyncio.Lock()
        async with self.events:
            await table.on_event(self, dict(event))

    async def close(self) -> None:
        """At the hook's stop: end every session still open, in the order they started."""
        self.events = self.events or asyncio.Lock()
        async with self.events:
            for key in list(self.open):
                await self.end(key)

    def first_of_turn(self, key: str, turn: object, messages: Any) -> bool:
        """Whether a before_llm call is the first of its turn: of a TurnID new
        to the session or, from a host that sends none, of a request whose last
        message is the user's."""
        if not isinstance(turn, str) or not turn:
            return bool(messages) and messages[-1]["role"] == "user"
        seen = self.turns.setdefault(key, set())
        first = turn not in seen
        seen.add(turn)
        return first

    async def approve(self, req: dict[str, Any]) -> ApproveToolResult | bool:
        """Ask can_use_tool about a call the rows let through."""
        if self.can_use_tool is None:
            return True
        tool = req["tool"]
        options = table.CanUseToolOptions(req.get("tool_kind"), list(req.get("affected_paths", [])))
        try:
            verdict = await self.can_use_tool(tool, req.get("arguments", {}), options)
        except Exception as e:
            # Not an approval: a broken permission check leaves the call to the host.
            log.error("can_use_tool failed, taken as ask: %s", _describe(e), exc_info=e)
            return _ABSTAIN
        behavior = verdict.get("behavior") if isinstance(verdict, dict) else None
        if behavior == "allow" and "updated_input" in verdict:
            try:
                updated = as_json(verdict["updated_input"], dict, "updated_input", ARGUMENTS)
            except ValueError as e:
                log.error("can_use_tool answered allow with %s: taken as ask", e)
                return _ABSTAIN
            if EXT_APPROVE_TOOL_ARGUMENTS in self.hook.host_extensions:
                return {"approved": True, "arguments": updated}
            # Running the call with the arguments it came with would not be what was allowed.
            return _refuse(
                f"canUseTool allowed {tool} with updated input, which this host cannot apply "
                f"(it does not announce {EXT_APPROVE_TOOL_ARGUMENTS})"
            )
        if behavior == "allow":
            return True
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


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"
