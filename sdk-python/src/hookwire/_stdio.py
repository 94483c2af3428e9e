"""The stdio server: the protocol on stdin and stdout, one JSON message per line.

One event loop reads stdin and answers every request concurrently: async
handlers run as tasks on the loop, sync handlers on worker threads, and
whoever finishes a reply writes it, whole, under one lock. Nothing limits
the length of a line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from ._hook import (
    HANDLER_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    HookError,
    Route,
)

if TYPE_CHECKING:
    from ._hook import Hook

log = logging.getLogger("hookwire")

_dumps = json.JSONEncoder(separators=(",", ":")).encode


async def serve(hook: Hook) -> None:
    loop = asyncio.get_running_loop()
    with _claim_stdio() as (fd_in, fd_out):
        server = _Server(hook, fd_out, loop)
        stopped: asyncio.Future[None] = loop.create_future()

        def stop() -> None:
            if not stopped.done():
                stopped.set_result(None)

        signals = _on_signals(loop, stop)
        transport = await _read(loop, fd_in, server)
        try:
            await asyncio.wait({server.eof, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not stopped.done():
                # stdin is closed: answer what is in flight, then exit, unless
                # a signal cuts the wait short.
                drained = asyncio.ensure_future(server.drain())
                await asyncio.wait({drained, stopped}, return_when=asyncio.FIRST_COMPLETED)
                drained.cancel()
            if stopped.done():
                log.info(
                    "signal received: exiting without waiting for %d handlers", server.in_flight
                )
                server.cancel()
        finally:
            for s in signals:
                loop.remove_signal_handler(s)
            if transport is not None:
                transport.close()
            os.set_blocking(fd_in, True)


class _Server(asyncio.Protocol):
    def __init__(self, hook: Hook, fd_out: int, loop: asyncio.AbstractEventLoop) -> None:
        self._hook = hook
        self._fd = fd_out
        self._lock = threading.Lock()
        self._loop = loop
        self._partial = bytearray()
        self._tasks: set[asyncio.Future[Any]] = set()
        self._jobs: set[Future[Any]] = set()
        self._broken = False
        self.eof: asyncio.Future[None] = loop.create_future()

    @property
    def in_flight(self) -> int:
        return len(self._tasks) + len(self._jobs)

    # asyncio.Protocol: stdin arrives in chunks; cut them into lines.

    def data_received(self, data: bytes) -> None:
        start = 0
        if self._partial:
            end = data.find(b"\n")
            if end < 0:
                self._partial += data
                return
            self._partial += data[:end]
            line = bytes(self._partial)
            self._partial.clear()
            self._line(line)
            start = end + 1
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            self._line(data[start:end])
            start = end + 1
        if start < len(data):
            self._partial += data[start:]

    def eof_received(self) -> bool | None:
        if self._partial:
            # A last line without its newline is still a message.
            line = bytes(self._partial)
            self._partial.clear()
            self._line(line)
        if not self.eof.done():
            self.eof.set_result(None)
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.eof.done():
            self.eof.set_result(None)

    # One message.

    def _line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError as e:
            self._error(None, PARSE_ERROR, f"parse error: {e}")
            return
        if not isinstance(message, dict):
            self._error(None, INVALID_REQUEST, "invalid request: not a JSON object")
            return
        method = message.get("method")
        if not isinstance(method, str):
            log.warning("ignored a message that is not a request: %.200s", line)
            return
        params = message.get("params", {})
        request_id = message.get("id")
        # Older hosts send notifications with an id of 0.
        if request_id is None or request_id == 0:
            self._notify(method, params)
            return
        if not isinstance(params, dict):
            self._error(request_id, INVALID_PARAMS, f"invalid params: {method} takes an object")
            return
        try:
            route = self._hook.route(method, params)
        except HookError as e:
            self._error(request_id, e.code, e.message)
            return
        if route.call is None:
            self._answer(request_id, method, route, params)
        elif route.is_async:
            self._track(
                self._loop.create_task(self._answer_async(request_id, method, route, params))
            )
        else:
            job = self._hook._workers.submit(self._answer, request_id, method, route, params)
            self._jobs.add(job)
            job.add_done_callback(self._jobs.discard)

    def _answer(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        try:
            reply = route.call(params) if route.call is not None else None
            self._result(request_id, route.finish(reply))
        except Exception as e:
            self._failed(request_id, method, e)

    async def _answer_async(
        self, request_id: Any, method: str, route: Route, params: dict[str, Any]
    ) -> None:
        assert route.call is not None
        try:
            self._result(request_id, route.finish(await route.call(params)))
        except Exception as e:
            self._failed(request_id, method, e)

    def _notify(self, method: str, params: Any) -> None:
        if not isinstance(params, dict):
            log.warning("ignored %s: its params are not an object", method)
            return
        event, observers = self._hook.observers(method, params)
        for observer in observers:
            if observer.is_async:
                self._track(self._loop.create_task(_observe_async(observer.fn, event)))
            else:
                job = self._hook._workers.submit(_observe, observer.fn, event)
                self._jobs.add(job)
                job.add_done_callback(self._jobs.discard)

    def _track(self, task: asyncio.Future[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        while self._tasks or self._jobs:
            pending = set(self._tasks) | {asyncio.wrap_future(j) for j in list(self._jobs)}
            await asyncio.wait(pending)

    def cancel(self) -> None:
        for task in self._tasks:
            task.cancel()

    # Replies.

    def _result(self, request_id: Any, result: Any) -> None:
        self._write(_dumps({"jsonrpc": "2.0", "id": request_id, "result": result}))

    def _failed(self, request_id: Any, method: str, e: Exception) -> None:
        log.error("%s handler failed", method, exc_info=e)
        self._error(request_id, HANDLER_ERROR, str(e) or type(e).__name__)

    def _error(self, request_id: Any, code: int, message: str) -> None:
        self._write(
            _dumps(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
            )
        )

    def _write(self, line: str) -> None:
        data = memoryview((line + "\n").encode())
        with self._lock:
            if self._broken:
                return
            try:
                while data:
                    data = data[os.write(self._fd, data) :]
            except OSError as e:
                # The host has gone; stdin will close too, and the hook with it.
                self._broken = True
                log.error("cannot write to the host: %s", e)


def _observe(fn: Any, event: Any) -> None:
    try:
        fn(event)
    except Exception:
        log.exception("observer %s failed", getattr(fn, "__name__", fn))


async def _observe_async(fn: Any, event: Any) -> None:
    try:
        await fn(event)
    except Exception:
        log.exception("observer %s failed", getattr(fn, "__name__", fn))


@contextmanager
def _claim_stdio() -> Iterator[tuple[int, int]]:
    """Take stdin and stdout for the protocol, at the file-descriptor level.

    The protocol gets private duplicates of fd 0 and fd 1; fd 1 then points
    at stderr and fd 0 at /dev/null. So print(), C extensions and child
    processes, which all write to fd 1, write to stderr instead, and a child
    process cannot read the host's messages. Both are put back on exit.
    """
    fd_in, fd_out = os.dup(0), os.dup(1)
    stdout = sys.stdout
    line_buffering = getattr(stdout, "line_buffering", None)
    try:
        os.dup2(2, 1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        if line_buffering is False and hasattr(stdout, "reconfigure"):
            # It is a log now: show each line as it comes.
            stdout.reconfigure(line_buffering=True)
        yield fd_in, fd_out
    finally:
        with suppress(OSError, ValueError):
            stdout.flush()
        if line_buffering is False and hasattr(stdout, "reconfigure"):
            stdout.reconfigure(line_buffering=False)
        os.dup2(fd_in, 0)
        os.dup2(fd_out, 1)
        os.close(fd_in)
        os.close(fd_out)


async def _read(
    loop: asyncio.AbstractEventLoop, fd: int, server: _Server
) -> asyncio.BaseTransport | None:
    """Feed stdin to the server: from the event loop for a pipe or socket,
    from a thread for anything the loop cannot watch (a regular file)."""
    pipe = os.fdopen(os.dup(fd), "rb", buffering=0)
    try:
        transport, _ = await loop.connect_read_pipe(lambda: server, pipe)
        return transport
    except (ValueError, OSError, NotImplementedError):
        pipe.close()

    # The thread reads its own duplicate: it may still be blocked in read
    # when the server returns and closes fd.
    own = os.dup(fd)

    def pump() -> None:
        try:
            while True:
                chunk = os.read(own, 1 << 16)
                if not chunk:
                    break
                loop.call_soon_threadsafe(server.data_received, chunk)
            loop.call_soon_threadsafe(server.eof_received)
        except (OSError, RuntimeError):
            pass  # stdin failed, or the loop is gone: nothing is listening
        finally:
            os.close(own)

    threading.Thread(target=pump, name="hookwire-stdin", daemon=True).start()
    return None


def _on_signals(loop: asyncio.AbstractEventLoop, stop: Any) -> tuple[int, ...]:
    installed = []
    for s in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(s, stop)
        except (NotImplementedError, RuntimeError, ValueError):
            continue  # not the main thread, or not a platform with loop signals
        installed.append(s)
    return tuple(installed)
