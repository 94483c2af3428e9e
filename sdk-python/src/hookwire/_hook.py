"""Hook: a registry of handlers and the ways to run it.

The top of the package's layers: model (the message types, results,
errors) -> dispatch (Registry, in _registry) -> transports (_stdio,
_server, _inline_server, _testing). Hook is the one class that knows both the registry and
the transports; nothing below imports this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._log import configure as _configure_logging
from ._registry import Registry

__all__ = ["Hook"]

if TYPE_CHECKING:
    from ._testing import TestClient


class Hook(Registry):
    """A hook process: register handlers with its decorators, then run().

    >>> hook = Hook("guard")
    >>> @hook.before_tool
    ... def guard(call: BeforeToolParams) -> BeforeToolReply:
    ...     return deny_tool("not today") if call["tool"] == "exec" else None

    name is what hook.hello answers; by default the name the host gives the
    hook. threads is how many plain-function handlers may run at once
    (async handlers run on the event loop, as many as there are requests).
    """

    def run(self) -> None:
        """Serve the host on stdin and stdout until stdin closes, SIGTERM or SIGINT.

        While it runs, anything else written to stdout (print, C extensions,
        child processes) goes to stderr, and logging goes to stderr.
        """
        _configure_logging()
        if self.needs_loop():
            import asyncio

            from ._server import serve_async

            asyncio.run(serve_async(self))
            return
        from ._inline_server import serve

        serve(self)

    async def serve(self) -> None:
        """run(), for a program that already has an event loop."""
        from ._server import serve_async

        await serve_async(self)

    def test_client(self) -> TestClient:
        """A client that calls this hook's handlers in-process, for tests."""
        from ._testing import TestClient

        return TestClient(self)
