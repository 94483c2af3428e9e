"""TestClient: call a hook's handlers in-process, as the host would, from tests."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from ._errors import HookError, failure_message
from ._methods_gen import _TestCalls
from ._protocol_gen import (
    CODE_HANDLER_ERROR,
    CODE_INVALID_PARAMS,
    METHOD_EVENT,
    METHOD_HELLO,
    METHOD_RUNTIME_EVENT,
    PROTOCOL_VERSION,
    HelloResult,
    LegacyEvent,
    Mode,
    RuntimeEvent,
)
from ._workers import Workers

__all__ = ["TestClient"]

if TYPE_CHECKING:
    from ._registry import Registry


class TestClient(_TestCalls):
    """Calls a hook's handlers in-process, with no subprocess and no stdio.

    Each method a hook handles has its call, before_tool(params) and the
    rest. Each call goes through the same dispatch as a real request, and
    returns the result exactly as it would go on the wire (decoded from its
    JSON).
    An error reply raises HookError with the code, message and data the
    host would get; the handler's exception (a HookError it raised, or the
    exception it failed with) is its __cause__.
    """

    __test__ = False  # not a pytest test class, whatever its name

    def __init__(self, hook: Registry) -> None:
        self._hook = hook
        self._workers = Workers(hook.threads)
        self._closed = False

    def hello(
        self,
        name: str = "test",
        version: int = PROTOCOL_VERSION,
        modes: list[Mode] | None = None,
        extensions: list[str] | None = None,
    ) -> HelloResult:
        """Shake hands as a host would; extensions are those the host announces."""
        params: dict[str, Any] = {
            "name": name,
            "version": version,
            "modes": modes or self._hook.modes,
        }
        if extensions is not None:
            params["extensions"] = extensions
        result: HelloResult = self.call(METHOD_HELLO, params)
        return result

    def runtime_event(self, event: RuntimeEvent) -> None:
        """Deliver a runtime event to the observers it matches, and wait for them.

        Unlike on the wire, where observer failures are only logged, the
        first failure is raised, so a test sees it.
        """
        self.notify(METHOD_RUNTIME_EVENT, event)

    def legacy_event(self, event: LegacyEvent) -> None:
        """Deliver a legacy hook.event, as runtime_event() does a runtime event."""
        self.notify(METHOD_EVENT, event)

    def call(self, method: str, params: Any) -> Any:
        """Send any request; return its result as the wire carries it."""
        return _run(self.call_async(method, params))

    def notify(self, method: str, params: Any) -> None:
        """Send any notification, and wait for the observers it reaches."""
        _run(self.notify_async(method, params))

    def close(self) -> None:
        """Stop the hook as a closed stdin would: run its on_close functions, once."""
        _run(self.close_async())

    async def close_async(self) -> None:
        """close(), for tests that run in an event loop of their own."""
        if not self._closed:
            self._closed = True
            await self._hook._close()

    async def call_async(self, method: str, params: Any) -> Any:
        """call(), for tests that run in an event loop of their own."""
        params = _wire(params)
        if not isinstance(params, dict):
            raise HookError(CODE_INVALID_PARAMS, f"invalid params: {method} takes an object")
        route = self._hook.route(method, params)
        try:
            if route.call is None:
                reply = None
            elif route.is_async:
                reply = await route.call(params)
            else:
                reply = await asyncio.wrap_future(self._workers.submit(route.call, params))
            return _wire(route.finish(params, reply))
        except HookError as e:
            # As the host gets it: data goes through JSON too.
            try:
                data = _wire(e.data)
            except (TypeError, ValueError, RecursionError) as bad:
                message = f"the data of the error {e.code} ({e.message}) is not JSON: {bad}"
                raise HookError(CODE_HANDLER_ERROR, message) from e
            raise HookError(e.code, e.message, data) from e
        except Exception as e:
            raise HookError(CODE_HANDLER_ERROR, failure_message(e)) from e

    async def notify_async(self, method: str, params: Any) -> None:
        """notify(), for tests that run in an event loop of their own."""
        event, observers = self._hook.observers(method, _wire(params))
        for o in observers:
            if o.is_async:
                await o.fn(event)
            else:
                await asyncio.wrap_future(self._workers.submit(o.fn, event))


def _wire(value: Any) -> Any:
    """value as the other side decodes it: a fresh copy, and proof that it is JSON."""
    return json.loads(json.dumps(value))


def _run(coroutine: Any) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    coroutine.close()
    raise RuntimeError(
        "TestClient's plain methods start an event loop of their own; "
        "inside a running one, await call_async() or notify_async()"
    )
