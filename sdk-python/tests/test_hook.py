"""Handlers, the respond helpers and hello, through the in-process TestClient."""

from __future__ import annotations

import ast
import asyncio
import functools
import logging
import threading
from pathlib import Path
from typing import Any

import pytest

import hookwire
from hookwire import (
    AfterLLMParams,
    AfterLLMReply,
    AfterToolParams,
    AfterToolReply,
    ApproveToolParams,
    ApproveToolReply,
    BeforeLLMParams,
    BeforeLLMReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    HookError,
    abort_turn,
    continue_,
    deny_tool,
    hard_abort,
    modify,
    respond,
    tool_result,
)

META: hookwire.Meta = {"AgentID": "main", "TurnID": "t1", "Iteration": 1}
LLM_REQUEST: BeforeLLMParams = {
    "meta": META,
    "model": "m",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [],
    "options": {"temperature": 0.7},
    "channel": "cli",
}
LLM_RESPONSE: AfterLLMParams = {"meta": META, "model": "m", "response": {"content": "Hi!"}}
CALL: BeforeToolParams = {"meta": META, "tool": "echo", "arguments": {"text": "hi"}}
RAN: AfterToolParams = {
    "meta": META,
    "tool": "echo",
    "arguments": {"text": "hi"},
    "result": {"for_llm": "hi", "is_error": False},
    "duration": 15_000_000,
}


def test_hello_answers_ok_with_the_hooks_name_and_the_modes_its_handlers_need() -> None:
    hook = Hook("guard")

    @hook.before_tool
    def guard(call: BeforeToolParams) -> BeforeToolReply:
        return None

    @hook.approve_tool
    def approve(call: ApproveToolParams) -> ApproveToolReply:
        return True

    @hook.observe
    def watch(event: hookwire.RuntimeEvent) -> None:
        pass

    assert hook.test_client().hello(name="from-config") == {
        "ok": True,
        "name": "guard",
        "modes": ["observe", "tool", "approve"],
    }


def test_hello_answers_with_the_configured_name_when_the_hook_has_none() -> None:
    hook = Hook()

    @hook.after_llm
    def after(resp: AfterLLMParams) -> AfterLLMReply:
        return None

    assert hook.test_client().hello(name="from-config") == {
        "ok": True,
        "name": "from-config",
        "modes": ["llm"],
    }


def test_an_unknown_protocol_version_is_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="hookwire"):
        result = Hook("h").test_client().hello(version=7)
    assert result["ok"] is True
    assert "protocol version 7" in caplog.text


def test_a_partial_of_a_coroutine_method_is_an_async_handler() -> None:
    # Python 3.9's inspect does not see through a partial of a method.
    class Guard:
        async def check(self, tool: str, call: BeforeToolParams) -> BeforeToolReply:
            return deny_tool(f"{tool} denied") if call["tool"] == tool else None

    hook = Hook("h")
    hook.before_tool(functools.partial(Guard().check, "shell"))
    client = hook.test_client()
    assert client.before_tool({"tool": "shell", "arguments": {}}) == {
        "action": "deny_tool",
        "reason": "shell denied",
    }


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_every_interceptor_has_a_handler_that_may_be_sync_or_async(flavour: str) -> None:
    hook = Hook("h")
    seen: list[str] = []

    def reply(method: str, params: Any) -> Any:
        seen.append(method)
        return None

    if flavour == "sync":
        hook.before_llm(lambda p: reply("before_llm", p))
        hook.after_llm(lambda p: reply("after_llm", p))
        hook.before_tool(lambda p: reply("before_tool", p))
        hook.after_tool(lambda p: reply("after_tool", p))
    else:

        async def before_llm(p: BeforeLLMParams) -> BeforeLLMReply:
            return reply("before_llm", p)  # type: ignore[no-any-return]

        async def after_llm(p: AfterLLMParams) -> AfterLLMReply:
            return reply("after_llm", p)  # type: ignore[no-any-return]

        async def before_tool(p: BeforeToolParams) -> BeforeToolReply:
            return reply("before_tool", p)  # type: ignore[no-any-return]

        async def after_tool(p: AfterToolParams) -> AfterToolReply:
            return reply("after_tool", p)  # type: ignore[no-any-return]

        hook.before_llm(before_llm)
        hook.after_llm(after_llm)
        hook.before_tool(before_tool)
        hook.after_tool(after_tool)

    client = hook.test_client()
    assert client.before_llm(LLM_REQUEST) == {"action": "continue"}
    assert client.after_llm(LLM_RESPONSE) == {"action": "continue"}
    assert client.before_tool(CALL) == {"action": "continue"}
    assert client.after_tool(RAN) == {"action": "continue"}
    assert seen == ["before_llm", "after_llm", "before_tool", "after_tool"]


def test_sync_handlers_run_off_the_event_loop_thread() -> None:
    hook = Hook("h")
    threads: list[str] = []

    @hook.before_tool
    def sync(call: BeforeToolParams) -> BeforeToolReply:
        threads.append(threading.current_thread().name)
        return None

    hook.test_client().before_tool(CALL)
    assert threads and threads[0].startswith("hookwire-")
    assert threads[0] != threading.main_thread().name


def test_a_handler_receives_the_params_as_sent() -> None:
    hook = Hook("h")
    received: list[Any] = []

    @hook.before_tool
    def spy(call: BeforeToolParams) -> BeforeToolReply:
        received.append(call)
        return None

    hook.test_client().before_tool(CALL)
    assert received == [CALL]
    assert received[0] is not CALL  # a fresh copy, as decoded from the wire


def test_methods_without_a_handler_continue() -> None:
    client = Hook("h").test_client()
    assert client.before_llm(LLM_REQUEST) == {"action": "continue"}
    assert client.before_tool(CALL) == {"action": "continue"}


def test_approve_tool_without_a_handler_is_an_error_never_an_approval() -> None:
    with pytest.raises(HookError) as e:
        Hook("h").test_client().approve_tool({"tool": "exec", "arguments": {}})
    assert e.value.code == -32601


def test_an_unknown_method_is_a_32601_error() -> None:
    with pytest.raises(HookError) as e:
        Hook("h").test_client().call("hook.after_everything", {})
    assert (e.value.code, e.value.message) == (-32601, "method not found: hook.after_everything")


def test_params_that_do_not_decode_are_a_32602_error_naming_the_member() -> None:
    with pytest.raises(HookError) as e:
        Hook("h").test_client().call("hook.before_tool", {"tool": 3, "arguments": {}})
    assert e.value.code == -32602
    assert "tool" in e.value.message


def test_a_handler_that_raises_is_a_32000_error_with_its_message() -> None:
    hook = Hook("h")

    @hook.before_tool
    def broken(call: BeforeToolParams) -> BeforeToolReply:
        raise KeyError("no such thing")

    with pytest.raises(HookError) as e:
        hook.test_client().before_tool(CALL)
    assert (e.value.code, e.value.message) == (-32000, "KeyError: 'no such thing'")
    assert isinstance(e.value.__cause__, KeyError)


def test_a_handler_chooses_its_error_with_hook_error() -> None:
    hook = Hook("h")
    chosen = HookError(-32010, "quota", {"retry_after": 5})

    @hook.before_tool
    def limited(call: BeforeToolParams) -> BeforeToolReply:
        raise chosen

    with pytest.raises(HookError) as e:
        hook.test_client().before_tool(CALL)
    assert (e.value.code, e.value.message, e.value.data) == (-32010, "quota", {"retry_after": 5})
    assert e.value.__cause__ is chosen
    # The data as the host gets it: a copy, through JSON.
    assert e.value.data is not chosen.data
    assert e.value.error() == {"code": -32010, "message": "quota", "data": {"retry_after": 5}}


def test_a_hook_error_without_data_has_no_data_member() -> None:
    e = HookError(-32001, "plain")
    assert (e.code, e.message, e.data, str(e)) == (-32001, "plain", None, "plain")
    assert e.error() == {"code": -32001, "message": "plain"}


def test_a_hook_error_whose_data_is_not_json_is_a_32000_error() -> None:
    hook = Hook("h")

    @hook.before_tool
    def odd(call: BeforeToolParams) -> BeforeToolReply:
        raise HookError(-32010, "odd", object())

    with pytest.raises(HookError) as e:
        hook.test_client().before_tool(CALL)
    assert e.value.code == -32000
    assert e.value.message.startswith("the data of the error -32010 (odd) is not JSON")


@pytest.mark.parametrize(
    ("code", "message", "wrong"),
    [
        ("1", "m", "code is an int, not str"),
        (True, "m", "code is an int, not bool"),
        (1.0, "m", "code is an int, not float"),
        (1, None, "message is a str, not NoneType"),
    ],
)
def test_a_hook_error_needs_an_int_code_and_a_str_message(
    code: Any, message: Any, wrong: str
) -> None:
    with pytest.raises(TypeError, match=wrong):
        HookError(code, message)


def test_a_hook_error_copies_and_pickles_whole() -> None:
    import copy
    import pickle

    e = HookError(-32010, "quota", {"retry_after": 5})
    for again in (copy.copy(e), pickle.loads(pickle.dumps(e))):
        assert isinstance(again, HookError)
        assert (again.code, again.message, again.data) == (-32010, "quota", {"retry_after": 5})


def test_every_exception_of_the_sdk_derives_from_hookwire_error() -> None:
    from hookwire import ArgumentError, DecodeError, HookwireError, ToolError

    for error in (HookError, DecodeError, ArgumentError, ToolError):
        assert issubclass(error, HookwireError)
    assert issubclass(HookwireError, Exception)
    # Still ValueErrors, as they were before the base came.
    assert issubclass(DecodeError, ValueError)
    assert issubclass(ArgumentError, ValueError)
    from hookwire._protocol_gen import decode_tool_result

    with pytest.raises(HookwireError):
        decode_tool_result({"for_llm": 1})


def test_a_handler_may_register_only_once() -> None:
    hook = Hook("h")
    hook.before_tool(lambda call: None)
    with pytest.raises(ValueError, match="already has a handler"):
        hook.before_tool(lambda call: None)


# The respond helpers, each as the wire carries it.


def reply_to_before_tool(result: BeforeToolReply) -> Any:
    hook = Hook("h")
    hook.before_tool(lambda call: result)
    return hook.test_client().before_tool(CALL)


def test_continue_and_none_both_continue() -> None:
    assert reply_to_before_tool(continue_()) == {"action": "continue"}
    assert reply_to_before_tool(None) == {"action": "continue"}
    assert reply_to_before_tool(continue_("fine")) == {"action": "continue", "reason": "fine"}


def test_modify_returns_the_whole_received_object_under_each_methods_key() -> None:
    hook = Hook("h")
    hook.before_llm(lambda req: modify(req, model="other"))
    hook.after_llm(lambda resp: modify(resp, response={"content": "Bye!"}))
    hook.before_tool(lambda call: modify(call, arguments={"text": "changed"}, reason="why"))
    hook.after_tool(lambda ran: modify(ran, result={**ran["result"], "for_llm": "changed"}))
    client = hook.test_client()
    assert client.before_llm(LLM_REQUEST) == {
        "action": "modify",
        "request": {**LLM_REQUEST, "model": "other"},
    }
    assert client.after_llm(LLM_RESPONSE) == {
        "action": "modify",
        "response": {**LLM_RESPONSE, "response": {"content": "Bye!"}},
    }
    assert client.before_tool(CALL) == {
        "action": "modify",
        "call": {**CALL, "arguments": {"text": "changed"}},
        "reason": "why",
    }
    assert client.after_tool(RAN) == {
        "action": "modify",
        "result": {**RAN, "result": {"for_llm": "changed", "is_error": False}},
    }


def test_respond_with_text_and_every_tool_result_member() -> None:
    assert reply_to_before_tool(respond("sunny")) == {
        "action": "respond",
        "result": {"for_llm": "sunny"},
    }
    assert reply_to_before_tool(
        respond(
            "Image sent to user",
            for_user="here it is",
            silent=False,
            media=["media://abc123"],
            artifact_tags=["/tmp/a.png"],
            response_handled=True,
        )
    ) == {
        "action": "respond",
        "result": {
            "for_llm": "Image sent to user",
            "for_user": "here it is",
            "silent": False,
            "media": ["media://abc123"],
            "artifact_tags": ["/tmp/a.png"],
            "response_handled": True,
        },
    }
    assert reply_to_before_tool(respond("no such city", is_error=True, silent=True)) == {
        "action": "respond",
        "result": {"for_llm": "no such city", "is_error": True, "silent": True},
    }


def test_respond_takes_a_whole_tool_result_and_the_call_as_answered() -> None:
    call: BeforeToolParams = {**CALL, "arguments": {"text": "normalised"}}
    assert reply_to_before_tool(
        respond(tool_result("done", for_user="done!"), call=call, reason="cached")
    ) == {
        "action": "respond",
        "result": {"for_llm": "done", "for_user": "done!"},
        "call": call,
        "reason": "cached",
    }


def test_deny_abort_turn_and_hard_abort() -> None:
    assert reply_to_before_tool(deny_tool("not today")) == {
        "action": "deny_tool",
        "reason": "not today",
    }
    assert reply_to_before_tool(abort_turn("stop")) == {"action": "abort_turn", "reason": "stop"}
    assert reply_to_before_tool(hard_abort()) == {"action": "hard_abort"}


def test_an_action_the_method_does_not_allow_is_a_handler_error() -> None:
    hook = Hook("h")
    hook.after_tool(lambda ran: deny_tool("too late"))  # type: ignore[type-var]
    with pytest.raises(HookError) as e:
        hook.test_client().after_tool(RAN)
    assert e.value.code == -32000
    assert "deny_tool" in e.value.message


def test_a_result_that_is_not_valid_is_a_handler_error_naming_the_member() -> None:
    hook = Hook("h")
    hook.before_tool(lambda call: {"action": "respond", "result": {"for_user": "x"}})  # type: ignore[type-var]
    with pytest.raises(HookError) as e:
        hook.test_client().before_tool(CALL)
    assert e.value.code == -32000
    assert "for_llm" in e.value.message


def test_a_reply_of_the_wrong_type_is_a_handler_error() -> None:
    hook = Hook("h")
    hook.before_tool(lambda call: "continue")  # type: ignore[type-var]
    with pytest.raises(HookError, match="returned str"):
        hook.test_client().before_tool(CALL)


def test_approve_tool_takes_a_bool_or_a_result_with_a_reason() -> None:
    hook = Hook("h")

    @hook.approve_tool
    def approve(req: ApproveToolParams) -> ApproveToolReply:
        if req["tool"] == "exec":
            return {"approved": False, "reason": "dangerous"}
        return req["tool"] == "read_file"

    client = hook.test_client()
    assert client.approve_tool({"tool": "read_file", "arguments": {}}) == {"approved": True}
    assert client.approve_tool({"tool": "write_file", "arguments": {}}) == {"approved": False}
    assert client.approve_tool({"tool": "exec", "arguments": {}}) == {
        "approved": False,
        "reason": "dangerous",
    }


def test_approve_tool_refuses_to_guess_from_none() -> None:
    hook = Hook("h")
    hook.approve_tool(lambda req: None)  # type: ignore[type-var]
    with pytest.raises(HookError) as e:
        hook.test_client().approve_tool({"tool": "exec", "arguments": {}})
    assert e.value.code == -32000


def test_the_test_client_runs_inside_an_event_loop_with_the_async_methods() -> None:
    hook = Hook("h")
    hook.before_tool(lambda call: deny_tool("no"))
    client = hook.test_client()

    async def in_a_loop() -> Any:
        with pytest.raises(RuntimeError, match="call_async"):
            client.before_tool(CALL)
        return await client.call_async("hook.before_tool", CALL)

    assert asyncio.run(in_a_loop()) == {"action": "deny_tool", "reason": "no"}


def test_host_extensions_are_those_of_the_last_hello() -> None:
    hook = Hook("h")
    client = hook.test_client()
    assert hook.host_extensions == ()
    client.hello(extensions=["approve_tool.abstain", "approve_tool.arguments"])
    assert hook.host_extensions == ("approve_tool.abstain", "approve_tool.arguments")
    client.hello()  # a host that announces none applies none
    assert hook.host_extensions == ()


def test_on_close_functions_run_once_in_order_and_one_that_raises_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hook = Hook("h")
    ran: list[str] = []

    @hook.on_close
    def first() -> None:
        ran.append("first")
        raise RuntimeError("disk full")

    @hook.on_close
    async def second() -> None:
        await asyncio.sleep(0)
        ran.append("second")

    assert hook.needs_loop()
    client = hook.test_client()
    client.close()
    client.close()
    assert ran == ["first", "second"]
    assert "the on_close function first failed" in caplog.text
    assert "disk full" in caplog.text


def test_every_generated_type_is_exported() -> None:
    from hookwire import _protocol_gen

    tree = ast.parse(Path(_protocol_gen.__file__).read_text(encoding="utf-8"))
    # The types are defined for type checkers in an if TYPE_CHECKING block.
    body = [
        inner
        for node in tree.body
        for inner in ([*node.body, *node.orelse] if isinstance(node, ast.If) else [node])
    ]
    defined = {
        target.id
        for node in body
        for target in (node.targets if isinstance(node, ast.Assign) else [])
        if isinstance(target, ast.Name)
    } | {node.name for node in body if isinstance(node, ast.ClassDef)}
    types = {name for name in defined if name[0].isupper() and not name.isupper()}
    assert types >= {"BeforeToolParams", "BeforeToolResult", "Action", "ToolResult"}
    assert sorted(types - set(hookwire.__all__)) == ["MethodInfo"]


def test_every_method_a_hook_handles_has_a_decorator_and_a_test_client_call() -> None:
    from hookwire._protocol_gen import METHODS

    handled = [m for m in METHODS.values() if m.mode is not None and not m.notification]
    assert len(handled) >= 5
    for method in handled:
        name = method.name.rpartition(".")[2]
        hook = Hook("all")

        def handler(params: Any) -> None:
            return None

        assert getattr(hook, name)(handler) is handler
        assert hook.modes == [method.mode]
        with pytest.raises(ValueError, match=f"{method.name} already has a handler"):
            getattr(hook, name)(handler)
        assert callable(getattr(hook.test_client(), name))


def test_hello_says_what_each_granted_mode_without_a_handler_gets(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Hook("idle").test_client()
    with caplog.at_level(logging.WARNING, logger="hookwire"):
        modes = ["observe", "llm", "tool", "approve", "dream"]
        client.call("hook.hello", {"name": "idle", "version": 1, "modes": modes})
    said = [r.getMessage().split(": ", 1)[1] for r in caplog.records if "grants" in r.getMessage()]
    assert said == [
        "events are dropped",
        "hook.before_llm and hook.after_llm are answered with continue",
        "hook.before_tool and hook.after_tool are answered with continue",
        "hook.approve_tool is answered with an error, "
        "which a host may take as a denial of every tool call",
        "its calls get an error",
    ]


def test_each_action_has_a_helper_named_after_it() -> None:
    assert hookwire.continue_() == {"action": "continue"}
    assert hookwire.continue_("why") == {"action": "continue", "reason": "why"}
    assert hookwire.deny_tool("no") == {"action": "deny_tool", "reason": "no"}
    assert hookwire.abort_turn("stop") == {"action": "abort_turn", "reason": "stop"}
    assert hookwire.hard_abort() == {"action": "hard_abort"}
    assert hookwire.deny is hookwire.deny_tool  # its name before, kept for older hooks
