"""The calculator hook, in-process: every case of ../cases.json, and its two tools.

examples/calculator_test.go runs the same table through the hook as a
process, under hookwire run and hookwire mcp, for the three languages.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hookwire import BeforeLLMParams
from hypothesis import given, settings
from hypothesis import strategies as st

from arith import CalcError, evaluate
from calculator import hook

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "cases.json").read_text(encoding="utf-8")
)["cases"]


def expression(case: dict[str, Any]) -> str:
    """A case's expression: a string, or [text, times] pieces joined."""
    e = case["expression"]
    return e if isinstance(e, str) else "".join(text * times for text, times in e)


def for_llm(case: dict[str, Any]) -> tuple[str, bool]:
    if "error" in case:
        return "Calculation error: " + case["error"], True
    return "Calculation result: " + case["result"], False


@pytest.mark.parametrize("case", CASES, ids=lambda c: str(c["expression"])[:40])
def test_every_case_of_the_table(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(CalcError) as refused:
            evaluate(expression(case))
        assert str(refused.value) == case["error"]
    else:
        assert evaluate(expression(case)) == case["result"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: str(c["expression"])[:40])
def test_calculate_answers_each_case_with_a_result_or_an_error_result(
    case: dict[str, Any],
) -> None:
    call = {"tool": "calculate", "arguments": {"expression": expression(case)}}
    text, is_error = for_llm(case)
    assert hook.test_client().call("hook.before_tool", call) == {
        "action": "respond",
        "result": {"for_llm": text, "is_error": is_error},
    }


def test_both_tools_are_offered_to_the_llm() -> None:
    request: BeforeLLMParams = {"model": "m", "messages": [], "tools": []}
    result: Any = hook.test_client().before_llm(request)
    assert result["action"] == "modify"
    tools = [t["function"] for t in result["request"]["tools"]]
    assert [t["name"] for t in tools] == ["get_weather", "calculate"]
    assert tools[1]["parameters"]["required"] == ["expression"]


def test_get_weather_answers_from_its_data() -> None:
    client = hook.test_client()
    assert client.before_tool({"tool": "get_weather", "arguments": {"city": "Beijing"}}) == {
        "action": "respond",
        "result": {
            "for_llm": "Beijing weather: Sunny, temperature 15°C, humidity 45%",
            "is_error": False,
        },
    }


def test_other_tools_pass_through() -> None:
    client = hook.test_client()
    assert client.before_tool({"tool": "exec", "arguments": {"command": "ls"}}) == {
        "action": "continue"
    }


# Characters an expression is made of, and some it must refuse.
_ALPHABET = "0123456789.eE+-*/%^() \t_xa[]'\"\x00é"


@given(st.text(alphabet=_ALPHABET, max_size=200) | st.text(max_size=50))
@settings(max_examples=500, deadline=None)
def test_any_text_gets_a_result_or_a_calculation_error(text: str) -> None:
    """The model writes the expression: whatever it writes, the calculator
    answers a number or refuses it, and never fails another way."""
    try:
        answer = evaluate(text)
    except CalcError:
        return
    assert float(answer) == float(answer)  # a number, not NaN
