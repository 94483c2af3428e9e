"""The lifecycle layer in-process: each event fires from the protocol call or
event it maps to, its outcomes become the reply the design says, and the
rules within one hook hold (order, chained input, short-circuit, failures
taken as continue)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from hookwire import (
    JSON,
    AfterToolParams,
    ApproveToolParams,
    BeforeLLMParams,
    BeforeToolParams,
    HookEvent,
    HookInput,
    HookOutput,
    LifecycleHook,
    LifecycleHooks,
    Meta,
    PostToolUseFailureInput,
    PostToolUseInput,
    PreToolUseInput,
    RuntimeEvent,
    TestClient,
    ToolInput,
    ToolResult,
    UserPromptSubmitInput,
)
from hookwire.lifecycle import CanUseTool

CONTINUE: HookOutput = {"action": "continue"}


def meta(session: str, turn: str = "t1") -> Meta:
    return {"AgentID": "agent-1", "SessionKey": session, "TurnID": turn, "Iteration": 1}


def request(session: str, turn: str, text: str = "Read notes.txt") -> BeforeLLMParams:
    return {
        "meta": meta(session, turn),
        "model": "scripted",
        "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": text},
        ],
        "tools": [{"type": "function", "function": {"name": "read_file"}}],
        "options": {"temperature": 0},
        "channel": "cli",
    }


def call(tool: str, arguments: ToolInput, session: str = "s1") -> BeforeToolParams:
    return {"meta": meta(session), "tool": tool, "arguments": arguments, "chat_id": "chat-1"}


def ran(tool: str, result: ToolResult, session: str = "s1") -> AfterToolParams:
    return {
        "meta": meta(session),
        "tool": tool,
        "arguments": {"path": "notes.txt"},
        "result": result,
        "duration": 1500,
    }


def approval(tool: str, **more: Any) -> ApproveToolParams:
    req: ApproveToolParams = {"meta": meta("s1"), "tool": tool, "arguments": {"command": "ls"}}
    req.update(more)  # type: ignore[typeddict-item]
    return req


def event(kind: str, session: str, payload: JSON = None) -> RuntimeEvent:
    return {
        "kind": kind,
        "source": {"component": "agent"},
        "scope": {"session_key": session},
        "payload": {} if payload is None else payload,
    }


def setup(hooks: LifecycleHooks, can_use_tool: CanUseTool | None = None) -> TestClient:
    return LifecycleHook("lc", hooks=hooks, can_use_tool=can_use_tool).test_client()


def recorder(seen: list[str]) -> Any:
    """A callback that records what it saw, as "event detail", and continues."""

    def record(input: HookInput) -> HookOutput:
        if isinstance(input, UserPromptSubmitInput):
            detail = input.message
        elif hasattr(input, "tool_input"):
            detail = f"{input.tool_name} {input.tool_input}"  # type: ignore[union-attr]
        else:
            detail = input.session_id
        seen.append(f"{input.event} {detail}")
        return CONTINUE

    return record


def test_hello_declares_the_modes_the_registered_events_need() -> None:
    def modes(hooks: LifecycleHooks, can_use_tool: CanUseTool | None = None) -> Any:
        return setup(hooks, can_use_tool).hello()["modes"]

    def cont(input: HookInput) -> HookOutput:
        return CONTINUE

    assert modes({"UserPromptSubmit": [cont]}) == ["llm"]
    assert modes({"PreToolUse": [cont]}) == ["tool"]
    assert modes({"PostToolUse": [cont]}) == ["tool"]
    assert modes({"PostToolUseFailure": [cont]}) == ["tool"]
    assert modes({"PermissionRequest": [cont]}) == ["approve"]
    assert modes({}, lambda tool, args, options: {"behavior": "allow"}) == ["approve"]
    assert modes({"SessionStart": [cont]}) == ["observe"]
    assert modes({"TaskCompleted": [cont]}) == ["observe"]
    assert modes({"SessionEnd": [cont]}) == ["observe"]
    assert modes({"PreToolUse": [], "SessionEnd": [cont]}) == ["observe"]


def test_an_unknown_event_or_a_callback_that_cannot_be_called_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown lifecycle event 'PreToolUsage'"):
        LifecycleHook(hooks={"PreToolUsage": []})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PreToolUse callbacks are not a sequence of callables"):
        LifecycleHook(hooks={"PreToolUse": ["guard"]})  # type: ignore[list-item]


# SessionStart


def test_session_start_fires_once_per_key_before_the_call_that_revealed_it() -> None:
    seen: list[str] = []
    t = setup({HookEvent.SessionStart: [recorder(seen)], HookEvent.PreToolUse: [recorder(seen)]})
    t.before_tool(call("read_file", {"path": "a"}, "s1"))
    t.before_tool(call("read_file", {"path": "b"}, "s1"))
    t.before_tool(call("read_file", {"path": "c"}, "s2"))
    assert seen == [
        "SessionStart s1",
        "PreToolUse read_file {'path': 'a'}",
        "PreToolUse read_file {'path': 'b'}",
        "SessionStart s2",
        "PreToolUse read_file {'path': 'c'}",
    ]


def test_session_start_fires_from_events_and_not_again_for_calls() -> None:
    seen: list[str] = []
    t = setup({"SessionStart": [recorder(seen)], "PreToolUse": [recorder(seen)]})
    t.runtime_event(event("agent.session.start", "s1", {"SessionKey": "s1"}))
    t.runtime_event(event("agent.turn.start", "s2"))
    t.runtime_event(
        {"kind": "agent.session.start", "source": {}, "scope": {}, "payload": {"SessionKey": "s3"}}
    )
    t.runtime_event({"kind": "agent.turn.start", "source": {}, "scope": {}, "payload": {}})
    t.runtime_event(
        {"kind": "agent.turn.start", "source": {}, "scope": {}, "payload": {"SessionKey": "s4"}}
    )
    t.runtime_event(event("agent.turn.start", "s1"))
    t.before_tool(call("echo_text", {}, "s2"))
    assert seen == [
        "SessionStart s1",
        "SessionStart s2",
        "SessionStart s3",
        "SessionStart s4",
        "PreToolUse echo_text {}",
    ]


def test_a_key_seen_again_after_its_session_ended_starts_a_new_session() -> None:
    seen: list[str] = []
    t = setup({"SessionStart": [recorder(seen)], "SessionEnd": [recorder(seen)]})
    t.runtime_event(event("agent.session.start", "s1"))
    t.runtime_event(event("agent.session.end", "s1"))
    t.runtime_event(event("agent.session.start", "s1"))
    assert seen == ["SessionStart s1", "SessionEnd s1", "SessionStart s1"]


def test_calls_without_a_session_key_belong_to_session_empty_events_without_one_to_none() -> None:
    seen: list[str] = []
    t = setup(
        {
            "SessionStart": [recorder(seen)],
            "PreToolUse": [recorder(seen)],
            "TaskCompleted": [recorder(seen)],
            "SessionEnd": [recorder(seen)],
        }
    )
    t.before_tool({"tool": "echo_text", "arguments": {}})
    t.runtime_event({"kind": "agent.turn.end", "source": {}, "scope": {}, "payload": {}})
    t.close()
    assert seen == ["SessionStart ", "PreToolUse echo_text {}", "SessionEnd "]


def test_a_slow_session_start_runs_once_and_concurrent_calls_wait_for_it() -> None:
    seen: list[str] = []
    starts = 0

    async def slow_start(input: HookInput) -> HookOutput:
        nonlocal starts
        starts += 1
        await asyncio.sleep(0.05)
        seen.append("started")
        return CONTINUE

    t = setup({"SessionStart": [slow_start], "PreToolUse": [recorder(seen)]})

    async def both() -> None:
        await asyncio.gather(
            t.call_async("hook.before_tool", call("a", {})),
            t.call_async("hook.before_tool", call("b", {})),
        )

    asyncio.run(both())
    assert starts == 1
    assert seen[0] == "started"
    assert sorted(seen[1:]) == ["PreToolUse a {}", "PreToolUse b {}"]


# UserPromptSubmit


def test_user_prompt_submit_fires_on_the_first_before_llm_of_each_turn() -> None:
    seen: list[str] = []
    t = setup({"UserPromptSubmit": [recorder(seen)]})
    assert t.before_llm(request("s1", "t1", "first")) == {"action": "continue"}
    t.before_llm(request("s1", "t1", "first"))  # the second round of the turn
    t.before_llm(request("s1", "t2", "second"))
    t.before_llm(request("s2", "t1", "other session"))
    assert seen == [
        "UserPromptSubmit first",
        "UserPromptSubmit second",
        "UserPromptSubmit other session",
    ]


def test_a_modified_input_that_leaves_the_prompt_as_it_was_is_continue() -> None:
    def same(input: Any) -> HookOutput:
        return {"action": "continue", "modified_input": input.message}

    t = setup({"UserPromptSubmit": [same]})
    assert t.before_llm(request("s1", "t1", "first")) == {"action": "continue"}


def test_without_a_turn_id_the_prompt_is_a_request_ending_with_a_user_message() -> None:
    seen: list[str] = []
    t = setup({"UserPromptSubmit": [recorder(seen)]})
    req: BeforeLLMParams = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    t.before_llm(req)
    t.before_llm(
        {
            **req,
            "messages": [
                *req["messages"],
                {"role": "assistant", "content": ""},
                {"role": "tool", "content": "x"},
            ],
        }
    )
    assert seen == ["UserPromptSubmit hi"]


def test_modified_input_replaces_the_user_messages_text_in_the_whole_request_in_a_chain() -> None:
    seen: list[str] = []

    def please(input: UserPromptSubmitInput) -> HookOutput:
        return {"action": "continue", "modified_input": input.message + " please"}

    async def shout(input: UserPromptSubmitInput) -> HookOutput:
        return {"action": "continue", "modified_input": input.message.upper()}

    t = setup({"UserPromptSubmit": [please, recorder(seen), shout]})
    req = request("s1", "t1", "read notes")
    assert t.before_llm(req) == {
        "action": "modify",
        "request": {
            **req,
            "messages": [req["messages"][0], {"role": "user", "content": "READ NOTES PLEASE"}],
        },
    }
    assert seen == ["UserPromptSubmit read notes please"]


def test_a_prompt_abort_ends_the_turn_and_a_skip_is_taken_as_continue() -> None:
    seen: list[str] = []

    def first(input: UserPromptSubmitInput) -> HookOutput:
        if input.message == "stop":
            return {"action": "abort", "reason": "not today"}
        return {"action": "continue", "modified_input": "edited"}

    t = setup({"UserPromptSubmit": [first, lambda input: {"action": "skip"}, recorder(seen)]})
    assert t.before_llm(request("s1", "t1", "stop")) == {
        "action": "abort_turn",
        "reason": "not today",
    }
    result: Any = t.before_llm(request("s1", "t2", "go"))
    assert result["action"] == "modify"
    assert result["request"]["messages"][1] == {"role": "user", "content": "edited"}
    assert seen == []


# PreToolUse


def test_pre_tool_use_modified_input_is_a_modify_of_the_whole_call_in_a_chain() -> None:
    seen: list[str] = []

    def one(input: PreToolUseInput) -> HookOutput:
        return {"action": "continue", "modified_input": {**input.tool_input, "text": "one"}}

    async def extra(input: PreToolUseInput) -> HookOutput:
        return {"action": "continue", "modified_input": {**input.tool_input, "extra": True}}

    t = setup({"PreToolUse": [one, recorder(seen), extra, recorder(seen)]})
    c = call("echo_text", {"text": "zero"})
    assert t.before_tool(c) == {
        "action": "modify",
        "call": {**c, "arguments": {"text": "one", "extra": True}},
    }
    assert seen == [
        "PreToolUse echo_text {'text': 'one'}",
        "PreToolUse echo_text {'text': 'one', 'extra': True}",
    ]


def test_pre_tool_use_continue_alone_lets_the_call_through_unchanged() -> None:
    t = setup({"PreToolUse": [lambda input: CONTINUE]})
    assert t.before_tool(call("echo_text", {"text": "x"})) == {"action": "continue"}


def test_skip_denies_the_tool_abort_ends_the_turn_and_either_stops_the_rest() -> None:
    seen: list[str] = []

    def gate(input: PreToolUseInput) -> HookOutput:
        if input.tool_name == "shell":
            return {"action": "skip", "reason": "no shell"}
        if input.tool_name == "nuke":
            return {"action": "abort", "reason": "dangerous"}
        return CONTINUE

    t = setup({"PreToolUse": [gate, recorder(seen)]})
    assert t.before_tool(call("shell", {})) == {"action": "deny_tool", "reason": "no shell"}
    assert t.before_tool(call("nuke", {})) == {"action": "abort_turn", "reason": "dangerous"}
    assert t.before_tool(call("echo_text", {})) == {"action": "continue"}
    assert seen == ["PreToolUse echo_text {}"]


def test_a_skip_or_abort_without_a_reason() -> None:
    t = setup({"PreToolUse": [lambda input: {"action": "skip"}]})
    assert t.before_tool(call("shell", {})) == {
        "action": "deny_tool",
        "reason": "shell skipped by a PreToolUse callback",
    }
    t = setup({"PreToolUse": [lambda input: {"action": "abort"}]})
    assert t.before_tool(call("shell", {})) == {"action": "abort_turn"}


def test_a_callback_that_raises_is_logged_and_taken_as_continue_the_tool_and_the_rest_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[str] = []

    def check(input: PreToolUseInput) -> HookOutput:
        return {"action": "continue", "modified_input": {**input.tool_input, "checked": True}}

    async def monitor(input: PreToolUseInput) -> HookOutput:
        raise ConnectionError("monitoring is down")

    def broken(input: PreToolUseInput) -> HookOutput:
        raise RuntimeError("a plain one broke")

    t = setup({"PreToolUse": [check, monitor, broken, recorder(seen)]})
    c = call("echo_text", {"text": "hi"})
    assert t.before_tool(c) == {
        "action": "modify",
        "call": {**c, "arguments": {"text": "hi", "checked": True}},
    }
    assert seen == ["PreToolUse echo_text {'text': 'hi', 'checked': True}"]
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in errors] == [
        "PreToolUse callback 2 failed, taken as continue: ConnectionError: monitoring is down",
        "PreToolUse callback 3 failed, taken as continue: RuntimeError: a plain one broke",
    ]
    assert all(r.exc_info for r in errors)  # with the traceback


def test_an_answer_that_is_no_outcome_or_a_change_of_the_wrong_kind_is_logged_and_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    t = setup(
        {
            "PreToolUse": [
                lambda input: None,  # type: ignore[list-item,return-value]
                lambda input: {"action": "go on"},  # type: ignore[typeddict-item]
                lambda input: {"action": "continue", "modified_input": "rm -rf /"},
                lambda input: {"action": "continue", "modified_input": {"when": {1, 2}}},  # type: ignore[dict-item]
                lambda input: {"action": "continue", "modified_output": "text"},
            ]
        }
    )
    assert t.before_tool(call("echo_text", {})) == {"action": "continue"}
    assert [r.getMessage() for r in caplog.records] == [
        "PreToolUse callback 1 answered None, not continue, skip or abort: taken as continue",
        "PreToolUse callback 2 answered {'action': 'go on'}, not continue, skip or abort: "
        "taken as continue",
        "PreToolUse callback 3: modified_input is a str, not the tool's arguments (a dict); "
        "taken as continue",
        "PreToolUse callback 4: modified_input is not JSON: Object of type set is not JSON "
        "serializable; taken as continue",
        "PreToolUse callback 5 answered modified_output, which PreToolUse has no use for: ignored",
    ]


def test_plain_callbacks_run_on_worker_threads_async_ones_on_the_event_loop() -> None:
    threads: dict[str, int] = {}

    def plain(input: PreToolUseInput) -> HookOutput:
        threads["plain"] = threading.get_ident()
        return CONTINUE

    async def coroutine(input: PreToolUseInput) -> HookOutput:
        threads["async"] = threading.get_ident()
        return CONTINUE

    t = setup({"PreToolUse": [plain, coroutine]})

    async def in_the_loop() -> None:
        threads["loop"] = threading.get_ident()
        await t.call_async("hook.before_tool", call("echo_text", {}))

    asyncio.run(in_the_loop())
    assert threads["async"] == threads["loop"]
    assert threads["plain"] != threads["loop"]


# PostToolUse and PostToolUseFailure

OK: ToolResult = {"for_llm": "Ship on Friday.", "for_user": "", "is_error": False}
FAILED: ToolResult = {"for_llm": "open missing.txt: no such file", "is_error": True}


def test_post_tool_use_fires_on_a_result_that_is_not_an_error() -> None:
    inputs: list[HookInput] = []

    def keep(input: HookInput) -> HookOutput:
        inputs.append(input)
        return CONTINUE

    t = setup({"PostToolUse": [keep], "PostToolUseFailure": [keep]})
    assert t.after_tool(ran("read_file", OK)) == {"action": "continue"}
    assert inputs == [PostToolUseInput("s1", "read_file", {"path": "notes.txt"}, OK)]


def test_post_tool_use_failure_fires_on_an_error_result_its_text_the_message() -> None:
    inputs: list[HookInput] = []

    def keep(input: HookInput) -> HookOutput:
        inputs.append(input)
        return CONTINUE

    t = setup({"PostToolUse": [keep], "PostToolUseFailure": [keep]})
    t.after_tool(ran("read_file", FAILED))
    [input] = inputs
    assert isinstance(input, PostToolUseFailureInput)
    assert input.event == "PostToolUseFailure"
    assert input.error.message == str(input.error) == "open missing.txt: no such file"
    assert input.error.result == FAILED
    assert input.tool_input == {"path": "notes.txt"}


def test_modified_output_as_text_replaces_for_llm_as_a_tool_result_the_whole_result() -> None:
    seen: list[object] = []

    def monday(input: PostToolUseInput) -> HookOutput:
        text = input.tool_output["for_llm"].replace("Friday", "Monday")
        return {"action": "continue", "modified_output": text}

    def see(input: HookInput) -> HookOutput:
        if isinstance(input, PostToolUseInput):
            seen.append(input.tool_output)
        elif isinstance(input, PostToolUseFailureInput):
            seen.append(input.error.message)
        return CONTINUE

    async def explain(input: PostToolUseFailureInput) -> HookOutput:
        result: ToolResult = {"for_llm": "the file is not there; ask the user", "is_error": True}
        return {"action": "continue", "modified_output": result}

    t = setup({"PostToolUse": [monday, see], "PostToolUseFailure": [explain, see]})
    r = ran("read_file", OK)
    assert t.after_tool(r) == {
        "action": "modify",
        "result": {**r, "result": {**OK, "for_llm": "Ship on Monday."}},
    }
    f = ran("read_file", FAILED)
    assert t.after_tool(f) == {
        "action": "modify",
        "result": {
            **f,
            "result": {"for_llm": "the file is not there; ask the user", "is_error": True},
        },
    }
    assert seen == [{**OK, "for_llm": "Ship on Monday."}, "the file is not there; ask the user"]


def test_a_modified_output_that_is_no_tool_result_is_logged_and_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    t = setup(
        {
            "PostToolUse": [
                lambda input: {"action": "continue", "modified_output": {"text": "x"}},  # type: ignore[typeddict-item]
                lambda input: {"action": "continue", "modified_output": 42},  # type: ignore[typeddict-item]
            ]
        }
    )
    assert t.after_tool(ran("read_file", OK)) == {"action": "continue"}
    assert [r.getMessage() for r in caplog.records] == [
        "PostToolUse callback 1: modified_output is not a ToolResult: "
        'ToolResult: "for_llm" is missing; taken as continue',
        "PostToolUse callback 2: modified_output is a int, neither a ToolResult nor a str "
        "(the new for_llm); taken as continue",
    ]


def test_an_abort_after_the_tool_ends_the_turn_and_stops_the_rest() -> None:
    seen: list[str] = []
    t = setup(
        {
            "PostToolUseFailure": [
                lambda input: {"action": "abort", "reason": "cannot go on"},
                recorder(seen),
            ]
        }
    )
    assert t.after_tool(ran("read_file", FAILED)) == {
        "action": "abort_turn",
        "reason": "cannot go on",
    }
    assert seen == []
