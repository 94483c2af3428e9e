"""Plugin tools: declared once, added in before_llm, answered in before_tool."""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated, Any, Dict, List, Literal, Optional, Union

import pytest

from hookwire import (
    BeforeLLMParams,
    BeforeLLMReply,
    BeforeToolParams,
    BeforeToolReply,
    Hook,
    abort_turn,
    deny_tool,
    modify,
    tool_result,
)

REQUEST: BeforeLLMParams = {
    "meta": {"AgentID": "main"},
    "model": "m",
    "messages": [{"role": "user", "content": "weather?"}],
    "tools": [
        {
            "type": "function",
            "function": {"name": "exec", "description": "run", "parameters": {"type": "object"}},
        }
    ],
    "options": {"max_tokens": 4096},
    "channel": "cli",
}


def call(tool: str, **arguments: Any) -> BeforeToolParams:
    return {"meta": {"AgentID": "main"}, "tool": tool, "arguments": arguments}


def parameters(fn: Any) -> Any:
    hook = Hook("h")
    hook.tool(fn)
    tools = hook.test_client().before_llm({"model": "m", "messages": []})["request"]["tools"]  # type: ignore[typeddict-item]
    return tools[0]["function"]["parameters"]


def test_the_name_is_the_functions_the_description_its_docstring() -> None:
    hook = Hook("h")

    @hook.tool
    def get_weather(city: str) -> str:
        """Query weather information for a specified city

        Args:
            city: City name, e.g.: Beijing,
                Shanghai, Guangzhou
        """
        return city

    result = hook.test_client().before_llm({"model": "m", "messages": []})
    assert result == {
        "action": "modify",
        "request": {
            "model": "m",
            "messages": [],
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Query weather information for a specified city",
                        "parameters": {
                            "type": "object",
                            "properties": {
                                "city": {
                                    "type": "string",
                                    "description": "City name, e.g.: Beijing, Shanghai, Guangzhou",
                                }
                            },
                            "required": ["city"],
                        },
                    },
                }
            ],
        },
    }


def test_parameters_come_from_the_type_hints() -> None:
    def everything(
        text: str,
        count: int,
        ratio: float,
        loud: bool,
        tags: List[str],
        options: Dict[str, Any],
        unit: Literal["c", "f"] = "c",
        note: Optional[str] = None,
        anything: Any = None,
        level: Annotated[int, "How loud, 1 to 3"] = 1,
        either: Union[int, str] = 0,
        plain: list = [],  # type: ignore[type-arg]  # noqa: B006 - never mutated
    ) -> str:
        return ""

    assert parameters(everything) == {
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "loud": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "options": {"type": "object"},
            "unit": {"enum": ["c", "f"], "type": "string", "default": "c"},
            "note": {"type": ["string", "null"], "default": None},
            "anything": {"default": None},
            "level": {"type": "integer", "description": "How loud, 1 to 3", "default": 1},
            "either": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 0},
            "plain": {"type": "array", "default": []},
        },
        "required": ["text", "count", "ratio", "loud", "tags", "options"],
    }


def test_builtin_generics_are_hints_too() -> None:
    def modern(tags: list[str], counts: dict[str, int]) -> str:
        return ""

    assert parameters(modern)["properties"] == {
        "tags": {"type": "array", "items": {"type": "string"}},
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
    }


@pytest.mark.skipif(sys.version_info < (3, 10), reason="X | Y hints need Python 3.10")
def test_union_operator_hints() -> None:
    def modern(note: str | None, either: int | str) -> str:
        return ""

    assert parameters(modern)["properties"] == {
        "note": {"type": ["string", "null"]},
        "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    }


def test_a_hint_with_no_json_schema_is_refused_when_the_tool_is_declared() -> None:
    def bad(when: complex) -> str:
        return ""

    with pytest.raises(TypeError, match="parameter when"):
        Hook("h").tool(bad)


def test_parameters_and_description_may_be_given() -> None:
    hook = Hook("h")
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}

    @hook.tool(name="search", description="Find things", parameters=schema)
    def find(**arguments: Any) -> str:
        return f"found {arguments['q']}"

    client = hook.test_client()
    tools = client.before_llm({"model": "m", "messages": []})["request"]["tools"]  # type: ignore[typeddict-item]
    assert tools == [
        {
            "type": "function",
            "function": {"name": "search", "description": "Find things", "parameters": schema},
        }
    ]
    assert client.before_tool(call("search", q="x"))["result"] == {"for_llm": "found x"}  # type: ignore[typeddict-item]


def test_before_llm_returns_the_whole_request_with_the_tools_appended() -> None:
    hook = Hook("h")

    @hook.tool
    def shout(text: str) -> str:
        """Say it louder"""
        return text.upper()

    result = hook.test_client().before_llm(REQUEST)
    assert result == {
        "action": "modify",
        "request": {
            **REQUEST,
            "tools": [
                *REQUEST["tools"],
                {
                    "type": "function",
                    "function": {
                        "name": "shout",
                        "description": "Say it louder",
                        "parameters": {
                            "type": "object",
                            "properties": {"text": {"type": "string"}},
                            "required": ["text"],
                        },
                    },
                },
            ],
        },
    }


def test_a_tool_the_request_already_has_is_not_added_twice() -> None:
    hook = Hook("h")

    @hook.tool
    def exec(command: str) -> str:
        return command

    assert hook.test_client().before_llm(REQUEST) == {"action": "continue"}


def test_the_tools_are_added_to_what_a_before_llm_handler_returns() -> None:
    hook = Hook("h")

    @hook.tool
    def shout(text: str) -> str:
        return text.upper()

    @hook.before_llm
    def before(req: BeforeLLMParams) -> BeforeLLMReply:
        if req["model"] == "stop":
            return abort_turn("no")
        return modify(req, model="bigger")

    client = hook.test_client()
    result: Any = client.before_llm(REQUEST)
    assert result["action"] == "modify"
    assert result["request"]["model"] == "bigger"
    assert [t["function"]["name"] for t in result["request"]["tools"]] == ["exec", "shout"]
    assert client.before_llm({**REQUEST, "model": "stop"}) == {
        "action": "abort_turn",
        "reason": "no",
    }


def test_a_tool_call_is_answered_with_respond() -> None:
    hook = Hook("h")

    @hook.tool
    def shout(text: str, times: int = 1) -> str:
        return text.upper() * times

    client = hook.test_client()
    assert client.before_tool(call("shout", text="hi", times=2)) == {
        "action": "respond",
        "result": {"for_llm": "HIHI"},
    }


def test_an_async_tool_and_a_tool_result_with_every_member() -> None:
    hook = Hook("h")

    @hook.tool
    async def picture(prompt: str) -> Any:
        await asyncio.sleep(0)
        return tool_result("Image sent", media=["media://1"], response_handled=True)

    assert hook.test_client().before_tool(call("picture", prompt="cat")) == {
        "action": "respond",
        "result": {"for_llm": "Image sent", "media": ["media://1"], "response_handled": True},
    }


def test_a_value_that_is_not_text_goes_to_the_llm_as_json() -> None:
    hook = Hook("h")

    @hook.tool
    def lookup(key: str) -> Dict[str, int]:
        return {key: 1}

    assert hook.test_client().before_tool(call("lookup", key="a"))["result"] == {  # type: ignore[typeddict-item]
        "for_llm": '{"a": 1}'
    }


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({}, 'argument "city" is missing'),
        ({"city": 3}, 'argument "city" must be a string, not 3'),
        ({"city": "x", "days": "2"}, 'argument "days" must be an integer, not "2"'),
        ({"city": "x", "days": 1.5}, 'argument "days" must be an integer, not 1.5'),
        ({"city": "x", "unit": "k"}, 'argument "unit" must be one of "c", "f", not "k"'),
        ({"city": "x", "tags": ["a", 2]}, 'argument "tags[1]" must be a string, not 2'),
        ({"city": "x", "tags": "a"}, 'argument "tags" must be an array or null, not "a"'),
    ],
)
def test_arguments_that_do_not_match_get_an_is_error_result_naming_the_argument(
    arguments: Dict[str, Any], problem: str
) -> None:
    hook = Hook("h")
    ran: List[str] = []

    @hook.tool
    def forecast(
        city: str, days: int = 1, unit: Literal["c", "f"] = "c", tags: Optional[List[str]] = None
    ) -> str:
        ran.append(city)
        return "sunny"

    assert hook.test_client().before_tool(call("forecast", **arguments)) == {
        "action": "respond",
        "result": {"for_llm": f"invalid arguments for forecast: {problem}", "is_error": True},
    }
    assert ran == []


def test_arguments_are_passed_as_their_hints_say() -> None:
    hook = Hook("h")
    got: List[Any] = []

    @hook.tool
    def forecast(city: str, days: int = 1, note: str = "none") -> str:
        got.append((city, days, note))
        return "sunny"

    client = hook.test_client()
    # 2.0 is a whole number; a null optional argument is one not sent; a
    # member the schema does not name is left out.
    client.before_tool(call("forecast", city="x", days=2.0, note=None, extra=True))
    assert got == [("x", 2, "none")]
    assert type(got[0][1]) is int


def test_a_failing_tool_becomes_an_is_error_result() -> None:
    hook = Hook("h")

    @hook.tool
    def divide(a: int, b: int) -> str:
        return str(a // b)

    assert hook.test_client().before_tool(call("divide", a=1, b=0)) == {
        "action": "respond",
        "result": {
            "for_llm": "divide failed: integer division or modulo by zero",
            "is_error": True,
        },
    }


def test_other_tools_pass_through_untouched_or_to_the_before_tool_handler() -> None:
    hook = Hook("h")

    @hook.tool
    def shout(text: str) -> str:
        return text.upper()

    client = hook.test_client()
    assert client.before_tool(call("exec", command="ls")) == {"action": "continue"}

    @hook.before_tool
    def guard(c: BeforeToolParams) -> BeforeToolReply:
        return deny_tool("no exec") if c["tool"] == "exec" else None

    assert client.before_tool(call("exec", command="ls")) == {
        "action": "deny_tool",
        "reason": "no exec",
    }
    assert client.before_tool(call("shout", text="a"))["action"] == "respond"


def test_tools_need_the_llm_and_tool_modes() -> None:
    hook = Hook("h")
    hook.tool(name="noop")(lambda: "x")
    assert hook.modes == ["llm", "tool"]


def test_a_tool_name_is_declared_once() -> None:
    hook = Hook("h")
    hook.tool(name="noop")(lambda: "x")
    with pytest.raises(ValueError, match="already declared"):
        hook.tool(name="noop")(lambda: "y")
