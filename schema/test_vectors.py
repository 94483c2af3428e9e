"""The shared vectors in testdata/, checked against hookwire.schema.json by
python-jsonschema: an implementation independent of the Go validator, so a
schema that only Go reads correctly fails here.

Valid vectors must be accepted. Invalid vectors must be rejected for exactly
one fault, at the JSON Pointer the vector names, which is what keeps each of
them a test of one rule.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

HERE = Path(__file__).parent
TESTDATA = HERE / "testdata"
SCHEMA: dict[str, Any] = json.loads(
    (HERE / "hookwire.schema.json").read_text(encoding="utf-8")
)
METHODS: dict[str, dict[str, Any]] = {
    m["method"]: m
    for m in json.loads((HERE / "methods.json").read_text(encoding="utf-8"))["methods"]
}
REGISTRY: Registry[Any] = Registry().with_resource(
    SCHEMA["$id"], Resource.from_contents(SCHEMA)
)
FORMS = ("message", "params", "result", "def")

# A fault is where a rule is broken (a JSON Pointer) and which keyword broke it.
Fault = tuple[str, str]


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(
        {"$ref": f"{SCHEMA['$id']}#/$defs/{name}"}, registry=REGISTRY
    )


def pointer(parts: list[str | int]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def faults(name: str, instance: Any, at: str = "") -> list[Fault]:
    found: set[Fault] = set()
    for e in validator(name).iter_errors(instance):
        parts = list(e.absolute_path)
        if e.validator == "required":
            # Point at the missing member, not at the object that lacks it.
            found.update(
                (at + pointer([*parts, k]), "required")
                for k in e.validator_value
                if k not in e.instance
            )
        else:
            found.add((at + pointer(parts), str(e.validator)))
    return sorted(found)


def result_faults(method: str, result: Any, at: str = "") -> list[Fault]:
    name = METHODS[method]["result"]
    union = SCHEMA["$defs"][name]
    if "discriminator" not in union:
        return faults(name, result, at)
    # Decode the discriminator first, as the Go validator does, so a fault is
    # reported inside the one variant the action selects rather than as a
    # failed oneOf.
    key = union["discriminator"]["propertyName"]
    if not isinstance(result, dict):
        found = [(at, "type")]
    else:
        # The protocol reads an absent or empty action as continue, which a
        # discriminator mapping cannot say.
        action = result.get(key) or "continue"
        ref = (
            union["discriminator"]["mapping"].get(action)
            if isinstance(action, str)
            else None
        )
        found = (
            faults(ref.rsplit("/", 1)[1], result, at)
            if ref
            else [(f"{at}/{key}", "discriminator")]
        )
    assert validator(name).is_valid(result) == (
        not found
    ), f"{name}: its oneOf and its discriminator disagree"
    return found


def message_faults(message: Any, method: str | None) -> list[Fault]:
    if not isinstance(message, dict):
        return [("", "type")]
    if "method" not in message:
        found = faults("Response", message)
        if "result" in message and method is not None:
            found += result_faults(method, message["result"], "/result")
        return found
    # The classification the Go validator makes: a non-zero id is a request,
    # no id or id 0 (older hosts) a notification.
    kind = "request" if message.get("id", 0) != 0 else "notification"
    found = faults(kind.capitalize(), message)
    info = METHODS.get(message["method"])
    if info is None:
        return found  # a newer method: only its envelope can be checked
    if info["kind"] != kind:
        found.append(("/id", "kind"))
    if "params" in message:
        found += faults(info["params"], message["params"], "/params")
    else:
        found.append(("/params", "required"))
    return found


def vector_faults(vector: dict[str, Any]) -> list[Fault]:
    method = vector.get("method")
    if "message" in vector:
        return message_faults(vector["message"], method)
    if "def" in vector:
        return faults(vector["def"], vector["value"])
    assert method in METHODS, f"unknown method {method!r}"
    if "params" in vector:
        return faults(METHODS[method]["params"], vector["params"])
    return result_faults(method, vector["result"])


def load(path: Path) -> dict[str, Any]:
    vector: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return vector


def files(kind: str) -> list[Path]:
    return sorted((TESTDATA / kind).glob("*.json"))


@pytest.mark.parametrize(
    "path", files("valid") + files("invalid"), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_vector_is_well_formed(path: Path) -> None:
    vector = load(path)
    assert isinstance(vector.get("description"), str) and vector["description"]
    forms = [f for f in FORMS if f in vector]
    assert len(forms) == 1, f"one of {FORMS} expected, got {forms}"
    allowed = {"description", forms[0], "method", "path"}
    if forms[0] == "def":
        assert vector["def"] in SCHEMA["$defs"]
        allowed.add("value")
        assert "value" in vector
    if forms[0] in ("params", "result"):
        assert vector.get("method") in METHODS
    if (
        forms[0] == "message"
        and isinstance(vector["message"], dict)
        and "result" in vector["message"]
    ):
        assert (
            vector.get("method") in METHODS
        ), "a response with a result names the method it answers"
    assert ("path" in vector) == (
        path.parent.name == "invalid"
    ), "invalid vectors, and only they, carry path"
    assert set(vector) <= allowed, f"unexpected members {set(vector) - allowed}"


def test_schema_is_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)


def test_there_are_vectors_of_both_kinds() -> None:
    assert files("valid") and files("invalid")


@pytest.mark.parametrize("path", files("valid"), ids=lambda p: p.name)
def test_valid_vector_is_accepted(path: Path) -> None:
    assert vector_faults(load(path)) == []


@pytest.mark.parametrize("path", files("invalid"), ids=lambda p: p.name)
def test_invalid_vector_is_rejected_for_one_fault_at_its_path(path: Path) -> None:
    vector = load(path)
    found = vector_faults(vector)
    assert [p for p, _ in found] == [vector["path"]], found
