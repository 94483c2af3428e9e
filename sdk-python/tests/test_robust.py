"""What a host, or an attacker behind it, can throw at a hook process.

Each test runs tests/hooks/minimal.py as a real child process, as a host
does, with plain-function and coroutine handlers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from conftest import HOOKS, HookProcess

REQUEST = b'{"jsonrpc":"2.0","id":%s,"method":"hook.before_tool","params":%s}'


def before_tool(request_id: bytes, arguments: bytes = b"{}", tool: bytes = b'"ls"') -> bytes:
    return REQUEST % (request_id, b'{"tool":' + tool + b',"arguments":' + arguments + b"}")


def mismatched(depth: int) -> Iterator[bytes]:
    """Objects and arrays nested depth deep, one of them closed with the other kind's bracket."""
    for wrong in range(depth):
        opens = [b"{" if level % 2 == 0 else b"[" for level in range(depth)]
        closes = [b"}" if o == b"{" else b"]" for o in reversed(opens)]
        closes[wrong] = b"]" if closes[wrong] == b"}" else b"}"
        inner = b"".join(o + (b'"k":' if o == b"{" else b"") for o in opens)
        yield inner + b"1" + b"".join(closes)


MALFORMED = [
    b'{"jsonrpc":"2.0","id":2]}',
    b'["jsonrpc","2.0"}',
    *(line for depth in range(1, 6) for line in mismatched(depth)),
    *(REQUEST % (b"3", b'{"tool":"ls","arguments":{"a":[1}}') for _ in range(1)),
    b'{"jsonrpc":"2.0","id":4,"method":"hook.before_tool","params":{"tool":"ls"',
    b'{"jsonrpc":"2.0","id":5,',
    b"{",
    b"]",
    b"[" * 100_000 + b"]" * 100_000,
    b"[" * 100_000,
    b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    before_tool(b"6", b"[" * 100_000 + b"]" * 99_999),
    b'{"jsonrpc":"2.0","id":7,"method":"hook.before_tool","params":{"tool":"ls}}',
    before_tool(b"8", b'{"a":"\\q"}'),
    before_tool(b"9", b'{"a":"\\u12"}'),
    before_tool(b"10", b'{"a":"\xff\xfe"}'),
    before_tool(b"11", b'{"a":"\xed\xa0\x80"}'),  # a UTF-16 surrogate, encoded in UTF-8
    b"\xef\xbb\xbf" + before_tool(b"12"),  # a byte order mark
    before_tool(b"13", b'{"a":"\x00"}'),
    b"\x00",
    b"1e999",
    b"-",
    before_tool(b"14", b'{"a":-}'),
    before_tool(b"15", b'{"a":1e999}'),
    before_tool(b"16", b'{"a":NaN}'),
    before_tool(b"17", b'{"a":Infinity}'),
    before_tool(b"18", b'{"a":' + b"9" * 5000 + b"}"),
    b'{"jsonrpc":"2.0","id":19,"id":20,"method":"hook.before_tool","params":{"tool":"ls"}}',
    b'{"jsonrpc":"2.0","id":21,"method":"hook.before_tool","method":7,"params":{}}',
    b"null",
    b"[]",
    b'"just a string"',
    b"\x0c",
]


# JSON all the same: a number too large for a float is infinity, and a
# member named twice counts with its last value.
STILL_JSON = {
    MALFORMED[i] for i, line in enumerate(MALFORMED) if b'"id":15' in line or b'"id":19' in line
}


@pytest.fixture(params=["sync", "async"])
def minimal(request: pytest.FixtureRequest) -> Iterator[HookProcess]:
    hook = HookProcess(str(HOOKS / "minimal.py"), request.param)
    yield hook
    hook.kill()


def test_every_malformed_line_is_answered_with_an_error_or_ignored_and_the_next_request_is_answered(
    minimal: HookProcess,
) -> None:
    for i, line in enumerate(MALFORMED):
        minimal.send_raw(line + b"\n")
        probe = f"next-{i}"
        minimal.send_raw(before_tool(json.dumps(probe).encode()) + b"\n")
        reply, before = minimal.reply_to(probe)
        assert reply["result"] == {"action": "continue"}, (line[:80], reply)
        for b in before:
            # JSON that only looks odd is read as JSON reads it.
            assert "error" in b or line in STILL_JSON, (line[:80], b)
    assert minimal.close_stdin_and_wait() < 1.0


def test_an_error_reply_carries_the_id_of_a_request_it_could_read(minimal: HookProcess) -> None:
    for line, request_id, code in [
        (before_tool(b"1", b'{"a":' + b"9" * 5000 + b"}"), 1, -32600),
        (before_tool(b"2", b"{}", b"7"), 2, -32602),
        (b'{"jsonrpc":"2.0","id":3,"method":["hook.before_tool"],"params":{}}', 3, -32600),
        (b'{"jsonrpc":"2.0","id":4,"params":{}}', 4, -32600),
        (b'{"jsonrpc":"2.0","id":true,"method":"hook.before_tool","params":{}}', None, -32600),
        (b'{"jsonrpc":"2.0","method":7}', None, -32600),
        (b'{"jsonrpc":"2.0","id":5,"method":"hook.before_tool","params":[]}', 5, -32602),
        (before_tool(b'"six"', b'{"a":1e999}', b'"x"'), "six", None),
    ]:
        minimal.send_raw(line + b"\n")
        reply = json.loads(minimal.line() or b"null")
        assert reply["id"] == request_id, (line[:80], reply)
        if code is None:
            assert reply["result"] == {"action": "continue"}
        else:
            assert reply["error"]["code"] == code, (line[:80], reply)


def test_id_0_is_a_request_like_any_other(minimal: HookProcess) -> None:
    minimal.send_raw(before_tool(b"0", b'{"command":"rm -rf /"}', b'"shell"') + b"\n")
    reply, before = minimal.reply_to(0)
    assert before == []
    assert reply["result"] == {"action": "deny_tool", "reason": "dangerous command"}


@pytest.mark.parametrize("depth", [1_200, 100_000])
def test_a_guarded_call_is_answered_whatever_the_depth_of_its_arguments(
    minimal: HookProcess, depth: int
) -> None:
    nested = b"[" * depth + b"]" * depth
    arguments = b'{"command":"rm -rf /","nested":' + nested + b"}"
    minimal.send_raw(before_tool(b"1", arguments, b'"shell"') + b"\n")
    reply, before = minimal.reply_to(1)
    assert before == []
    assert reply["result"] == {"action": "deny_tool", "reason": "dangerous command"}
    minimal.close_stdin_and_wait()


def test_a_handler_still_running_does_not_keep_the_hook_alive_once_stdin_closes(
    minimal: HookProcess,
) -> None:
    after_llm = {"model": "m", "response": {"content": "hi"}}
    minimal.send({"jsonrpc": "2.0", "id": 1, "method": "hook.after_llm", "params": after_llm})
    minimal.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "hook.before_tool",
            "params": {"tool": "x", "arguments": {}},
        }
    )
    assert minimal.reply_to(2)[0]["result"] == {"action": "continue"}
    assert minimal.close_stdin_and_wait() < 1.0
    assert "handlers are still running" in minimal.stderr
    assert minimal.rest_of_stdout() == []


def conversation(size: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": "x" * 1000} for _ in range(size // 1000)]


def test_a_before_llm_modify_longer_than_a_host_that_announces_nothing_reads_aborts_the_turn(
    minimal: HookProcess,
) -> None:
    minimal.call(1, "hook.hello", {"name": "m", "version": 1, "modes": ["llm", "tool"]})
    request = {"model": "m", "messages": conversation(2_000_000)}
    assert minimal.call(2, "hook.before_llm", request)["result"] == {
        "action": "abort_turn",
        "reason": "the hook's answer is longer than the host reads in a line (1048576 bytes)",
    }
    assert minimal.call(3, "hook.before_tool", {"tool": "ls", "arguments": {}})["result"] == {
        "action": "continue"
    }
    minimal.close_stdin_and_wait()
    assert "the hook.before_llm reply is 20" in minimal.stderr
    assert "longer than the host reads in a line (1048576 bytes): sending" in minimal.stderr
    assert '{"action":"abort_turn"' in minimal.stderr


def test_a_host_that_announces_max_line_bytes_gets_replies_up_to_it(minimal: HookProcess) -> None:
    hello = {"name": "m", "version": 1, "modes": ["llm"], "max_line_bytes": 4 << 20}
    minimal.call(1, "hook.hello", hello)
    request = {"model": "m", "messages": conversation(2_000_000)}
    assert minimal.call(2, "hook.before_llm", request)["result"]["action"] == "modify"
    request = {"model": "m", "messages": conversation(5_000_000)}
    assert minimal.call(3, "hook.before_llm", request)["result"]["action"] == "abort_turn"


def test_hello_warns_of_a_granted_mode_no_handler_serves(minimal: HookProcess) -> None:
    reply = minimal.call(1, "hook.hello", {"name": "m", "version": 1, "modes": ["tool", "approve"]})
    assert reply["result"]["modes"] == ["llm", "tool"]
    minimal.close_stdin_and_wait()
    assert "grants the approve mode, which no handler of this hook serves" in minimal.stderr
    assert "denial of every tool call" in minimal.stderr
    assert "grants the tool mode" not in minimal.stderr


def test_an_after_tool_modify_is_cut_to_fit_on_a_character_boundary() -> None:
    text = "secret " + "é€😀<" * 100  # 2, 3, 4 and 1 bytes: 1007 in all
    hook = HookProcess(str(HOOKS / "reference.py"))
    try:
        hello = {"name": "r", "version": 1, "modes": ["tool"], "max_line_bytes": 700}
        hook.call(1, "hook.hello", hello)
        ran = {"tool": "redact", "arguments": {}, "result": {"for_llm": text}}
        result = hook.call(2, "hook.after_tool", ran)["result"]
    finally:
        hook.kill()
    assert result["action"] == "modify"
    got = result["result"]["result"]["for_llm"]
    kept, _, marker = got.partition("\n[hookwire: ")
    masked = text.replace("secret", "***")
    assert masked.startswith(kept) and len(kept) > 50, got
    line = '{"jsonrpc":"2.0","id":2,"result":' + json.dumps(result, separators=(",", ":")) + "}\n"
    assert len(line) <= 700  # ASCII: the SDK writes other characters escaped
    cut = len(masked.encode()) - len(kept.encode())
    assert marker == f"{cut} bytes cut to fit the host's line]"
