"""The faster path for a hook of plain functions: the thread that reads a request answers it.

Server hands each request to a worker thread, and that wake-up of another
thread costs a call more than the rest of it: through the runtime, a plain
hook's round trip took 2.7x the Python loop's, against a target of 1.3x
(BENCHMARKS.md, "The Python server: plain threads, and the faster path
kept"). So for a hook with no coroutine, the thread that reads a request
runs its handler itself, and no request waits for a thread to wake up.

A handler may block, and the others must not wait for it: a watch, in the
thread that called serve(), looks at the reader now and then (see TICK),
and when the reader is still in the handler it was in at the last look, it
starts another thread reading (at most hook.threads of them at once, as
many handlers as Server runs at once). The thread that gave reading up ends
once its handler returns. Each reply goes out as soon as it is made.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ._registry import Registry, Route, _Handler
from ._server import Server, _observe_all, _Stop
from ._server import serve as _serve


def serve(hook: Registry) -> None:
    """Serve a hook of plain functions on stdin and stdout, from this thread."""
    _serve(hook, InlineServer)


class InlineServer(Server):
    """Server, but plain handlers run in the thread that reads them (see the module doc).

    Coroutines, for a server given an event loop, go to the loop as in Server.
    """

    # The watch looks at the reader every PATIENCE; a handler it finds at two
    # looks in a row has held reading up long enough. A look costs the reader
    # the interpreter for a moment, and the machine a wake. Once a handler
    # has been slow, the next look comes after TICK, and each one after it
    # twice as late as the last, up to PATIENCE again.
    TICK = 0.001
    PATIENCE = 0.004
    # After this long with nothing read, the watch sleeps until work comes.
    DOZE = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The claim of the thread reading, while it runs a handler: the
        # number of the line it answers. Whoever pops it first wins: the
        # reader, which goes on reading, or the watch, which starts another
        # thread reading, with a claim of its own. A list because its append
        # and pop are atomic; a lock would cost the path of every request
        # twice as much.
        self._claim: list[int] = []
        self._lines = 0  # lines read; written by the reader only
        # What follows changes only when reading changes hands, under this.
        self._mutex = threading.Lock()
        self._readers = 1  # threads reading or in a handler, the first included
        self._left = 0  # handlers still running in threads that gave reading up
        self._dozing = False
        # What the reader found to do: a function and its arguments.
        self._work: tuple[Callable[..., None], tuple[Any, ...]] | None = None

    def start(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        if route.is_async:
            super().start(request_id, method, route, params)
            return
        # The reading thread answers this as soon as line() returns.
        self._work = (self.answer, (request_id, method, route, params))

    def notify(self, event: Any, observers: list[_Handler]) -> None:
        if self._loop is not None:
            super().notify(event, observers)
        elif observers:
            self._work = (_observe_all, (observers, event))

    def _running(self) -> int:
        return super()._running() + self._left + len(self._claim)

    def _read(self) -> None:
        """Read and answer lines until stdin ends, or another thread reads."""
        # This thread's claim: the watch makes a new one only once it has
        # taken this one, which this thread makes before anything else.
        # The path of every request: written out here rather than in small
        # methods, each call of which costs a request more than its body.
        claim, next_line, line = self._claim, self._next_line, self.line
        while True:
            data = next_line()
            if not data:
                self._at_eof()
                return
            self._lines += 1
            line(data)
            work = self._work
            if work is None:
                continue
            self._work = None
            claim.append(self._lines)
            if self._dozing:
                self._wake_waiter()  # this may take a while
            try:
                work[0](*work[1])
            except BaseException:
                # Such as a SystemExit in a handler: this thread ends, another reads.
                self._leave(claim)
                raise
            try:
                claim.pop()
            except IndexError:
                self._leave(claim)  # the watch gave reading to another thread meanwhile
                return

    def _leave(self, claim: list[int]) -> None:
        """End this thread, out of a handler: another reads, if this one still did."""
        with self._mutex:
            self._readers -= 1
            try:
                claim.pop()
            except IndexError:
                # The watch gave reading on already.
                self._left -= 1
                if self._eof and self._left == 0:
                    self._wake_waiter()
                return
            if not self._eof:
                self._start_reader()

    def _hand_on(self) -> None:
        """Take reading from the reader, in a handler, and give it to a new thread."""
        with self._mutex:
            if self._readers >= self.hook.threads:
                return  # every thread is busy: reading waits for one to be free
            try:
                self._claim.pop()
            except IndexError:
                return  # the handler has returned: its thread reads on
            self._left += 1
            self._start_reader()

    def _start_reader(self) -> None:
        """Start a thread reading, with a claim of its own; the caller holds the mutex."""
        self._claim = []
        self._readers += 1
        threading.Thread(target=self._read, name="hookwire-reader", daemon=True).start()

    def _wait_for_eof(self) -> None:
        """Until stdin ends, start another thread reading when a handler holds reading up.

        The reader answers what it reads itself, so that no request waits
        for another thread to wake. Handing reading on at each request would
        cost that wake; instead this watch, like Go's sysmon, looks now and
        then (see TICK), and starts another thread reading when the reader is
        still in the handler it was in at the last look.
        """
        wake = self._wake
        seen: list[int] = []
        wait = self.PATIENCE
        lines, last = -1, time.monotonic()
        while not self._eof:
            if self._interrupted:
                raise _Stop
            doze = self._left == 0 and time.monotonic() - last > self.DOZE
            if doze:
                # Said before the claim is looked at, as the reader claims
                # before it looks at this: one of the two sees the other.
                self._dozing = True
                doze = self._dozing = not self._claim
            wake.acquire(True, 0.2 if doze else wait)
            self._dozing = False
            now = self._claim[:1]  # a copy: the reader may pop it meanwhile
            if now and now == seen:
                # The reader is still in the handler it was in at the last
                # look: another thread reads.
                self._hand_on()
                wait = self.TICK
            else:
                wait = min(wait * 2, self.PATIENCE)
            seen = now
            if self._lines != lines:
                lines, last = self._lines, time.monotonic()
