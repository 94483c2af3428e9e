"""Lifecycle hooks: the vocabulary of in-process agent SDKs' lifecycle hooks (the
Blade Agent SDK's) on a hook: their events, callbacks that answer continue,
skip or abort, with a modified input or output, and a can_use_tool permission
callback. The lifecycle layer registers the protocol handlers and observers
those callbacks need and translates both ways, so that a hook written that way
ports in minutes and runs out of process under any host of the protocol. The
events, their inputs and how each maps onto the protocol are the lifecycle
table's (schema/lifecycle.json, shown in docs/lifecycle.md), generated into
_lifecycle_gen; this runner runs its rows, the same in the Go, Python and
TypeScript SDKs. The seed's camelCase names are snake_case here: sessionId is
session_id, modifiedInput modified_input, canUseTool can_use_tool.

    from hookwire import HookEvent, HookOutput, LifecycleHook, PreToolUseInput

    def guard(input: PreToolUseInput) -> HookOutput:
        if "rm -rf" in str(input.tool_input.get("command")):
            return {"action": "abort", "reason": "dangerous command"}
        return {"action": "continue"}

    LifecycleHook("guard", hooks={HookEvent.PreToolUse: [guard]}).run()

"""

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
from ._lifecycle_gen import *  # noqa: F403 (the events, their inputs)
from ._lifecycle_support import (
    ARGUMENTS,
    READ,
    CanUseTool,
    CanUseToolOptions,
    HookOutput,
    Method,
    PermissionAllow,
    PermissionAsk,
    PermissionDeny,
    PermissionResult,
    Row,
    ToolInput,
    answer,
    as_json,
    get,
    replace,
    source,
)
from ._protocol_gen import EXT_APPROVE_TOOL_ARGUMENTS, ApproveToolResult, RuntimeEvent
from ._results import modify
from ._workers import Workers

__all__ = [
    *table.__all__,
    "CanUseTool",
    "CanUseToolOptions",
    "HookOutput",
    "LifecycleHook",
    "PermissionAllow",
    "PermissionAsk",
    "PermissionDeny",
    "PermissionResult",
    "ToolError",
    "ToolInput",
]

log = logging.getLogger("hookwire")


class LifecycleHook(Hook):
    """A hook speaking the lifecycle vocabulary. It registers what its callbacks need,
    so its hello modes follow from them: the method each event comes from
    (docs/lifecycle.md), the approval method for can_use_tool, an observer of every
    event and a close function for the events of runtime events and sessions. Add
    handlers of other methods, observers or plugin tools to it as to any hook. A
    callback that fails, or answers something else than an outcome, is logged and
    counts as continue: it does not stop the tool. A can_use_tool that fails counts
    as ask, so that a broken permission check approves nothing. Plain callbacks run
    on worker threads, as plain handlers do: guard what they share with a lock.
    """

    def __init__(
        self,
        name: str | None = None,
        *,
        hooks: table.LifecycleHooks | None = None,
        can_use_tool: CanUseTool | None = None,
        threads: int = 64,
    ) -> None:
        super().__init__(name, threads=threads)
        self._lifecycle = _Layer(self, hooks or {}, can_use_tool)


class _Layer:
    """Runs the callbacks of one hook on the rows of the lifecycle table.

    Its state is the event loop's: the handlers and the observer are
    coroutines, and only the callbacks run elsewhere.
    """

    def __init__(self, hook: Hook, hooks: Any, can_use_tool: CanUseTool | None) -> None:
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
        for method in table.METHODS:
            if any(self.has(row.event) for row in method.rows) or (
                method.approval and can_use_tool
            ):
                hook._register(method.name, functools.partial(self.handle, method))
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

    async def handle(self, method: Method, received: dict[str, Any]) -> Any:
        """Run a method's rows on a call, in the table's order, until a callback stops
        them, and answer the outcome it stopped them with; else can_use_tool's verdict
        on an approval, or the call as the callbacks left it."""
        key = get(received, table.SESSION_KEY.call) or ""
        await self.start(key)
        params = dict(received)  # the callbacks' changes replace its members
        for row in method.rows:
            if not self.has(row.event) or not self.holds(row, key, params):
                continue
            read = functools.partial(_read, row, key, params)
            if row.modify is None:
                stop = await self.chain(row.event, read, "", None)
            else:
                take = functools.partial(replace, params, row.modify)
                stop = await self.chain(row.event, read, row.modify.value, take)
            if stop is None:
                continue
            outcome = row.skip if stop["action"] == "skip" else row.abort
            if outcome is None or outcome.action == "none":
                break
            return answer(outcome, stop, get(params, "tool"))
        if method.approval:
            return await self.approve(params)
        return None if params == received else modify(params)

    def holds(self, row: Row, key: str, params: dict[str, Any]) -> bool:
        """Whether a row's conditions hold for a call of the session key."""
        return (not row.when or self.condition(row.when, key, params)) and not (
            row.unless and self.condition(row.unless, key, params)
        )

    def condition(self, name: str, key: str, params: dict[str, Any]) -> bool:
        """Whether a named condition of the table holds for a call of the session key."""
        if name == "first_of_turn":
            return self.first_of_turn(key, get(params, "meta.TurnID"), params.get("messages"))
        if name == "is_error":
            return get(params, "result.is_error") is True
        raise ValueError(f"the lifecycle table names the condition {name!r}, unknown here")

    async def on_event(self, event: dict[str, Any]) -> None:
        """Run a runtime event in its session: end the session, or start it and run the
        event's rows."""
        key = next(filter(None, (get(event, path) for path in table.SESSION_KEY.event)), None)
        if not key or not isinstance(key, str):
            return  # in no session
        kind = event.get("kind")
        if kind in table.END_KINDS:
            await self.end(key)
            return
        await self.start(key)
        for row in table.EVENT_ROWS:
            if row.kind == kind and self.has(row.event):
                await self.chain(row.event, functools.partial(_read, row, key, event), "", None)

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
            await self.on_event(dict(event))

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
        options = CanUseToolOptions(req.get("tool_kind"), list(req.get("affected_paths", [])))
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


# "ask" on the wire: a host without the abstain extension (EXT_APPROVE_TOOL_ABSTAIN) reads
# a denial, which is the safe side.
_ABSTAIN: ApproveToolResult = {"approved": False, "abstain": True}


def _refuse(reason: str) -> ApproveToolResult:
    return {"approved": False, "reason": reason}


def _read(row: Row, key: str, params: dict[str, Any]) -> Any:
    """A row's input, read from a call or event of the session key."""
    return row.input_type(
        key, **{s.field: READ[s.type](source(params, s.member)) for s in row.input}
    )


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"
