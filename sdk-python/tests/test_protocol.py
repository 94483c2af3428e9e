"""The generated protocol module against the shared vectors of schema/testdata."""

import json
from pathlib import Path
from typing import Dict, Optional

import pytest

from hookwire import _protocol_gen as p

VALID = sorted(
    (Path(__file__).resolve().parents[2] / "schema" / "testdata" / "valid").glob("*.json")
)


def decode_message(message: object, method: Optional[str]) -> object:
    """Decode a whole message: the envelope, then its params or result by the method table."""
    assert isinstance(message, dict)
    if "method" not in message:
        response = p.decode_response(message)
        if "result" in response:
            assert method is not None, "a response with a result needs the method it answers"
            result = p.METHODS[method].result
            assert result is not None
            p.DECODERS[result](response["result"])
        return response
    if message.get("id", 0) == 0:
        notification = p.decode_notification(message)
        p.DECODERS[p.METHODS[notification["method"]].params](notification.get("params"))
        return notification
    request = p.decode_request(message)
    p.DECODERS[p.METHODS[request["method"]].params](request.get("params"))
    return request


def decode_vector(vector: Dict[str, object]) -> object:
    if "message" in vector:
        method = vector.get("method")
        return decode_message(vector["message"], method if isinstance(method, str) else None)
    if "def" in vector:
        return p.DECODERS[str(vector["def"])](vector["value"])
    info = p.METHODS[str(vector["method"])]
    if "params" in vector:
        return p.DECODERS[info.params](vector["params"])
    assert info.result is not None
    return p.DECODERS[info.result](vector["result"])


def test_the_vectors_are_there() -> None:
    assert VALID, "no vectors in schema/testdata/valid"


@pytest.mark.parametrize("path", VALID, ids=lambda path: path.stem)
def test_every_valid_vector_decodes_and_reencodes_to_the_same_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    vector = json.loads(text)
    typed = decode_vector(vector)
    form = next(k for k in ("message", "params", "result", "value") if k in vector)
    assert json.loads(json.dumps(typed)) == json.loads(text)[form]


def test_a_union_decoder_rejects_an_action_the_result_does_not_allow() -> None:
    with pytest.raises(p.DecodeError) as e:
        p.decode_after_tool_result({"action": "respond", "result": {"for_llm": "x"}})
    assert 'action "respond" is not allowed' in str(e.value)
    assert '"modify"' in str(e.value)


def test_a_result_without_action_is_continue() -> None:
    result = p.decode_before_tool_result({"reason": "fine"})
    assert result == {"reason": "fine"}


def test_decoding_names_the_variant_path_and_the_missing_member() -> None:
    with pytest.raises(p.DecodeError, match=r'^BeforeToolResult: "reason" is missing$'):
        p.decode_before_tool_result({"action": "deny_tool"})
    with pytest.raises(p.DecodeError, match=r'^BeforeLLMParams\.messages\[1\]: "role" is missing$'):
        p.decode_before_llm_params({"model": "m", "messages": [{"role": "user"}, {"content": "x"}]})


def test_member_types_are_checked() -> None:
    with pytest.raises(p.DecodeError, match=r"AfterToolParams\.duration: want an integer, got str"):
        p.decode_after_tool_params({"tool": "t", "result": {"for_llm": ""}, "duration": "15ms"})
    with pytest.raises(p.DecodeError, match=r"ToolResult\.is_error: want a boolean, got int"):
        p.decode_tool_result({"for_llm": "", "is_error": 1})
    with pytest.raises(p.DecodeError, match=r"Message\.content: want a string, got NoneType"):
        p.decode_message({"role": "user", "content": None})


def test_unknown_members_are_kept() -> None:
    value = {"for_llm": "x", "from_a_newer_host": [1, 2]}
    assert p.decode_tool_result(value) is value


def test_the_method_table_names_types_that_have_decoders() -> None:
    for info in p.METHODS.values():
        assert info.params in p.DECODERS
        assert info.notification == (info.result is None)
        assert info.result is None or info.result in p.DECODERS
    assert p.METHODS[p.METHOD_BEFORE_TOOL].actions == (
        p.ACTION_CONTINUE,
        p.ACTION_MODIFY,
        p.ACTION_RESPOND,
        p.ACTION_DENY_TOOL,
        p.ACTION_ABORT_TURN,
        p.ACTION_HARD_ABORT,
    )
