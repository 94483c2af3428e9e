"""Registry: the handlers of one hook process, and how each method is answered.

The dispatch layer: above the model (the message types, results and errors),
below the transports (stdio, the event loop, the test client), which it never
imports. Hook, in _hook, adds the ways to run a registry over them.
"""

from __future__ import annotations

from collections.abc import Awaitable
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, TypeVar, Union, overload

from ._async import is_async
from ._errors import HookError
from ._log import log
from ._methods_gen import (
    BOOL_MEMBERS,
    DEFAULT_MAX_LINE_BYTES,
    MODIFY_MEMBERS,
    NEEDS_HANDLER,
    _Handlers,
)
from ._protocol_gen import (
    ACTION_CONTINUE,
    CODE_INVALID_PARAMS,
    CODE_METHOD_NOT_FOUND,
    DECODERS,
    LEGACY_EVENT_KINDS,
    METHOD_BEFORE_LLM,
    METHOD_BEFORE_TOOL,
    METHOD_EVENT,
    METHOD_HELLO,
    METHOD_RUNTIME_EVENT,
    METHODS,
    MODES,
    PROTOCOL_VERSION,
    DecodeError,
    EventScope,
    LegacyEvent,
    Mode,
    RuntimeEvent,
    decode_legacy_event,
    decode_runtime_event,
)
from ._results import Modify, respond

# For type checkers only: at run time the tools' module (and with it
# inspect) loads when a hook first declares a tool.
if TYPE_CHECKING:
    from ._tools import Tool

Observer = TypeVar("Observer", bound=Callable[[RuntimeEvent], Union[None, Awaitable[None]]])
Closer = TypeVar("Closer", bound=Callable[[], Union[None, Awaitable[None]]])
F = TypeVar("F", bound=Callable[..., Any])

# What more a call with no handler means to the host, by mode.
_CONSEQUENCE = {"approve": ", which a host may take as a denial of every tool call"}


class Route:
    """How one request is answered: call(params), if any, then finish(params, its reply).

    call is the user's handler or a plugin tool; is_async says whether it
    must be awaited or run on a worker thread. finish is quick, never blocks,
    and turns the reply into the result that goes on the wire. A method's
    route is made once and kept (see Registry.route): it holds nothing of a
    request.
    """

    __slots__ = ("call", "finish", "is_async")

    def __init__(
        self,
        call: Callable[[Any], Any] | None,
        is_async: bool,
        finish: Callable[[dict[str, Any], Any], Any],
    ) -> None:
        self.call = call
        self.is_async = is_async
        self.finish = finish


class _Handler:
    __slots__ = ("fn", "is_async")

    def __init__(self, fn: Callable[..., Any], is_async: bool) -> None:
        self.fn = fn
        self.is_async = is_async


class Registry(_Handlers):
    """The handlers of a hook process: register them with its decorators.

    name is what hook.hello answers; by default the name the host gives the
    hook. threads is how many plain-function handlers may run at once
    (async handlers run on the event loop, as many as there are requests).
    """

    def __init__(self, name: str | None = None, *, threads: int = 64) -> None:
        self.name = name
        self._handlers: dict[str, _Handler] = {}
        self._routes: dict[str, Route] = {}  # each method's, made at its first request
        # Each observer, with what its kinds match (None: every kind).
        self._observers: list[tuple[Callable[[str], object] | None, _Handler]] = []
        self._tools: dict[str, Tool] = {}
        self._closers: list[_Handler] = []
        self._host_extensions: tuple[str, ...] = ()
        self._max_line_bytes = DEFAULT_MAX_LINE_BYTES
        if threads < 1:
            raise ValueError("threads must be at least 1")
        self.threads = threads

    # Registration: the decorators of the methods (before_llm and the rest)
    # are _Handlers', generated from the method table; they come here.

    @overload
    def observe(self, fn: Observer, /) -> Observer: ...
    @overload
    def observe(self, *kinds: str) -> Callable[[Observer], Observer]: ...

    def observe(self, *kinds: Any) -> Any:
        """Observe runtime events whose kind matches one of the globs (all, when none).

        Legacy hook.event notifications arrive as runtime events too, their
        kinds mapped (tool_exec_start is agent.tool.exec_start), so one
        observer sees both. Observers get no say: what they return is ignored.
        """
        if len(kinds) == 1 and callable(kinds[0]):
            return self.observe()(kinds[0])
        for k in kinds:
            if not isinstance(k, str):
                raise TypeError(f"observe() takes kind globs, got {k!r}")

        matches = _matcher(kinds)

        def register(fn: Observer) -> Observer:
            self._observers.append((matches, _Handler(fn, is_async(fn))))
            return fn

        return register

    @overload
    def tool(self, fn: F) -> F: ...
    @overload
    def tool(
        self,
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> Callable[[F], F]: ...

    def tool(
        self,
        fn: Any = None,
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> Any:
        """Declare a plugin tool, answered by this hook.

        The hook adds the tool to every before_llm request and answers its
        calls in before_tool. By default the name is the function's, the
        description its docstring, and the parameters' JSON Schema comes
        from its type hints; parameters= replaces that schema.
        """

        # Here rather than at the top: a hook without tools does without the module.
        from ._tools import Tool

        def register(fn: F) -> F:
            t = Tool(fn, name=name, description=description, parameters=parameters)
            if t.name in self._tools:
                raise ValueError(f"tool {t.name} is already declared")
            self._tools[t.name] = t
            return fn

        return register(fn) if fn is not None else register

    def on_close(self, fn: Closer) -> Closer:
        """Run fn when the hook stops serving: stdin closed, SIGTERM or SIGINT.

        It runs after the handlers in flight have answered (at a signal,
        without waiting for them), before run() returns: the place to flush
        what the hook keeps. The functions run one after the other, in the
        order registered; one that raises is logged and the next one runs. A
        second signal ends the process without waiting for them.
        """
        self._closers.append(_Handler(fn, is_async(fn)))
        return fn

    @property
    def host_extensions(self) -> tuple[str, ...]:
        """The protocol extensions the host announced in its last hook.hello.

        Such as "runtime_event.session": a hook must not send what its host
        did not announce. Empty before the first hello.
        """
        return self._host_extensions

    @property
    def max_line_bytes(self) -> int:
        """The longest reply line the host reads, in bytes, newline included.

        What the host announced in its last hook.hello (max_line_bytes), or
        1 MiB, what PicoClaw's host reads, when it announced nothing. A
        longer reply is not sent: with a warning, an after_tool modify goes
        cut to fit, and any other reply becomes a denial or an abort_turn,
        never continue (docs/protocol.md, "Replies longer than the host
        reads").
        """
        return self._max_line_bytes

    def _register(self, method: str, fn: Callable[..., Any]) -> None:
        if method in self._handlers:
            raise ValueError(f"{method} already has a handler")
        self._handlers[method] = _Handler(fn, is_async(fn))
        self._routes.clear()

    @property
    def modes(self) -> list[Mode]:
        """The hello modes the registered handlers need, in protocol order."""
        needed = {METHODS[m].mode for m in self._handlers}
        if self._observers:
            needed.add("observe")
        if self._tools:
            needed.update(("llm", "tool"))
        return [m for m in MODES if m in needed]

    # What the transports ask.

    def needs_loop(self) -> bool:
        """Whether a handler, observer, tool or on_close function is a coroutine function."""
        return any(
            h.is_async
            for h in (*self._handlers.values(), *(h for _, h in self._observers), *self._closers)
        ) or any(t.is_async for t in self._tools.values())

    # Dispatch, shared by the stdio server and the test client.

    def route(self, method: str, params: dict[str, Any]) -> Route:
        """How to answer a request; raises HookError for one that gets an error reply."""
        info = METHODS.get(method)
        if info is None or info.notification:
            raise HookError(CODE_METHOD_NOT_FOUND, f"method not found: {method}")
        if method == METHOD_HELLO:
            # Read leniently: whatever the host sent, the hook wants to start.
            return Route(None, False, lambda params, _: self._hello(params))
        try:
            DECODERS[info.params](params)
        except DecodeError as e:
            raise HookError(CODE_INVALID_PARAMS, f"invalid params: {e}") from None
        if method == METHOD_BEFORE_TOOL:
            tool = self._tools.get(params["tool"])
            if tool is not None:
                call = tool.call_async if tool.is_async else tool.call
                return Route(
                    lambda p: call(p.get("arguments")),
                    tool.is_async,
                    lambda p, result: self._finish(method, p, respond(result)),
                )
        route = self._routes.get(method)
        if route is None:
            handler = self._handlers.get(method)
            if handler is None and method in NEEDS_HANDLER:
                # Never decide by default: an approval nobody decided is an error.
                raise HookError(CODE_METHOD_NOT_FOUND, f"no handler for {method}")
            finish = partial(self._finish, method)
            if handler is None:
                route = Route(None, False, finish)
            else:
                route = Route(handler.fn, handler.is_async, finish)
            self._routes[method] = route
        return route

    def _finish(self, method: str, params: dict[str, Any], reply: Any) -> Any:
        """The wire result of a handler's reply, checked against the method's result type."""
        member = BOOL_MEMBERS.get(method)
        if member is not None:
            if isinstance(reply, bool):
                return {member: reply}
            if not isinstance(reply, dict):
                raise TypeError(
                    f"the {_short(method)} handler returned {reply!r}: return True, False, "
                    f'or {{"{member}": False, "reason": "..."}}'
                )
            result = reply
        else:
            result = _render(method, reply)
            if method == METHOD_BEFORE_LLM and self._tools:
                result = self._with_tools(params, result)
            elif reply is None:
                return result  # made here, and valid: spare the check on the busiest path
        try:
            DECODERS[METHODS[method].result or ""](result)
        except DecodeError as e:
            raise ValueError(f"the {method} handler's result is not valid: {e}") from None
        return result

    def observers(
        self, method: str, params: dict[str, Any]
    ) -> tuple[RuntimeEvent | None, list[_Handler]]:
        """The event a notification carries, and the observers it goes to.

        The event is None, and goes nowhere, when the method is not an
        observe notification or its params do not decode.
        """
        try:
            if method == METHOD_EVENT:
                event = _from_legacy(decode_legacy_event(params))
            elif method == METHOD_RUNTIME_EVENT:
                event = decode_runtime_event(params)
            else:
                log.debug("ignored the notification %s", method)
                return None, []
        except DecodeError as e:
            log.warning("ignored a %s that does not decode: %s", method, e)
            return None, []
        kind = event["kind"]
        matched = [h for matches, h in self._observers if matches is None or matches(kind)]
        return event, matched

    async def _close(self) -> None:
        """Run the on_close functions, in order; one that raises is logged."""
        for c in self._closers:
            try:
                done = c.fn()
                if c.is_async:
                    await done
            except Exception:
                log.exception("the on_close function %s failed", getattr(c.fn, "__name__", c.fn))

    def _close_plain(self) -> None:
        """_close(), with no event loop, for a hook whose on_close functions are all plain."""
        for c in self._closers:
            try:
                c.fn()
            except Exception:
                log.exception("the on_close function %s failed", getattr(c.fn, "__name__", c.fn))

    def _hello(self, params: dict[str, Any]) -> dict[str, Any]:
        extensions = params.get("extensions")
        if not isinstance(extensions, list):
            extensions = []
        self._host_extensions = tuple(e for e in extensions if isinstance(e, str))
        limit = params.get("max_line_bytes")
        if not (type(limit) is int and limit > 0):
            limit = DEFAULT_MAX_LINE_BYTES
        self._max_line_bytes = limit
        modes = self.modes
        granted = params.get("modes")
        for mode in granted if isinstance(granted, list) else ():
            if isinstance(mode, str) and mode not in modes:
                log.warning(
                    "the host grants the %s mode, which no handler of this hook serves: %s",
                    mode,
                    _unhandled(mode),
                )
        version = params.get("version")
        if version != PROTOCOL_VERSION:
            log.warning(
                "the host speaks protocol version %r; this hook speaks %d and carries on",
                version,
                PROTOCOL_VERSION,
            )
        # modes is our addition to the hello result; hosts that do not know it ignore it.
        return {"ok": True, "name": self.name or params.get("name", ""), "modes": modes}

    def _with_tools(self, request: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
        action = result.get("action") or "continue"
        if action == "modify":
            request = result["request"]
        elif action != "continue":
            return result
        tools = list(request.get("tools") or [])
        present = {t.get("function", {}).get("name") for t in tools if isinstance(t, dict)}
        added = [t.definition for t in self._tools.values() if t.name not in present]
        if not added:
            return result
        modified: dict[str, Any] = {
            "action": "modify",
            "request": {**request, "tools": tools + added},
        }
        if "reason" in result:
            modified["reason"] = result["reason"]
        return modified


def _short(method: str) -> str:
    """The name of a method without its namespace, as its decorator has it: before_llm."""
    return method.rpartition(".")[2]


def _unhandled(mode: str) -> str:
    """What a host's calls of a mode get from a hook with no handler for it."""
    methods = [m.name for m in METHODS.values() if m.mode == mode]
    if not methods:
        return "its calls get an error"
    if all(METHODS[m].notification for m in methods):
        return "events are dropped"
    names = " and ".join(methods)
    verb = "is" if len(methods) == 1 else "are"
    if any(m in NEEDS_HANDLER for m in methods):
        return f"{names} {verb} answered with an error{_CONSEQUENCE.get(mode, '')}"
    return f"{names} {verb} answered with {ACTION_CONTINUE}"


def _matcher(kinds: tuple[str, ...]) -> Callable[[str], object] | None:
    """What observe()'s kind globs match, as one pattern: whether an event goes to the observer."""
    if not kinds:
        return None
    import fnmatch
    import re

    return re.compile("|".join(fnmatch.translate(k) for k in kinds)).match


def _render(method: str, reply: Any) -> dict[str, Any]:
    """The wire result of an interceptor's reply."""
    if reply is None:
        return {"action": "continue"}
    if isinstance(reply, Modify):
        result = {"action": "modify", MODIFY_MEMBERS[method]: reply.value}
        if reply.reason is not None:
            result["reason"] = reply.reason
        return result
    if not isinstance(reply, dict):
        raise TypeError(
            f"the {method} handler returned {type(reply).__name__}: return None, a dict, or what "
            "continue_(), modify(), respond(), deny_tool(), abort_turn() or hard_abort() returns"
        )
    return reply


def _from_legacy(event: LegacyEvent) -> RuntimeEvent:
    """A legacy hook.event as the runtime event a newer host sends for it."""
    kind = event["Kind"]
    meta = event.get("Meta") or {}
    scope: EventScope = {}
    if "AgentID" in meta:
        scope["agent_id"] = meta["AgentID"]
    if "SessionKey" in meta:
        scope["session_key"] = meta["SessionKey"]
    if "TurnID" in meta:
        scope["turn_id"] = meta["TurnID"]
    return {
        "kind": LEGACY_EVENT_KINDS.get(kind, kind),
        "source": {},
        "scope": scope,
        "payload": event.get("Payload"),
    }
