"""Every Python example of the README runs, type-checks, and answers as a hook."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import TIMEOUT

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "hook.hello",
    "params": {"name": "readme", "version": 1, "modes": []},
}


def test_the_weather_plugin_comes_first_in_under_15_lines() -> None:
    assert "def get_weather(city: str)" in EXAMPLES[0]
    assert len(EXAMPLES[0].strip().splitlines()) < 15


@pytest.mark.parametrize(
    "code", EXAMPLES, ids=lambda code: code.split("Hook(", 1)[-1].split(")")[0]
)
def test_an_example_runs(code: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script)],
        input=json.dumps(HELLO).encode() + b"\n",
        capture_output=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr.decode()
    if "hook.run()" in code or "hook.serve()" in code:
        reply = json.loads(run.stdout.splitlines()[0])
        assert reply["id"] == 1
        assert reply["result"]["ok"] is True
    else:
        assert run.stdout == b""


def test_the_examples_type_check(tmp_path: Path) -> None:
    for i, code in enumerate(EXAMPLES):
        (tmp_path / f"example_{i}.py").write_text(code, encoding="utf-8")
    check = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.9", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout
