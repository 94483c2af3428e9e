"""The exchange vectors of schema/testdata/exchanges, played with the reference hook.

Each vector is a host's lines in and the lines a hook must write back; the
README next to them says how they are compared.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EXCHANGES = Path(__file__).resolve().parents[2] / "schema" / "testdata" / "exchanges"
REFERENCE = Path(__file__).parent / "hooks" / "reference.py"
ANY = "<any>"


def parse(text: str) -> tuple[list[str], list[str]]:
    """The in and out lines of a vector's txtar text."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("-- ") and line.endswith(" --"):
            current = sections.setdefault(line[3:-3], [])
        elif current is not None and line:
            current.append(line)
    return sections["in"], sections.get("out", [])


def matches(want: Any, got: Any) -> bool:
    if want == ANY:
        return True
    if isinstance(want, dict):
        return (
            isinstance(got, dict)
            and want.keys() == got.keys()
            and all(matches(want[k], got[k]) for k in want)
        )
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(want) == len(got)
            and all(matches(w, g) for w, g in zip(want, got))
        )
    # bool is an int in Python: compare types too, as JSON does.
    return type(want) is type(got) and want == got


VECTORS = sorted(EXCHANGES.glob("*.txtar"))


def test_there_are_exchange_vectors() -> None:
    assert len(VECTORS) >= 20


@pytest.mark.parametrize("vector", VECTORS, ids=lambda p: p.stem)
def test_the_reference_hook_answers_as_the_exchange_vector_says(vector: Path) -> None:
    lines_in, lines_out = parse(vector.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, str(REFERENCE)],
        input="".join(line + "\n" for line in lines_in).encode(),
        capture_output=True,
        timeout=10,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    left = [json.loads(line) for line in lines_out]
    for line in done.stdout.decode().splitlines():
        got = json.loads(line)
        i = next((i for i, want in enumerate(left) if matches(want, got)), None)
        assert i is not None, f"wrote a line not expected: {line}\nstill expected: {left}"
        del left[i]
    assert not left, f"did not write: {left}"
