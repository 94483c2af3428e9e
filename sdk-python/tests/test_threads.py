"""A hook of plain functions served in-process by each server: handlers on threads, to a limit."""

from __future__ import annotations

import json
import os
import select
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import TIMEOUT
from hookwire import CODE_HANDLER_ERROR, BeforeToolParams, BeforeToolReply, Hook, deny_tool
from hookwire._inline_server import InlineServer
from hookwire._server import Server


class Served:
    """A hook served on pipes by a thread of this process: requests in, replies out."""

    def __init__(self, hook: Hook, server_type: type[Server]) -> None:
        fd_in, self._to_hook = os.pipe()
        self._from_hook, fd_out = os.pipe()
        server = server_type(hook, fd_in, fd_out)
        os.close(fd_in)  # the server reads its own duplicate
        self._out = fd_out
        self._thread = threading.Thread(target=server.serve, daemon=True)
        self._thread.start()
        self._buf = b""

    def request(self, request_id: int, tool: str) -> None:
        params = {"tool": tool, "arguments": {}}
        message = {"jsonrpc": "2.0", "id": request_id, "method": "hook.before_tool"}
        message["params"] = params
        os.write(self._to_hook, json.dumps(message).encode() + b"\n")

    def reply(self) -> dict[str, Any]:
        while b"\n" not in self._buf:
            ready, _, _ = select.select([self._from_hook], [], [], TIMEOUT)
            assert ready, f"no reply within {TIMEOUT}s"
            data = os.read(self._from_hook, 1 << 16)
            assert data, "stdout closed"
            self._buf += data
        line, _, self._buf = self._buf.partition(b"\n")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        """Close stdin, wait for the server to return, and check that nothing more came."""
        os.close(self._to_hook)
        self._thread.join(timeout=TIMEOUT)
        assert not self._thread.is_alive(), "the server did not return once stdin closed"
        os.close(self._out)
        assert self._buf + os.read(self._from_hook, 1 << 16) == b""
        os.close(self._from_hook)


# Both servers, behind the one interface: the pool and the reading thread answering.
servers = pytest.mark.parametrize("server_type", [Server, InlineServer])


@pytest.fixture
def gates() -> Iterator[dict[str, threading.Event]]:
    made: dict[str, threading.Event] = {}
    yield made
    for gate in made.values():
        gate.set()  # a failed test leaves no handler blocked


def gated_hook(gates: dict[str, threading.Event], threads: int) -> Hook:
    """A hook whose before_tool blocks on the gate named by the tool, if there is one."""
    hook = Hook("threads", threads=threads)

    @hook.before_tool
    def wait(call: BeforeToolParams) -> BeforeToolReply:
        tool = call["tool"]
        if tool == "exit":
            raise SystemExit(3)
        gate = gates.get(tool)
        if gate is not None:
            assert gate.wait(TIMEOUT), f"{tool} was never opened"
        return deny_tool(tool)

    return hook


@servers
def test_with_every_thread_in_a_handler_reading_waits_for_one_to_be_free(
    gates: dict[str, threading.Event], server_type: type[Server]
) -> None:
    gates.update(a=threading.Event(), b=threading.Event())
    served = Served(gated_hook(gates, threads=2), server_type)
    served.request(1, "a")  # holds the first thread; the second reads
    served.request(2, "b")  # holds the second: no thread is left to read
    served.request(3, "quick")
    gates["a"].set()
    # The first thread answers, then reads and answers the request that waited.
    assert [served.reply()["id"], served.reply()["id"]] == [1, 3]
    gates["b"].set()
    assert served.reply()["id"] == 2
    served.request(4, "quick")
    assert served.reply()["result"] == {"action": "deny_tool", "reason": "quick"}
    served.close()


# The thread's SystemExit is the point; pytest reports it all the same.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@servers
def test_a_handler_that_raises_system_exit_ends_its_thread_and_another_reads_on(
    gates: dict[str, threading.Event], server_type: type[Server]
) -> None:
    served = Served(gated_hook(gates, threads=4), server_type)
    served.request(1, "exit")  # answered with an error; then the thread ends
    reply = served.reply()
    assert reply["id"] == 1 and reply["error"]["code"] == CODE_HANDLER_ERROR, reply
    served.request(2, "quick")
    assert served.reply() == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"action": "deny_tool", "reason": "quick"},
    }
    served.close()
