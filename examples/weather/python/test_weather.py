"""The weather hook answers as the plain script of the source documents does."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hookwire import BeforeLLMParams

from weather import hook

HERE = Path(__file__).parent
EXAMPLE = HERE.parent
REQUEST: BeforeLLMParams = {
    "model": "m",
    "messages": [{"role": "user", "content": "What's the weather in Beijing today?"}],
    "tools": [],
}


def plain_script() -> Any:
    """examples/weather/script/weather_plugin.py, imported as a module."""
    spec = importlib.util.spec_from_file_location(
        "weather_plugin", EXAMPLE / "script" / "weather_plugin.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def hookwire_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference runtime's CLI, built once per test session from this checkout."""
    binary = tmp_path_factory.mktemp("bin") / "hookwire"
    core = HERE.parents[2] / "core"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/hookwire"], cwd=core, check=True)
    return binary


def test_get_weather_is_offered_with_the_plain_scripts_definition() -> None:
    result: Any = hook.test_client().before_llm(REQUEST)
    script = plain_script().handle_before_llm({**REQUEST, "tools": []})
    assert result["action"] == "modify"
    assert result["request"]["tools"] == script["request"]["tools"]


@pytest.mark.parametrize("city", ["Beijing", "Shanghai", "Guangzhou", "Shenzhen", "Atlantis", ""])
def test_get_weather_answers_as_the_plain_script(city: str) -> None:
    call = {"tool": "get_weather", "arguments": {"city": city}}
    result = hook.test_client().call("hook.before_tool", call)
    assert result == plain_script().handle_before_tool(call)


def test_other_tools_pass_through() -> None:
    client = hook.test_client()
    assert client.before_tool({"tool": "exec", "arguments": {"command": "ls"}}) == {
        "action": "continue"
    }


def transcript(cli: Path, hooks: Path) -> list[dict[str, Any]]:
    run = subprocess.run(
        [str(cli), "run", "--hooks", str(hooks), "--json", str(EXAMPLE / "scenario.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    for r in records:
        r.pop("duration_ms", None)  # the one member that varies between runs
    return records


def test_under_the_runtime_the_llms_get_weather_call_is_answered_by_the_hook(
    hookwire_cli: Path,
) -> None:
    records = transcript(hookwire_cli, HERE / "hooks.json")
    calls = [r for r in records if r["type"] == "tool"]
    assert calls == [
        {
            "type": "tool",
            "tool": "get_weather",
            "arguments": {"city": "Beijing"},
            "outcome": "answered",
            "by": "weather_plugin",
            "result": {
                "for_llm": "Beijing weather: Sunny, temperature 15°C, humidity 45%",
                "is_error": False,
            },
        }
    ]
    assert [r for r in records if r["type"] == "turn_end"] == [
        {
            "type": "turn_end",
            "status": "done",
            "answer": "Beijing is sunny today, temperature 15°C.",
        }
    ]
    assert records == transcript(hookwire_cli, EXAMPLE / "hooks.json")
