"""The stdio server's threads: one reads stdin, a pool answers, an event loop runs coroutines.

One thread reads stdin a line at a time and hands each request on: a plain
handler or observer to a pool of worker threads (at most hook.threads,
started as they are needed), a coroutine to the event loop through
asyncio.run_coroutine_threadsafe. Whichever thread makes a reply writes it,
whole, through _Wire.write, which holds one lock per line. The thread that
called serve() waits: for stdin to end and the handlers in flight to
answer, or for SIGTERM or SIGINT.

A hook of plain functions runs without an event loop and loads no asyncio:
it costs a plain hook a fifth of its start-up. A hook with an ``async def``
handler, observer or on_close function runs on the main thread's event
loop (asyncio.run, or the program's own in serve_async), the server in a
thread of its own.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from _queue import SimpleQueue  # queue.SimpleQueue, without loading queue at start-up
from typing import TYPE_CHECKING, Any, Callable

from ._log import log
from ._registry import Registry, Route, _Handler
from ._stdio import _Wire

if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import Future

# The buffer stdin is read through.
_READ_SIZE = 1 << 16

# How long the handlers in flight when stdin closes have to answer, and, for
# coroutines, how long before they are cancelled. The host has gone, or is
# going, and a hook must not outlive it: it exits within a second of stdin
# closing, without the replies of the handlers still running. Half a second
# is left for the process to end, on a machine that may be busy.
STDIN_GRACE = 0.5
CANCEL_AFTER = 0.25


class _Stop(BaseException):
    """Raised in the main thread by SIGTERM and SIGINT while the server waits."""


def serve(hook: Registry, server: type[Server] | None = None) -> None:
    """Serve a hook of plain functions on stdin and stdout, from this thread."""
    with _claim_stdio() as (fd_in, fd_out):
        (server or Server)(hook, fd_in, fd_out).serve()
    # After the signal handlers are put back: a second signal ends the process.
    hook._close_plain()


async def serve_async(hook: Registry) -> None:
    """Serve on stdin and stdout, with the coroutines on the running event loop.

    The server waits in a thread of its own; SIGTERM and SIGINT stop it
    through the loop, whose thread is the main one.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    with _claim_stdio() as (fd_in, fd_out):
        server = Server(hook, fd_in, fd_out, loop)
        signals = []
        for s in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(s, server.interrupt)
                signals.append(s)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread, or a platform without loop signals
        returned: asyncio.Future[None] = loop.create_future()

        def run() -> None:
            try:
                server.serve()
            finally:
                loop.call_soon_threadsafe(returned.set_result, None)

        threading.Thread(target=run, name="hookwire-server", daemon=True).start()
        try:
            await returned
        finally:
            for s in signals:
                loop.remove_signal_handler(s)
    await hook._close()


class _Pool:
    """Daemon threads that run plain handlers, started as they are needed, up to a limit.

    Not concurrent.futures.ThreadPoolExecutor: it imports logging (a fifth
    of a plain hook's start-up), and the interpreter joins its threads at
    exit, so that a handler blocked when SIGTERM comes would hold the exit
    up. done is called, outside the lock, whenever the last job in hand ends.
    """

    def __init__(self, limit: int, done: Callable[[], None]) -> None:
        self._limit = limit
        self._done = done
        self._jobs: SimpleQueue[tuple[Callable[..., None], tuple[Any, ...]]] = SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        # Threads waiting for a job, less the jobs queued: below zero, that
        # many jobs wait for a thread to be free.
        self._free = 0
        self.running = 0  # jobs submitted and not yet ended

    def submit(self, fn: Callable[..., None], *args: Any) -> None:
        with self._lock:
            self.running += 1
            self._free -= 1
            start = self._free < 0 and self._threads < self._limit
            if start:
                self._threads += 1
                self._free += 1
        self._jobs.put((fn, args))
        if start:
            self._start()

    def _start(self) -> None:
        threading.Thread(target=self._work, name="hookwire-worker", daemon=True).start()

    def _work(self) -> None:
        get, lock = self._jobs.get, self._lock
        while True:
            fn, args = get()
            try:
                fn(*args)
            except BaseException:
                # Such as a SystemExit in a handler, which has had its answer:
                # this thread ends, and another takes the jobs that wait.
                with lock:
                    self.running -= 1
                    self._threads -= 1
                    replace = self._free < 0
                    if replace:
                        self._threads += 1
                        self._free += 1
                if replace:
                    self._start()
                raise
            finally:
                del fn, args  # let go of the job before waiting for the next
            with lock:
                self.running -= 1
                self._free += 1
                idle = self.running == 0
            if idle:
                self._done()


class Server(_Wire):
    """Serves a hook on a pair of file descriptors (see the module doc)."""

    def __init__(
        self, hook: Registry, fd_in: int, fd_out: int, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        super().__init__(hook, fd_out)
        self._pool = _Pool(hook.threads, self._idle)
        # The event loop of the coroutines, and those running on it.
        self._loop = loop
        self._coroutines: set[Future[None]] = set()
        self._interrupted = False
        self._eof = False
        # Its own duplicate of stdin: at a signal, the reader may still be
        # blocked reading it when serve() returns.
        self._fd_in = os.dup(fd_in)
        # Read through a buffer that lasts: a read of a few lines into a new
        # bytes object of its own cost a request as much as the rest of its
        # reading.
        stdin = open(self._fd_in, "rb", buffering=_READ_SIZE, closefd=False)  # noqa: SIM115 - for the life of the server
        self._readline = stdin.readline
        # Released to wake the thread in serve(): at the end of stdin, when
        # the last handler ends, at interrupt().
        self._wake = threading.Lock()
        self._wake.acquire()

    def serve(self) -> None:
        previous = _raise_on_signals()
        try:
            threading.Thread(target=self._read, name="hookwire-reader", daemon=True).start()
            self._wait()
            os.close(self._fd_in)
        except _Stop:
            log.info("signal: exiting without waiting for %d handlers", self._running())
            self._cancel()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    def interrupt(self) -> None:
        """Stop serving at once, as a signal does; from any thread."""
        self._interrupted = True
        self._wake_waiter()

    def _read(self) -> None:
        """Hand on each line of stdin until it ends: the reader thread's life."""
        for data in iter(self._next_line, b""):
            self.line(data)
        self._at_eof()

    def _next_line(self) -> bytes:
        """The next line of stdin; b"" at its end, or when reading it fails."""
        try:
            return self._readline()
        except OSError:
            return b""  # stdin failed: the end, as for EOF

    def _at_eof(self) -> None:
        self._eof = True
        self._wake_waiter()

    def _wait(self) -> None:
        """Until stdin ends and every handler has answered, or the grace after it runs out."""
        self._wait_for_eof()
        wake = self._wake
        closed_at = time.monotonic()
        cancelled = False
        while self._running():
            if self._interrupted:
                raise _Stop
            waited = time.monotonic() - closed_at
            if not cancelled and self._coroutines and waited >= CANCEL_AFTER:
                self._give_up("cancelling the coroutines", CANCEL_AFTER)
                self._cancel()
                cancelled = True
            if waited >= STDIN_GRACE:
                self._give_up("stopping without their replies", STDIN_GRACE)
                self.stop()
                return
            until = STDIN_GRACE if cancelled or not self._coroutines else CANCEL_AFTER
            wake.acquire(True, max(until - waited, 0.001))

    def _wait_for_eof(self) -> None:
        while not self._eof:
            self._wake.acquire()  # a signal interrupts it
            if self._interrupted:
                raise _Stop

    def _give_up(self, what: str, after: float) -> None:
        log.warning(
            "stdin is closed and %d handlers are still running after %.2f s: %s",
            self._running(),
            after,
            what,
        )

    def _running(self) -> int:
        return self._pool.running + len(self._coroutines)

    def _idle(self) -> None:
        if self._eof:
            self._wake_waiter()  # the last handler in flight has answered

    def _wake_waiter(self) -> None:
        try:  # noqa: SIM105 - contextlib.suppress would load contextlib at start-up
            self._wake.release()
        except RuntimeError:
            pass  # already woken

    def start(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        if route.is_async:
            self._submit(self._answer_later(request_id, method, route, params))
        else:
            self._pool.submit(self.answer, request_id, method, route, params)

    def notify(self, event: Any, observers: list[_Handler]) -> None:
        if self._loop is not None:  # a hook of plain functions never comes here
            for o in observers:
                if o.is_async:
                    self._submit(_observe_async(o.fn, event))
            observers = [o for o in observers if not o.is_async]
        if observers:
            self._pool.submit(_observe_all, observers, event)

    async def _answer_later(
        self, request_id: Any, method: str, route: Route, params: dict[str, Any]
    ) -> None:
        assert route.call is not None  # start() is for routes with a handler
        try:
            reply = await route.call(params)
            self.result(request_id, method, route.finish(params, reply))
        except Exception as e:
            self.failed(request_id, method, e)

    def _submit(self, coroutine: Any) -> None:
        """Run a coroutine on the event loop; serve() waits for it at the end of stdin."""
        import asyncio  # loaded already: a hook with coroutines runs on a loop

        assert self._loop is not None, "a coroutine handler needs serve_async"
        try:
            future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        except RuntimeError:
            # The loop has closed: a signal stopped the hook while this
            # thread was still handing on a line it had read.
            coroutine.close()
            return
        self._coroutines.add(future)
        future.add_done_callback(self._finished)

    def _finished(self, future: Future[None]) -> None:
        self._coroutines.discard(future)
        if self._eof:
            self._wake_waiter()

    def _cancel(self) -> None:
        for future in list(self._coroutines):
            future.cancel()


def _observe_all(observers: list[_Handler], event: Any) -> None:
    for o in observers:
        try:
            o.fn(event)
        except Exception:
            log.exception("observer %s failed", getattr(o.fn, "__name__", o.fn))


async def _observe_async(fn: Any, event: Any) -> None:
    try:
        await fn(event)
    except Exception:
        log.exception("observer %s failed", getattr(fn, "__name__", fn))


def _raise_on_signals() -> dict[int, Any]:
    """Make SIGTERM and SIGINT raise _Stop in the main thread; the handlers they had."""

    def stop(signum: int, frame: Any) -> None:
        raise _Stop

    previous: dict[int, Any] = {}
    for s in (signal.SIGTERM, signal.SIGINT):
        try:
            previous[s] = signal.signal(s, stop)
        except ValueError:
            break  # not the main thread: signals are not ours to handle
    return previous


class _claim_stdio:
    """Take stdin and stdout for the protocol, at the file-descriptor level.

    The protocol gets private duplicates of fd 0 and fd 1; fd 1 then points
    at stderr and fd 0 at /dev/null. So print(), C extensions and child
    processes, which all write to fd 1, write to stderr instead, and a child
    process cannot read the host's messages. Both are put back on exit.
    (A class rather than a contextlib.contextmanager: contextlib is a module
    more to load at start-up.)
    """

    def __enter__(self) -> tuple[int, int]:
        self._fds = fd_in, fd_out = os.dup(0), os.dup(1)
        self._stdout = stdout = sys.stdout
        self._line_buffering = getattr(stdout, "line_buffering", None)
        try:
            os.dup2(2, 1)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
            if self._line_buffering is False and hasattr(stdout, "reconfigure"):
                # It is a log now: show each line as it comes.
                stdout.reconfigure(line_buffering=True)
        except BaseException:
            self.__exit__()
            raise
        return fd_in, fd_out

    def __exit__(self, *exc: object) -> None:
        stdout = self._stdout
        try:  # noqa: SIM105 - contextlib.suppress would load contextlib at start-up
            stdout.flush()
        except (OSError, ValueError):
            pass
        if self._line_buffering is False and hasattr(stdout, "reconfigure"):
            stdout.reconfigure(line_buffering=False)
        fd_in, fd_out = self._fds
        os.dup2(fd_in, 0)
        os.dup2(fd_out, 1)
        os.close(fd_in)
        os.close(fd_out)
