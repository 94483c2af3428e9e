"""The protocol on stdin and stdout, one JSON message per line: a line in, the replies out.

_Wire reads a line, answers what needs no handler, routes each request to
its handler and writes each reply whole, under one lock, whoever makes it;
nothing limits the length of a line it reads. The threads that read stdin
and run the handlers are _server's.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Callable

from ._errors import HookError, failure_message
from ._json import ID_TYPES, Undecodable, decode
from ._line_limit import fit
from ._log import log
from ._protocol_gen import (
    CODE_HANDLER_ERROR,
    CODE_INVALID_PARAMS,
    CODE_INVALID_REQUEST,
    CODE_PARSE_ERROR,
    METHODS,
)
from ._registry import Registry, Route, _Handler


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
            fitted = fit(method, result, limit - len(head) - 2, limit)
            log.warning(
                "the %s reply is %d bytes, longer than the host reads in a line (%d bytes): "
                "sending %s instead",
                method,
                size,
                limit,
                "an error" if isinstance(fitted, HookError) else _dumps(fitted)[:200],
            )
            if isinstance(fitted, HookError):
                self.error(request_id, fitted.code, fitted.message)
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
