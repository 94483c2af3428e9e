"""The hook as a process: real pipes, real signals, the bytes a host sees."""

from __future__ import annotations

import json
import signal
import tempfile
import time
from pathlib import Path

import pytest

from conftest import HOOKS, HookProcess


def before_tool(tool: str, **arguments: object) -> dict[str, object]:
    return {"tool": tool, "arguments": arguments}


def test_hello_is_answered_with_the_name_and_the_modes_the_handlers_need(
    wire_hook: HookProcess,
) -> None:
    reply = wire_hook.hello()
    assert reply == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"ok": True, "name": "wire-test", "modes": ["observe", "tool", "approve"]},
    }


def test_an_unknown_protocol_version_is_a_warning_not_a_crash(wire_hook: HookProcess) -> None:
    reply = wire_hook.call(1, "hook.hello", {"name": "test", "version": 99, "modes": []})
    assert reply["result"]["ok"] is True
    assert wire_hook.call(2, "hook.before_tool", before_tool("echo", text="still here"))[
        "result"
    ] == {"action": "deny_tool", "reason": "still here"}
    wire_hook.close_stdin()
    assert wire_hook.wait() == 0
    assert "protocol version 99" in wire_hook.stderr


def test_print_child_processes_and_fd_1_writes_in_a_handler_go_to_stderr(
    wire_hook: HookProcess,
) -> None:
    wire_hook.hello()
    assert wire_hook.call(2, "hook.before_tool", before_tool("noise"))["result"] == {
        "action": "continue"
    }
    wire_hook.close_stdin()
    assert wire_hook.rest_of_stdout() == []
    assert wire_hook.wait() == 0
    for noise in (
        "noise from print",
        "noise from fd 1",
        "noise from a child",
        "noise from logging",
    ):
        assert noise in wire_hook.stderr


def test_a_child_process_cannot_read_the_hosts_messages(wire_hook: HookProcess) -> None:
    wire_hook.hello()
    wire_hook.request(2, "hook.before_tool", before_tool("read_stdin"))
    wire_hook.request(3, "hook.before_tool", before_tool("echo", text="after the child"))
    replies = {r["id"]: r["result"] for r in (wire_hook.reply(), wire_hook.reply())}
    assert replies == {
        2: {"action": "deny_tool", "reason": "a child read 0 bytes of stdin"},
        3: {"action": "deny_tool", "reason": "after the child"},
    }


def test_a_handler_that_raises_gets_a_32000_error_and_the_loop_goes_on(
    wire_hook: HookProcess,
) -> None:
    wire_hook.hello()
    reply = wire_hook.call(2, "hook.before_tool", before_tool("fail"))
    assert reply == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32000, "message": "RuntimeError: the handler broke"},
    }
    # One that raises after it has waited for something.
    assert wire_hook.call(3, "hook.before_tool", before_tool("fail_later"))["error"] == {
        "code": -32000,
        "message": "RuntimeError: the handler broke later",
    }
    assert wire_hook.call(4, "hook.before_tool", before_tool("echo", text="ok"))["result"] == {
        "action": "deny_tool",
        "reason": "ok",
    }
    wire_hook.close_stdin()
    wire_hook.wait()
    assert "Traceback" in wire_hook.stderr
    assert "RuntimeError: the handler broke" in wire_hook.stderr


def test_the_host_reads_the_class_of_what_a_handler_raised(wire_hook: HookProcess) -> None:
    # A KeyError's text alone is the key: "'path'" tells the host nothing.
    wire_hook.hello()
    reply = wire_hook.call(2, "hook.before_tool", before_tool("key_error"))
    assert reply["error"] == {"code": -32000, "message": "KeyError: 'path'"}


def test_a_handler_chooses_its_error_with_hook_error_and_the_loop_goes_on(
    wire_hook: HookProcess,
) -> None:
    wire_hook.hello()
    quota = before_tool("hook_error", code=-32010, message="quota", data={"retry_after": 5})
    assert wire_hook.call(2, "hook.before_tool", quota) == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32010, "message": "quota", "data": {"retry_after": 5}},
    }
    # No data: no data member, not "data": null.
    plain = before_tool("hook_error", code=-32001, message="plain")
    assert wire_hook.call(3, "hook.before_tool", plain)["error"] == {
        "code": -32001,
        "message": "plain",
    }
    # Data that is falsy but not None is sent.
    zero = before_tool("hook_error", code=7, message="zero", data=0)
    assert wire_hook.call(4, "hook.before_tool", zero)["error"] == {
        "code": 7,
        "message": "zero",
        "data": 0,
    }
    # Raised after the handler has waited for something.
    assert wire_hook.call(5, "hook.before_tool", before_tool("hook_error_later"))["error"] == {
        "code": -32011,
        "message": "later",
        "data": ["waited"],
    }
    assert wire_hook.call(6, "hook.before_tool", before_tool("echo", text="ok"))["result"] == {
        "action": "deny_tool",
        "reason": "ok",
    }
    wire_hook.close_stdin()
    assert wire_hook.wait() == 0
    # An answer the handler chose, not a failure: nothing is logged.
    assert "Traceback" not in wire_hook.stderr
    assert "failed" not in wire_hook.stderr


def test_a_hook_error_whose_data_is_not_json_gets_a_32000_error(wire_hook: HookProcess) -> None:
    wire_hook.hello()
    error = wire_hook.call(2, "hook.before_tool", before_tool("hook_error_set"))["error"]
    assert error["code"] == -32000
    assert error["message"].startswith("the data of the error -32010 (a set) is not JSON")
    assert "data" not in error
    assert wire_hook.call(3, "hook.before_tool", before_tool("echo", text="ok"))["result"] == {
        "action": "deny_tool",
        "reason": "ok",
    }


def test_a_result_that_holds_itself_gets_a_32000_error_and_the_loop_goes_on(
    wire_hook: HookProcess,
) -> None:
    wire_hook.hello()
    reply = wire_hook.call(2, "hook.before_tool", before_tool("itself"))
    assert reply["error"]["code"] == -32000
    assert wire_hook.call(3, "hook.before_tool", before_tool("echo", text="ok"))["result"] == {
        "action": "deny_tool",
        "reason": "ok",
    }


def test_a_line_that_is_not_json_gets_a_32700_error_with_a_null_id_and_the_loop_goes_on(
    wire_hook: HookProcess,
) -> None:
    wire_hook.hello()
    wire_hook.send_raw(b"this is not json\n")
    reply = wire_hook.reply()
    assert reply["id"] is None
    assert reply["error"]["code"] == -32700
    wire_hook.send_raw(b"[1, 2]\n")
    reply = wire_hook.reply()
    assert (reply["id"], reply["error"]["code"]) == (None, -32600)
    assert wire_hook.call(2, "hook.before_tool", before_tool("echo", text="ok"))["result"] == {
        "action": "deny_tool",
        "reason": "ok",
    }


def test_an_unknown_method_gets_a_32601_error(wire_hook: HookProcess) -> None:
    wire_hook.hello()
    reply = wire_hook.call(2, "hook.after_everything", {})
    assert reply["error"] == {"code": -32601, "message": "method not found: hook.after_everything"}


def test_params_that_do_not_fit_the_method_get_a_32602_error(wire_hook: HookProcess) -> None:
    wire_hook.hello()
    reply = wire_hook.call(2, "hook.before_tool", {"arguments": {}})
    assert reply["error"]["code"] == -32602
    assert "tool" in reply["error"]["message"]


def test_notifications_get_no_reply_and_reach_the_observers(wire_hook: HookProcess) -> None:
    wire_hook.hello()
    wire_hook.send(
        {
            "jsonrpc": "2.0",
            "method": "hook.runtime_event",
            "params": {
                "kind": "agent.tool.exec_start",
                "source": {"component": "agent"},
                "scope": {"agent_id": "main"},
                "payload": {"Tool": "exec"},
            },
        }
    )
    # An older host: hook.event, with an id of 0.
    wire_hook.send(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "hook.event",
            "params": {"Kind": "tool_exec_end", "Meta": {"AgentID": "main"}},
        }
    )
    wire_hook.send({"jsonrpc": "2.0", "method": "hook.runtime_event", "params": {"kind": 1}})
    assert wire_hook.call(2, "hook.approve_tool", {"tool": "exec", "arguments": {}})["result"] == {
        "approved": False
    }
    wire_hook.close_stdin()
    assert wire_hook.rest_of_stdout() == []
    assert wire_hook.wait() == 0
    assert "observed agent.tool.exec_start" in wire_hook.stderr
    assert "observed agent.tool.exec_end" in wire_hook.stderr


def test_50_concurrent_slow_requests_are_answered_out_of_order_by_id(
    wire_hook: HookProcess,
) -> None:
    # Each "wait" call blocks until a "release" call for it arrives; the
    # releases come last to first. Handled one at a time, the first wait
    # would block everything after it.
    wire_hook.hello()
    for n in range(1, 51):
        wire_hook.request(100 + n, "hook.before_tool", before_tool("wait", n=n))
    for n in range(50, 0, -1):
        wire_hook.request(200 + n, "hook.before_tool", before_tool("release", n=n))
        replies = {r["id"]: r["result"] for r in (wire_hook.reply(), wire_hook.reply())}
        assert replies == {
            100 + n: {"action": "deny_tool", "reason": str(n)},
            200 + n: {"action": "deny_tool", "reason": "released"},
        }


def test_a_handler_that_blocks_holds_up_no_reply_of_requests_sent_with_it(
    wire_hook: HookProcess,
) -> None:
    # Requests that arrive together, in one read: one whose handler blocks
    # must not keep back the others' replies, before or after it.
    wire_hook.hello()
    together = [
        {"jsonrpc": "2.0", "id": i, "method": "hook.before_tool", "params": params}
        for i, params in (
            (2, before_tool("echo", text="before")),
            (3, before_tool("wait", n=1)),
            (4, before_tool("echo", text="after")),
        )
    ]
    wire_hook.send_raw(b"".join(json.dumps(m).encode() + b"\n" for m in together))
    assert {wire_hook.reply()["id"], wire_hook.reply()["id"]} == {2, 4}
    wire_hook.request(5, "hook.before_tool", before_tool("release", n=1))
    assert {wire_hook.reply()["id"], wire_hook.reply()["id"]} == {3, 5}


def test_many_requests_sent_at_once_are_each_answered_once() -> None:
    hook = HookProcess(str(HOOKS / "wire.py"))
    try:
        hook.hello()
        lines = b"".join(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "hook.before_tool",
                    "params": before_tool("x"),
                }
            ).encode()
            + b"\n"
            for i in range(2, 1002)
        )
        hook.send_raw(lines)
        hook.close_stdin()
        ids = [r["id"] for r in (hook.reply() for _ in range(1000))]
        assert sorted(ids) == list(range(2, 1002))
        assert hook.rest_of_stdout() == []
        assert hook.wait() == 0
    finally:
        hook.kill()


def test_handlers_that_end_as_another_thread_takes_over_reading_are_each_answered_once(
    wire_hook: HookProcess,
) -> None:
    # Handlers of about the time after which another thread reads: reading
    # changes hands while some of them end, in a burst the hook has in hand
    # and in requests that come one by one. Each reply is a whole line, once.
    wire_hook.hello()
    seconds = [0, 0.0005, 0.001, 0.0015, 0.002, 0.004]
    lines = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": i,
                "method": "hook.before_tool",
                "params": before_tool("sleep", seconds=seconds[i % len(seconds)]),
            }
        ).encode()
        + b"\n"
        for i in range(2, 302)
    ]
    wire_hook.send_raw(b"".join(lines[:150]))
    for line in lines[150:]:
        wire_hook.send_raw(line)
    wire_hook.close_stdin()
    replies = [wire_hook.reply() for _ in lines]
    assert sorted(r["id"] for r in replies) == list(range(2, 302))
    assert all(r["result"] == {"action": "deny_tool", "reason": "slept"} for r in replies)
    assert wire_hook.rest_of_stdout() == []
    assert wire_hook.wait() == 0


def test_a_handler_that_blocks_after_a_quiet_spell_holds_up_no_other_request(
    wire_hook: HookProcess,
) -> None:
    # Long enough for the hook's watch to doze: the request whose handler
    # blocks first after it still gets another thread reading.
    wire_hook.hello()
    time.sleep(1.2)
    wire_hook.request(2, "hook.before_tool", before_tool("wait", n=1))
    assert wire_hook.call(3, "hook.before_tool", before_tool("echo", text="x"))["result"] == {
        "action": "deny_tool",
        "reason": "x",
    }
    wire_hook.request(4, "hook.before_tool", before_tool("release", n=1))
    assert {wire_hook.reply()["id"], wire_hook.reply()["id"]} == {2, 4}


def test_a_line_of_16_mib_is_read_and_answered_whole_to_a_host_that_reads_such_lines() -> None:
    text = "x" * (16 << 20)
    hook = HookProcess(str(HOOKS / "tools.py"))
    try:
        hook.call(
            1,
            "hook.hello",
            {"name": "t", "version": 1, "modes": ["llm"], "max_line_bytes": 64 << 20},
        )
        request = {"model": "m", "messages": [{"role": "user", "content": text}]}
        reply = hook.call(2, "hook.before_llm", request)
        assert reply["result"]["action"] == "modify"
        assert reply["result"]["request"]["messages"][0]["content"] == text
    finally:
        hook.kill()


def test_a_last_line_without_a_newline_is_still_answered(wire_hook: HookProcess) -> None:
    wire_hook.hello()
    wire_hook.send_raw(
        json.dumps(
            {"jsonrpc": "2.0", "id": 2, "method": "hook.before_tool", "params": before_tool("echo")}
        ).encode()
    )
    wire_hook.close_stdin()
    assert wire_hook.reply()["id"] == 2
    assert wire_hook.wait() == 0


def test_stdin_closing_exits_0_after_the_handlers_in_flight_have_answered(
    wire_hook: HookProcess,
) -> None:
    wire_hook.hello()
    wire_hook.request(2, "hook.before_tool", before_tool("sleep", seconds=0.1))
    wire_hook.close_stdin()
    assert wire_hook.reply() == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"action": "deny_tool", "reason": "slept"},
    }
    assert wire_hook.wait() == 0
    assert "run() returned" in wire_hook.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_exits_0_without_waiting_for_a_handler_that_never_returns(
    wire_hook: HookProcess, signum: int
) -> None:
    wire_hook.hello()  # answered: the signal handlers are in place
    wire_hook.request(2, "hook.before_tool", before_tool("block"))
    wire_hook.proc.send_signal(signum)
    assert wire_hook.wait() == 0
    assert "run() returned" in wire_hook.stderr
    assert "Traceback" not in wire_hook.stderr


def test_stdin_may_be_a_regular_file() -> None:
    with tempfile.TemporaryFile() as f:
        f.write(
            b'{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"t","version":1,"modes":[]}}\n'
        )
        f.write(
            b'{"jsonrpc":"2.0","id":2,"method":"hook.approve_tool","params":{"tool":"ls","arguments":{}}}\n'
        )
        f.seek(0)
        hook = HookProcess(str(HOOKS / "wire.py"), "sync", stdin=f)
        try:
            assert [json.loads(line)["id"] for line in hook.rest_of_stdout()] == [1, 2]
            assert hook.wait() == 0
        finally:
            hook.kill()


CLOSING = """
import asyncio
import sys
import time

from hookwire import BeforeToolParams, BeforeToolReply, Hook, deny_tool

hook = Hook("closing")


@hook.before_tool
def slow(call: BeforeToolParams) -> BeforeToolReply:
    time.sleep(float(str(call["arguments"]["seconds"])))
    print("answered", file=sys.stderr, flush=True)
    return deny_tool("slept")


@hook.on_close
def broken() -> None:
    raise RuntimeError("the first on_close function broke")


if sys.argv[1] == "sync":

    @hook.on_close
    def closing() -> None:
        print("closed", file=sys.stderr, flush=True)

else:

    @hook.on_close
    async def closing_async() -> None:
        await asyncio.sleep(0)
        print("closed", file=sys.stderr, flush=True)


hook.run()
print("run() returned", file=sys.stderr, flush=True)
"""


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize("stop", ["stdin", "SIGTERM"])
def test_on_close_functions_run_in_order_when_the_hook_stops(
    flavour: str, stop: str, tmp_path: Path
) -> None:
    script = tmp_path / "closing.py"
    script.write_text(CLOSING)
    hook = HookProcess(str(script), flavour)
    try:
        hook.hello()
        hook.request(
            2, "hook.before_tool", before_tool("slow", seconds=0.1 if stop == "stdin" else 60)
        )
        if stop == "stdin":
            hook.close_stdin()  # after the handler in flight has answered
            assert hook.reply()["result"] == {"action": "deny_tool", "reason": "slept"}
        else:
            time.sleep(0.1)  # the call is in flight: it is not waited for
            hook.proc.send_signal(signal.SIGTERM)
        assert hook.wait() == 0
        log = hook.stderr
        assert "the first on_close function broke" in log
        ran = [
            line for line in log.splitlines() if line in ("answered", "closed", "run() returned")
        ]
        expected = ["closed", "run() returned"]
        assert ran == (["answered", *expected] if stop == "stdin" else expected), log
    finally:
        hook.kill()
