"""The stdio server: the protocol on stdin and stdout, one JSON message per line.

Requests are answered concurrently, each reply written whole, under one
lock, by whoever finishes it; nothing limits the length of a line. Threads
take turns reading stdin, and the thread that reads a request with a plain
function for its handler answers it itself, so that no request waits for a
thread to wake up. When a handler holds reading up for a few milliseconds,
another thread goes on reading. Each reply goes out as soon as it is made,
even when the host sent requests together: the host can act on it while
the next is answered.

A hook with an ``async def`` handler is served the same way, from a thread,
while the main thread runs an event loop (its own, or the program's in
``serve_async``): coroutine handlers, observers and on_close functions run
as tasks there, as many at once as there are requests. The one server was
chosen by measurement over an event loop reading stdin with plain handlers
on worker threads, which took twice as long per call (BENCHMARKS.md).
asyncio is imported only for such a hook: it costs a plain hook a fifth of
its start-up.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from ._errors import HookError, failure_message
from ._json import ID_TYPES, Undecodable, decode
from ._log import log
from ._protocol_gen import (
    CODE_HANDLER_ERROR,
    CODE_INVALID_PARAMS,
    CODE_INVALID_REQUEST,
    CODE_PARSE_ERROR,
    METHODS,
)
from ._registry import Registry, Route, _Handler

if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import Future


def _encoder() -> Callable[[Any], str]:
    """json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode, in a third of the time.

    allow_nan=False: a result holding inf or nan (a 1e999 from the host, say)
    is an error reply, not a line that is not JSON. The encoder's C part is
    made once rather than at each call, and without the dict of the objects
    being encoded (markers), which no thread could share: a result that holds
    itself fails with a RecursionError instead of a ValueError, an error
    reply all the same.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # an interpreter without the json module's C part
        return json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
    encode = make(
        None,  # markers
        json.JSONEncoder().default,  # the TypeError of a value that is not JSON
        json.encoder.encode_basestring_ascii,
        None,  # indent
        ":",
        ",",
        False,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )
    return lambda value: "".join(encode(value, 0))


_dumps = _encoder()
_CONTINUE = {"action": "continue"}
_CONTINUE_JSON = _dumps(_CONTINUE)
_BLANK = b" \t\r\n"
_LONG_LINE = 1 << 16
# The buffer the threads server reads stdin through.
_READ_SIZE = 1 << 16


# How long the handlers in flight when stdin closes have to answer, and, for
# coroutines, how long before they are cancelled. The host has gone, or is
# going, and a hook must not outlive it: it exits within a second of stdin
# closing, without the replies of the handlers still running. Half a second
# is left for the process to end, on a machine that may be busy.
STDIN_GRACE = 0.5
CANCEL_AFTER = 0.25


def _too_long(limit: int) -> str:
    return f"the hook's answer is longer than the host reads in a line ({limit} bytes)"


# What ends a for_llm cut to fit the host's line, with the bytes cut.
_CUT_MARKER = "\n[hookwire: {} bytes cut to fit the host's line]"
_STOPS = ("deny_tool", "abort_turn", "hard_abort")


def _fit(method: str, result: Any, room: int, limit: int) -> dict[str, Any] | None:
    """What replaces a result whose reply line is longer than the host reads.

    room is how long the result may be. None for hook.hello, whose answer
    is an error: the host then fails the hook's start.
    """
    if method == "hook.hello":
        return None
    reason = _too_long(limit)
    action = result.get("action") if isinstance(result, dict) else None
    if method == "hook.after_tool" and action == "modify":
        cut = _cut_to_fit(result, room)
        if cut is not None:
            return cut
    if method == "hook.approve_tool":
        return {"approved": False, "reason": reason}
    if action in _STOPS:
        return {"action": action, "reason": reason}
    if method == "hook.before_tool":
        return {"action": "deny_tool", "reason": reason}
    return {"action": "abort_turn", "reason": reason}


def _cut_to_fit(reply: dict[str, Any], room: int) -> dict[str, Any] | None:
    """The after_tool modify with its for_llm cut from the end so that it takes
    at most room bytes, with a marker; None when even an empty for_llm does
    not fit, or there is none."""
    params = reply.get("result")
    ran = params.get("result") if isinstance(params, dict) else None
    text = ran.get("for_llm") if isinstance(ran, dict) else None
    if not isinstance(params, dict) or not isinstance(ran, dict) or not isinstance(text, str):
        return None
    size = len(text.encode("utf-8", "surrogatepass"))

    def marked(keep: int) -> str:
        kept = len(text[:keep].encode("utf-8", "surrogatepass"))
        return text[:keep] + _CUT_MARKER.format(size - kept)

    def cut(for_llm: str) -> dict[str, Any]:
        return {**reply, "result": {**params, "result": {**ran, "for_llm": for_llm}}}

    # The reply but for for_llm is the same whatever is kept: its size once.
    # The longest prefix that fits: the size grows with the prefix, since the
    # count in the marker loses a digit only as a whole character is kept.
    others = len(_dumps(cut(""))) - 2
    lo, hi = -1, len(text)  # marked(lo) fits, marked(hi + 1) does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if others + len(_dumps(marked(mid))) <= room:
            lo = mid
        else:
            hi = mid - 1
    return None if lo < 0 else cut(marked(lo))


class _Stop(BaseException):
    """Raised in the main thread by SIGTERM and SIGINT while a threads server waits."""


def serve(hook: Registry) -> None:
    """Serve a hook of plain functions on stdin and stdout, from this thread."""
    with _claim_stdio() as (fd_in, fd_out):
        _ThreadsServer(hook, fd_in, fd_out).serve()
    # After the signal handlers are put back: a second signal ends the process.
    hook._close_plain()


async def serve_async(hook: Registry) -> None:
    """Serve on stdin and stdout, with the coroutines on the running event loop.

    The server runs in a thread of its own; SIGTERM and SIGINT stop it
    through the loop, whose thread is the main one.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    with _claim_stdio() as (fd_in, fd_out):
        server = _ThreadsServer(hook, fd_in, fd_out, loop)
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


class _Wire:
    """The protocol's half of the server: a line in, the replies out.

    The server adds the threads that read and answer; tests drive this half alone.
    """

    def __init__(self, hook: Registry, fd_out: int) -> None:
        self.hook = hook
        self._fd = fd_out
        self._lock = threading.Lock()
        self._broken = False

    def line(self, line: bytes) -> None:
        try:
            if not line or (line[0] in _BLANK and not line.strip(_BLANK)):
                return  # a blank line (a message's line starts with a bracket: no copy of it)
            try:
                message = decode(line)
            except Undecodable as e:
                # JSON all the same, and a request with an id gets an answer.
                self.error(e.request_id, CODE_INVALID_REQUEST, f"invalid request: {e}")
                return
            except ValueError as e:
                self.error(None, CODE_PARSE_ERROR, f"parse error: {e}")
                return
            if message is None:
                return  # JSON, and nothing to answer
            if not isinstance(message, dict):
                self.error(None, CODE_INVALID_REQUEST, "invalid request: not a JSON object")
                return
            request_id = message.get("id")
            if type(request_id) not in ID_TYPES:
                request_id = None  # what valid_id() answers, without the call
            method = message.get("method")
            if "method" in message and not isinstance(method, str):
                self.error(
                    request_id, CODE_INVALID_REQUEST, "invalid request: method is not a string"
                )
                return
            params = message.get("params", {})
            info = METHODS.get(method) if method else None
            if info is not None and info.notification:
                # Never answered, whatever their id: older hosts send them with id 0.
                if isinstance(params, dict):
                    self.notify(*self.hook.observers(info.name, params))
                else:
                    log.warning("ignored %s: its params are not an object", method)
                return
            if message.get("id") is None:
                log.debug("ignored the notification %s", method)
                return
            if request_id is None or not method:
                self.error(
                    request_id,
                    CODE_INVALID_REQUEST,
                    "invalid request: want a method and a number or string id",
                )
                return
            if not isinstance(params, dict):
                self.error(
                    request_id, CODE_INVALID_PARAMS, f"invalid params: {method} takes an object"
                )
                return
            try:
                route = self.hook.route(method, params)
            except HookError as e:
                self.error(request_id, e.code, e.message, e.data)
                return
            except Exception as e:
                self.failed(request_id, method, e)
                return
            if route.call is None:
                self.answer(request_id, method, route, params)
            else:
                self.start(request_id, method, route, params)
        except Exception:
            # A fault of ours must not stop the hook: the host times the call out.
            log.exception("could not handle the line %.200r", line)

    def notify(self, event: Any, observers: list[_Handler]) -> None:
        raise NotImplementedError

    def start(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        """Answer a request whose handler may take its time."""
        raise NotImplementedError

    def answer(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        """Answer a request here and now: call its sync handler, if any, and reply."""
        try:
            reply = route.call(params) if route.call is not None else None
            self.result(request_id, method, route.finish(params, reply))
        except BaseException as e:
            # A request with an id gets an answer, even from a handler that
            # raises SystemExit; which then goes on and ends the thread.
            self.failed(request_id, method, e)
            if not isinstance(e, Exception):
                raise

    def result(self, request_id: Any, method: str, result: Any) -> None:
        # _dumps of the message, in half the time: the encoder spends most of
        # a short reply on the envelope, the same every time, so it is written
        # out here, around the id and the result encoded. The result of most
        # requests, continue, is encoded once for all. An int's JSON is its
        # str (a bool, an int too, is never an id).
        rid = str(request_id) if type(request_id) is int else _dumps(request_id)
        body = _CONTINUE_JSON if result == _CONTINUE else _dumps(result)
        line = '{"jsonrpc":"2.0","id":' + rid + ',"result":' + body + "}"
        # ASCII only, so characters are bytes; the newline counts too.
        size, limit = len(line) + 1, self.hook._max_line_bytes
        if size > limit:
            # A host stops reading a hook for good at a line longer than it
            # reads. What goes instead never lets through what the hook would
            # have stopped or changed (docs/protocol.md, "Replies longer than
            # the host reads").
            head = '{"jsonrpc":"2.0","id":' + rid + ',"result":'
            fitted = _fit(method, result, limit - len(head) - 2, limit)
            log.warning(
                "the %s reply is %d bytes, longer than the host reads in a line (%d bytes): "
                "sending %s instead",
                method,
                size,
                limit,
                "an error" if fitted is None else _dumps(fitted)[:200],
            )
            if fitted is None:
                self.error(request_id, CODE_HANDLER_ERROR, _too_long(limit))
                return
            line = head + _dumps(fitted) + "}"
        self.write(line)

    def failed(self, request_id: Any, method: str, e: BaseException) -> None:
        if isinstance(e, HookError):
            # The handler chose its error: an answer, not a failure to log
            # (which would load logging for it).
            self.error(request_id, e.code, e.message, e.data)
            return
        log.error("%s handler failed", method, exc_info=e)
        self.error(request_id, CODE_HANDLER_ERROR, failure_message(e))

    def error(self, request_id: Any, code: int, message: str, data: Any = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        try:
            line = _dumps({"jsonrpc": "2.0", "id": request_id, "error": error})
        except (TypeError, ValueError, RecursionError) as e:
            # Data a handler gave that JSON cannot write: the request still
            # gets an answer, as for a result that is not JSON.
            log.error("the error %d's data is not JSON: %s", code, e)
            message = f"the data of the error {code} ({message}) is not JSON: {e}"
            line = _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "error": {"code": CODE_HANDLER_ERROR, "message": message},
                }
            )
        self.write(line)

    def stop(self) -> None:
        """Drop every later reply: the handlers still running are abandoned."""
        with self._lock:
            self._broken = True

    def write(self, line: str) -> None:
        # A long line goes out apart from its newline, rather than copied to add it.
        short = len(line) < _LONG_LINE
        data = (line + "\n").encode() if short else line.encode()
        with self._lock:
            self._write(data)
            if not short:
                self._write(b"\n")

    def _write(self, data: bytes) -> None:
        """Write every byte of data, unless the host has gone; the caller holds the lock."""
        if self._broken:
            return
        try:
            written = os.write(self._fd, data)
            if written < len(data):  # a long line, a full pipe: the rest
                rest = memoryview(data)[written:]
                while rest:
                    rest = rest[os.write(self._fd, rest) :]
        except OSError as e:
            # The host has gone; stdin will close too, and the hook with it.
            self._broken = True
            log.error("cannot write to the host: %s", e)


class _ThreadsServer(_Wire):
    """One thread at a time reads stdin and answers what it reads (see the module doc)."""

    # The watch looks at the reader every PATIENCE; a handler it finds at two
    # looks in a row has held reading up long enough. A look costs the reader
    # the interpreter for a moment, and the machine a wake. Once a handler
    # has been slow, the next look comes after TICK, and each one after it
    # twice as late as the last, up to PATIENCE again.
    TICK = 0.001
    PATIENCE = 0.004
    # After this long with nothing read, the watch sleeps until work comes.
    DOZE = 1.0

    def __init__(
        self, hook: Registry, fd_in: int, fd_out: int, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        super().__init__(hook, fd_out)
        # The event loop of the coroutines, and those running on it.
        self._loop = loop
        self._coroutines: set[Future[None]] = set()
        self._interrupted = False
        # Its own duplicate of stdin: at a signal, a thread may still be
        # blocked reading it when serve() returns. Read through a buffer that
        # lasts: a read of a few lines into a new bytes object of its own
        # cost a request as much as the rest of its reading.
        self._fd_in = os.dup(fd_in)
        stdin = open(self._fd_in, "rb", buffering=_READ_SIZE, closefd=False)  # noqa: SIM115 - for the life of the server
        self._readline = stdin.readline
        # The reader's claim while it runs a handler: the number of the line
        # it answers. Whoever pops it first wins: the reader, which goes on
        # reading, or the watch, which hands reading to another thread. A
        # list because its append and pop are atomic; a lock would cost the
        # path of every request twice as much.
        self._claim: list[int] = []
        self._lines = 0  # lines read; written by the reader only
        # What follows changes only when reading changes hands, under this.
        self._mutex = threading.Lock()
        self._threads = 0
        self._parked = 0  # threads with nothing to do, until the watch hands them reading
        self._spare = threading.Semaphore(0)  # a permit sends one parked thread to read
        self._left = 0  # handlers still running in threads that handed reading on
        self._eof = False
        self._dozing = False
        # Released to wake the watch before its tick: at the end of stdin, or
        # when work comes while it dozes.
        self._wake = threading.Lock()
        self._wake.acquire()
        # What the reader found to do: a function and its arguments.
        self._work: tuple[Callable[..., None], tuple[Any, ...]] | None = None

    def serve(self) -> None:
        previous = _raise_on_signals()
        try:
            with self._mutex:
                self._start_reader()
            self._watch()
            os.close(self._fd_in)
        except _Stop:
            running = self._left + len(self._claim) + len(self._coroutines)
            log.info("signal: exiting without waiting for %d handlers", running)
            self._cancel()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    def interrupt(self) -> None:
        """Stop serving at once, as a signal does; from any thread."""
        self._interrupted = True
        self._wake_watch()

    def _watch(self) -> None:
        """Until stdin ends and every answer is out, hand reading on when a handler holds it up.

        The reader answers what it reads itself, so that no request waits
        for another thread to wake. Handing reading on at each request would
        cost that wake; instead this watch, like Go's sysmon, looks now and
        then (see TICK), and sends another thread to read when the reader is
        still in the handler it was in at the last look. The main thread
        keeps it, so it also runs the signal handlers promptly.
        """
        claim, wake = self._claim, self._wake
        seen: list[int] = []
        wait = self.PATIENCE
        lines, last = -1, time.monotonic()
        closed_at = None
        while not (self._eof and self._left == 0 and not self._coroutines):
            if self._interrupted:
                raise _Stop
            if self._eof:
                closed_at = closed_at or time.monotonic()
                waited = time.monotonic() - closed_at
                if waited >= CANCEL_AFTER and self._coroutines:
                    log.warning(
                        "stdin is closed and %d handlers are still running after %.2f s: "
                        "cancelling the coroutines",
                        self._left + len(self._coroutines),
                        CANCEL_AFTER,
                    )
                    self._cancel()
                if waited >= STDIN_GRACE:
                    log.warning(
                        "stdin is closed and %d handlers are still running after %.2f s: "
                        "stopping without their replies",
                        self._left + len(self._coroutines),
                        STDIN_GRACE,
                    )
                    self.stop()
                    return
            doze = self._left == 0 and time.monotonic() - last > self.DOZE
            if doze:
                # Said before the claim is looked at, as the reader claims
                # before it looks at this: one of the two sees the other.
                self._dozing = True
                doze = self._dozing = not claim
            wake.acquire(True, 0.2 if doze else wait)
            self._dozing = False
            now = claim[:1]  # a copy: the reader may pop it meanwhile
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

    def _hand_on(self) -> None:
        """Take reading from the reader, in a handler, and give it to another thread."""
        with self._mutex:
            if not self._parked and self._threads >= self.hook.threads:
                return  # every thread is busy: reading waits for one to be free
            try:
                self._claim.pop()
            except IndexError:
                return  # the handler has returned: its thread reads on
            self._left += 1
            self._start_reader()

    def _start_reader(self) -> None:
        """Send a parked thread to read, or start one; the caller holds the mutex."""
        if self._parked:
            self._parked -= 1
            self._spare.release()
            return
        self._threads += 1
        name = f"hookwire-{self._threads}"
        threading.Thread(target=self._take_turns, name=name, daemon=True).start()

    def _wake_watch(self) -> None:
        try:  # noqa: SIM105 - contextlib.suppress would load contextlib at start-up
            self._wake.release()
        except RuntimeError:
            pass  # already woken

    def _take_turns(self) -> None:
        """Read when given reading, until stdin ends; between turns, wait parked."""
        while self._read() and not self._eof:
            with self._mutex:
                self._left -= 1
                if self._eof:
                    if self._left == 0:
                        self._wake_watch()
                    return
                self._parked += 1
            self._spare.acquire()
            if self._eof:
                return

    def _read(self) -> bool:
        """Read and answer lines: False once stdin ends, True once another thread reads."""
        # The path of every request: written out here rather than in small
        # methods, each call of which costs a request more than its body.
        claim, readline, line = self._claim, self._readline, self.line
        while True:
            try:
                data = readline()
            except OSError:
                data = b""  # stdin failed: the end, as for EOF
            if not data:
                self._at_eof()
                return False
            self._lines += 1
            line(data)
            work = self._work
            if work is None:
                continue
            self._work = None
            claim.append(self._lines)
            if self._dozing:
                self._wake_watch()  # this may take a while
            try:
                work[0](*work[1])
            except BaseException:
                # Such as a SystemExit in a handler: this thread ends, another reads.
                self._leave()
                raise
            try:
                claim.pop()
            except IndexError:
                return True  # the watch gave reading to another thread meanwhile

    def _leave(self) -> None:
        """Give up reading, if this thread still has it, as it ends."""
        with self._mutex:
            self._threads -= 1
            try:
                self._claim.pop()
            except IndexError:
                self._left -= 1  # the watch gave reading on already
                return
            if not self._eof:
                self._start_reader()

    def _at_eof(self) -> None:
        with self._mutex:
            self._eof = True
            if self._parked:
                self._spare.release(self._parked)  # they have nothing left to read
                self._parked = 0
        self._wake_watch()

    def start(self, request_id: Any, method: str, route: Route, params: dict[str, Any]) -> None:
        if route.is_async:
            self._submit(self._answer_later(request_id, method, route, params))
            return
        # The reading thread answers this once it has let go of reading.
        self._work = (self.answer, (request_id, method, route, params))

    def notify(self, event: Any, observers: list[_Handler]) -> None:
        if self._loop is not None:  # a hook of plain functions never comes here
            for o in observers:
                if o.is_async:
                    self._submit(_observe_async(o.fn, event))
            observers = [o for o in observers if not o.is_async]
        if observers:
            self._work = (_observe_all, (observers, event))

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
        """Run a coroutine on the event loop; the watch waits for it at the end of stdin."""
        import asyncio  # loaded already: a hook with coroutines runs on a loop

        assert self._loop is not None, "a coroutine handler needs serve_async"
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        self._coroutines.add(future)
        future.add_done_callback(self._finished)

    def _finished(self, future: Future[None]) -> None:
        self._coroutines.discard(future)
        if self._eof:
            self._wake_watch()

    def _cancel(self) -> None:
        for future in list(self._coroutines):
            future.cancel()


def _observe(fn: Any, event: Any) -> None:
    try:
        fn(event)
    except Exception:
        log.exception("observer %s failed", getattr(fn, "__name__", fn))


def _observe_all(observers: list[_Handler], event: Any) -> None:
    for o in observers:
        _observe(o.fn, event)


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
