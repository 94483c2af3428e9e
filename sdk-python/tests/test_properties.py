"""Properties of reading the host's lines, checked on lines Hypothesis makes up.

The reader accepts exactly what strict JSON is, decodes it to what the
json module decodes (at any depth), and the dispatch answers every request
that has an id, once, with a JSON-RPC reply, whatever else comes with it;
and stdin splits into the lines written, wherever its reads end. A
lifecycle hook answers every call that its params decode for, and approves
nothing when can_use_tool fails.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwire import (
    CODE_INVALID_PARAMS,
    Hook,
    HookError,
    LifecycleHook,
    LifecycleHooks,
    TestClient,
    deny_tool,
)
from hookwire._json import Undecodable, _decode_deep, decode
from hookwire._stdio import _Wire

# No example database written into the checkout, and no deadline: the
# machine running the suite may be slow, and hanging is what the process
# tests catch.
settings.register_profile(
    "hookwire", database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("hookwire")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)

# What JSON is made of, and a little of what it is not.
ALPHABET = [*'{}[]:,"\\ \t\n0123456789-+.eEtrufalsn', "\x00", "\ud800", "é", "NaN", "\\u"]
json_ish = st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join)


def mutations(text: str) -> st.SearchStrategy[str]:
    """text cut short, or with a piece of JSON put in or a few characters taken out."""
    at = st.integers(0, len(text))
    return st.one_of(
        at.map(lambda i: text[:i]),
        st.tuples(at, st.sampled_from(ALPHABET)).map(lambda p: text[: p[0]] + p[1] + text[p[0] :]),
        st.tuples(at, st.integers(1, 3)).map(lambda p: text[: p[0]] + text[p[0] + p[1] :]),
    )


def strict(text: str) -> Any:
    """The reference: the json module, NaN and Infinity refused."""

    def refuse(name: str) -> Any:
        raise ValueError(name)

    return json.loads(text, parse_constant=refuse)


@given(json_values)
def test_any_json_value_decodes_to_itself(value: Any) -> None:
    text = json.dumps(value)
    assert decode(text.encode()) == value
    assert _decode_deep(text, int) == value


@given(st.one_of(json_ish, json_values.map(json.dumps).flatmap(mutations)))
def test_the_deep_reader_accepts_and_decodes_exactly_what_the_json_module_does(text: str) -> None:
    try:
        expected = strict(text)
    except ValueError:
        expected = ValueError
    try:
        got = _decode_deep(text, int)
    except ValueError:
        got = ValueError
    assert got == expected


@given(st.binary(max_size=60) | json_ish.map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_a_line_decodes_or_raises_value_error_and_never_anything_else(line: bytes) -> None:
    try:
        text = line.decode("utf-8")
        expected = strict(text)
    except ValueError:
        expected = ValueError
    try:
        got = decode(line)
    except Undecodable:
        got = expected  # JSON, but not for this interpreter: answered apart
    except ValueError:
        got = ValueError
    assert got == expected


@settings(max_examples=10)
@given(st.integers(min_value=1_000, max_value=20_000))
def test_nesting_of_any_depth_decodes(depth: int) -> None:
    assert decode(b"[" * depth + b"]" * depth) is not None


class Recorder(_Wire):
    """The dispatch of the stdio servers, answering in the calling thread into a list."""

    def __init__(self, hook: Hook) -> None:
        super().__init__(hook, -1)
        self.lines: list[str] = []

    def start(self, request_id: Any, method: str, route: Any, params: dict[str, Any]) -> None:
        self.answer(request_id, method, route, params)

    def notify(self, event: Any, observers: Any) -> None:
        pass

    def write(self, line: str) -> None:
        self.lines.append(line)


hook = Hook("property")


@hook.before_tool
def guard(call: Any) -> Any:
    return deny_tool("no") if call["tool"] == "rm" else None


def request(request_id: int, tool: str) -> bytes:
    params = {"tool": tool, "arguments": {}}
    return json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "method": "hook.before_tool", "params": params}
    ).encode()


junk = st.one_of(
    st.binary(max_size=40),
    json_ish.map(lambda s: s.encode("utf-8", "surrogatepass")),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.builds(
        lambda v, m: json.dumps({"jsonrpc": "2.0", "method": m, "params": v}).encode(),
        json_values,
        st.one_of(st.none(), st.integers(), st.text(max_size=12)),
    ),
).filter(lambda line: b"\n" not in line and b'"id"' not in line)


@settings(max_examples=50)
@given(st.lists(st.one_of(st.sampled_from(["ls", "rm"]), junk), max_size=20))
def test_every_request_with_an_id_is_answered_once_and_every_reply_is_json_rpc(
    lines: list[str | bytes],
) -> None:
    wire = Recorder(hook)
    ids = []
    for i, item in enumerate(lines):
        if isinstance(item, str):
            ids.append(i)
            wire.line(request(i, item))
        else:
            wire.line(item)
    replies = [json.loads(line) for line in wire.lines]
    for r in replies:
        assert r["jsonrpc"] == "2.0"
        assert ("result" in r) != ("error" in r)
    answered = [r["id"] for r in replies if r["id"] is not None]
    assert answered == ids
    for r in replies:
        if r["id"] is not None:
            expected = {"action": "deny_tool", "reason": "no"} if lines[r["id"]] == "rm" else None
            assert r["result"] == (expected or {"action": "continue"})


@given(
    st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()),
    st.one_of(
        st.just({"action": "continue"}),
        st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    ),
)
def test_a_result_line_is_the_json_of_its_message_whatever_the_id_and_result(
    request_id: Any, result: dict[str, Any]
) -> None:
    wire = Recorder(hook)
    wire.result(request_id, "hook.before_tool", result)
    message = {"jsonrpc": "2.0", "id": request_id, "result": result}
    assert wire.lines == [json.dumps(message, separators=(",", ":"), allow_nan=False)]


# A lifecycle hook's handlers (generated, one per method) take params as the
# SDK's decoder lets them through: any member a host may leave out left out,
# any text where text goes, any JSON in a tool's arguments. Whatever the
# callbacks answer, every call gets a result (or the decoder's refusal of
# a member a method needs), never a failure of the layer; and with a
# can_use_tool that fails, no approval comes out.
def members(**values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=values)


short = st.text(max_size=6)
lifecycle_params = members(
    meta=members(SessionKey=short, TurnID=short, Iteration=st.integers(0, 3)),
    tool=short,
    arguments=st.dictionaries(short, json_values, max_size=3),
    result=st.fixed_dictionaries(
        {"for_llm": short}, optional={"is_error": st.booleans(), "for_user": short}
    ),
    messages=st.lists(
        st.fixed_dictionaries(
            {"role": st.sampled_from(["system", "user", "assistant", "tool"])},
            optional={"content": short},
        ),
        max_size=3,
    ),
    model=short,
    tool_kind=st.sampled_from(["read", "write", "execute", "network", "other"]),
    affected_paths=st.lists(short, max_size=2),
    duration=st.integers(0, 10),
)


@settings(max_examples=300)
@given(
    st.sampled_from(
        ["hook.before_llm", "hook.before_tool", "hook.after_tool", "hook.approve_tool"]
    ),
    lifecycle_params,
    st.sampled_from(["continue", "skip", "abort"]),
    json_values,
)
def test_a_lifecycle_hook_answers_every_call_and_approves_nothing_when_can_use_tool_fails(
    method: str, params: dict[str, Any], action: str, modified: Any
) -> None:
    def callback(input: Any) -> Any:
        return {"action": action, "modified_input": modified, "modified_output": modified}

    def can_use_tool(tool: str, arguments: Any, options: Any) -> Any:
        raise RuntimeError("broken")

    hooks: LifecycleHooks = {
        "UserPromptSubmit": [callback],
        "PreToolUse": [callback],
        "PermissionRequest": [callback],
        "PostToolUse": [callback],
        "PostToolUseFailure": [callback],
    }
    hook = LifecycleHook("property", hooks=hooks, can_use_tool=can_use_tool)
    try:
        result = TestClient(hook).call(method, params)
    except HookError as e:
        assert e.code == CODE_INVALID_PARAMS, (e.code, e.message)
        return
    json.dumps(result)
    if method == "hook.approve_tool":
        assert result is not True and result.get("approved") is not True


# A runtime event's session is the first of its scope's session_key and its
# payload's SessionKey that is not empty, whatever else the event carries
# (its payload is any JSON): the lifecycle layer runs the session's
# callbacks with that key, or none when it is not a str, and never fails.
event_members: dict[str, st.SearchStrategy[Any]] = {
    "kind": st.sampled_from(["agent.session.end", "agent.turn.end", "agent.turn.start"]),
    "source": st.just({}),
    "scope": members(session_key=short),
}
runtime_events = st.fixed_dictionaries(
    event_members, optional={"payload": json_values | members(SessionKey=short | json_values)}
)


@settings(max_examples=300)
@given(runtime_events)
def test_a_lifecycle_hook_runs_a_runtime_event_in_the_session_it_names(event: Any) -> None:
    seen: list[str] = []

    def record(input: Any) -> Any:
        seen.append(f"{input.event} {input.session_id}")
        return {"action": "continue"}

    hooks: LifecycleHooks = {"SessionStart": [record], "TaskCompleted": [record]}
    hook = LifecycleHook("property", hooks={**hooks, "SessionEnd": [record]})
    TestClient(hook).runtime_event(event)
    payload = event.get("payload")
    key = event["scope"].get("session_key") or (
        payload.get("SessionKey") if isinstance(payload, dict) else None
    )
    if not isinstance(key, str) or not key or event["kind"] == "agent.session.end":
        assert seen == []  # in no session, or ending one that never started
    elif event["kind"] == "agent.turn.end":
        assert seen == [f"SessionStart {key}", f"TaskCompleted {key}"]
    else:
        assert seen == [f"SessionStart {key}"]
