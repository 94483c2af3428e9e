"""The event-loop server, for a hook with a coroutine handler (see _stdio)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Generator
from concurrent.futures import Future
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any

from ._log import log
from ._stdio import CANCEL_AFTER, STDIN_GRACE, _abandon, _claim_stdio, _observe, _Wire
from ._workers import Workers

if TYPE_CHECKING:
    from ._registry import Registry, Route, _Handler


async def serve(hook: Registry) -> None:
    """Serve on stdin and stdout from the running event loop."""
    loop = asyncio.get_running_loop()
    with _claim_stdio() as (fd_in, fd_out):
        server = _LoopServer(hook, fd_out, loop)
        stopped: asyncio.Future[None] = loop.create_future()

        def stop() -> None:
            if not stopped.done():
                stopped.set_result(None)

        signals = []
        for s in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(s, stop)
                signals.append(s)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread, or a platform without loop signals
        transport = await _read(loop, fd_in, server)
        try:
            await asyncio.wait({server.eof, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not stopped.done():
                # stdin is closed: answer what is in flight, then exit, unless
                # a signal cuts the wait short; cancel the coroutines still
                # running after CANCEL_AFTER, abandon all after STDIN_GRACE.
                drained = asyncio.ensure_future(server.drain())
                waiting = {drained, stopped}
                first = asyncio.FIRST_COMPLETED
                await asyncio.wait(waiting, timeout=CANCEL_AFTER, return_when=first)
                if not (drained.done() or stopped.done()):
                    log.warning(
                        "stdin is closed and %d handlers are still running after %.2f s: "
                        "cancelling the coroutines",
                        server.in_flight,
                        CANCEL_AFTER,
                    )
                    server.cancel()
                    await asyncio.wait(
                        waiting, timeout=STDIN_GRACE - CANCEL_AFTER, return_when=first
                    )
                if not (drained.done() or stopped.done()):
                    _abandon(server, server.in_flight)
                drained.cancel()
            if stopped.done():
                log.info("signal: exiting without waiting for %d handlers", server.in_flight)
                server.cancel()
        finally:
            for s in signals:
                loop.remove_signal_handler(s)
            if transport is not None:
                transport.close()
            os.set_blocking(fd_in, True)
        # After the signal handlers are gone: a second signal ends the process.
        await hook._close()


class _LoopServer(_Wire, asyncio.Protocol):
    """The event loop reads stdin; async handlers are tasks, sync ones go to worker threads."""

    def __init__(self, hook: Registry, fd_out: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(hook, fd_out)
        self._loop = loop
        self._workers = Workers(hook.threads)
        self._partial = bytearray()
        self._tasks: set[asyncio.Future[Any]] = set()
        self._jobs: set[Future[Any]] = set()
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
            self.line(line)
            start = end + 1
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            self.line(data[start:end])
            start = end + 1
        if start < len(data):
            self._partial += data[start:]

    def eof_received(self) -> bool | None:
        if self._partial:
            # A last line without its newline is still a message.
            line = bytes(self._partial)
            self._partial.clear()
            self.line(line)
        if not self.eof.done():
            self.eof.set_result(None)
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.eof.done():
            self.eof.set_result(None)

    def start(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        assert route.call is not None
        if not route.is_async:
            self._job(self._workers.submit(self.answer, request_id, method, route, params))
            return
        # Run the handler up to its first await here, as Python 3.12's eager
        # tasks do: one that never waits is answered now, without a task.
        try:
            coroutine = route.call(params)
            waiting_for = coroutine.send(None)
        except StopIteration as returned:
            reply = returned.value
        except Exception as e:
            self.failed(request_id, method, e)
            return
        else:
            self._task(
                self._answer_later(request_id, method, route, params, coroutine, waiting_for)
            )
            return
        try:
            self.result(request_id, method, route.finish(params, reply))
        except Exception as e:
            self.failed(request_id, method, e)

    async def _answer_later(
        self,
        request_id: Any,
        method: str,
        route: Route,
        params: dict[str, Any],
        coroutine: Any,
        waiting_for: Any,
    ) -> None:
        try:
            reply = await _Resumed(coroutine, waiting_for)
            self.result(request_id, method, route.finish(params, reply))
        except Exception as e:
            self.failed(request_id, method, e)

    def notify(self, event: Any, observers: list[_Handler]) -> None:
        for o in observers:
            if o.is_async:
                self._task(_observe_async(o.fn, event))
            else:
                self._job(self._workers.submit(_observe, o.fn, event))

    def _task(self, coroutine: Any) -> None:
        task = self._loop.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _job(self, job: Future[Any]) -> None:
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)

    async def drain(self) -> None:
        while self._tasks or self._jobs:
            pending = set(self._tasks) | {asyncio.wrap_future(j) for j in list(self._jobs)}
            await asyncio.wait(pending)

    def cancel(self) -> None:
        for task in self._tasks:
            task.cancel()


class _Resumed:
    """A coroutine that has run up to its first await, to be awaited from there.

    Awaiting it is ``yield from coroutine`` written out, so that the task
    awaiting it passes each value and exception on as if it ran the
    coroutine itself, starting from what the coroutine first yielded.
    """

    def __init__(self, coroutine: Any, waiting_for: Any) -> None:
        self._coroutine = coroutine
        self._waiting_for = waiting_for

    def __await__(self) -> Generator[Any, Any, Any]:
        coroutine, waiting_for = self._coroutine, self._waiting_for
        while True:
            try:
                sent = yield waiting_for
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as e:
                step = partial(coroutine.throw, e)
            else:
                step = partial(coroutine.send, sent)
            try:
                waiting_for = step()
            except StopIteration as returned:
                return returned.value


async def _observe_async(fn: Any, event: Any) -> None:
    try:
        await fn(event)
    except Exception:
        log.exception("observer %s failed", getattr(fn, "__name__", fn))


async def _read(
    loop: asyncio.AbstractEventLoop, fd: int, server: _LoopServer
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
        except OSError:
            pass  # stdin failed: the end, as for EOF
        finally:
            os.close(own)
        with suppress(RuntimeError):  # the loop is gone: nobody is listening
            loop.call_soon_threadsafe(server.eof_received)

    threading.Thread(target=pump, name="hookwire-stdin", daemon=True).start()
    return None
