"""The message types are real at run time: TypedDicts, Literals and Unions, not dict and str."""

from __future__ import annotations

import subprocess
import sys
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

import hookwire
from hookwire import _protocol_gen


def is_typeddict(value: object) -> bool:
    # typing.is_typeddict is 3.10's; before it, the metaclass says.
    check = getattr(typing, "is_typeddict", None)
    if check is not None:
        return bool(check(value))
    return type(value).__name__ == "_TypedDictMeta"


def test_a_message_type_is_a_typeddict_class() -> None:
    code = "import hookwire, typing; print(hookwire.BeforeToolParams)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, timeout=20
    ).stdout.decode()
    assert out.strip() == "<class 'hookwire._protocol_gen.BeforeToolParams'>"
    assert is_typeddict(hookwire.BeforeToolParams)


def test_required_and_optional_members_are_told_apart() -> None:
    params: Any = hookwire.BeforeToolParams
    assert params.__required_keys__ == frozenset({"tool"})
    assert {"arguments", "meta"} <= params.__optional_keys__
    hints = get_type_hints(params)
    assert hints["tool"] is str
    assert hints["meta"] is hookwire.Meta
    # Still a dict when called, as a TypedDict is.
    made = hookwire.BeforeToolParams(tool="exec")
    assert made == {"tool": "exec"} and type(made) is dict


def test_every_exported_type_is_real() -> None:
    """No name of the protocol is the stand-in it once was at run time."""
    for name in _protocol_gen.__all__:
        value = getattr(hookwire, name)
        assert value not in (dict, str, object), name
        if name[0].isupper() and not name.isupper() and name != "DecodeError":
            # Every message type, literal type, union and reply type.
            assert is_typeddict(value) or get_origin(value) in (Literal, Union), name


def test_literal_types_list_their_values() -> None:
    assert get_origin(hookwire.Mode) is Literal
    assert get_args(hookwire.Mode) == _protocol_gen.MODES
    assert get_args(hookwire.Action) == _protocol_gen.ACTIONS


@pytest.mark.parametrize(
    ("reply", "params"),
    [
        (hookwire.BeforeToolReply, hookwire.BeforeToolParams),
        (hookwire.AfterLLMReply, hookwire.AfterLLMParams),
    ],
)
def test_a_reply_type_is_the_union_a_handler_may_return(reply: Any, params: Any) -> None:
    members = get_args(reply)
    assert type(None) in members
    assert hookwire.Modify[params] in members


def test_a_union_lists_its_variants() -> None:
    variants = get_args(hookwire.BeforeToolResult)
    assert hookwire.DenyTool in variants
    assert all(is_typeddict(v) for v in variants)
