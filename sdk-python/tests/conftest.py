"""A hook process driven over real pipes, as a host drives it."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

HOOKS = Path(__file__).parent / "hooks"
# Generous: they only bound how long a broken hook can hang the suite.
TIMEOUT = 20.0


class HookProcess:
    """A running hook: write lines to its stdin, read its stdout line by line."""

    def __init__(self, *args: str, stdin: IO[bytes] | int = subprocess.PIPE) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # A group of its own, so that what it leaves behind can be found.
            start_new_session=True,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self._stderr_drained = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_drained.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)

    def send(self, message: Any) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def request(self, request_id: int, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def line(self) -> bytes | None:
        """The next line of stdout, or None at its end."""
        try:
            return self._lines.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"no line on stdout within {TIMEOUT}s") from None

    def reply(self) -> dict[str, Any]:
        line = self.line()
        assert line is not None, "stdout closed"
        message: dict[str, Any] = json.loads(line)
        return message

    def call(self, request_id: int, method: str, params: Any) -> dict[str, Any]:
        self.request(request_id, method, params)
        reply = self.reply()
        assert reply["id"] == request_id, reply
        return reply

    def hello(self) -> dict[str, Any]:
        return self.call(1, "hook.hello", {"name": "test", "version": 1, "modes": ["tool"]})

    def rest_of_stdout(self) -> list[bytes]:
        """Every line still to come on stdout; the hook must have exited or be exiting."""
        lines = []
        while (line := self.line()) is not None:
            lines.append(line)
        return lines

    def wait(self) -> int:
        """The exit status, once the hook has exited and all its stderr is in."""
        status = self.proc.wait(timeout=TIMEOUT)
        self._stderr_drained.join(timeout=TIMEOUT)
        return status

    def reply_to(self, request_id: object) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The reply to request_id, and the replies that came before it.

        Every line must be a JSON-RPC reply: a result or an error, not both.
        """
        before: list[dict[str, Any]] = []
        while True:
            line = self.line()
            assert line is not None, f"stdout closed before the reply to {request_id!r}"
            reply: dict[str, Any] = json.loads(line)
            assert reply.get("jsonrpc") == "2.0", line
            assert ("result" in reply) != ("error" in reply), line
            if reply.get("id") == request_id and type(reply.get("id")) is type(request_id):
                return reply, before
            before.append(reply)

    def close_stdin_and_wait(self) -> float:
        """Close stdin, wait for the exit (status 0) and check that the hook's
        process group is gone; the seconds from the close to the exit."""
        self.close_stdin()
        closed = time.monotonic()
        status = self.proc.wait(timeout=TIMEOUT)
        took = time.monotonic() - closed
        self._stderr_drained.join(timeout=TIMEOUT)
        assert status == 0, self.stderr
        left = [pid for pid, group in process_groups() if group == self.proc.pid]
        assert left == [], f"processes of the hook's group left behind: {left}"
        return took

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def process_groups() -> list[tuple[int, int]]:
    """Every process of the machine, with its process group, from the process table."""
    out = subprocess.run(["ps", "-A", "-o", "pid=,pgid="], capture_output=True, check=True)
    return [(int(p), int(g)) for p, g in (line.split() for line in out.stdout.splitlines())]


@pytest.fixture(params=["sync", "async"])
def wire_hook(request: pytest.FixtureRequest) -> Iterator[HookProcess]:
    """tests/hooks/wire.py with a sync, then an async, before_tool handler."""
    hook = HookProcess(str(HOOKS / "wire.py"), request.param)
    yield hook
    hook.kill()


@pytest.fixture(scope="session")
def hookwire_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference runtime's CLI, built once per test session from this checkout."""
    binary = tmp_path_factory.mktemp("bin") / "hookwire"
    core = Path(__file__).parents[2] / "core"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/hookwire"], cwd=core, check=True)
    return binary
