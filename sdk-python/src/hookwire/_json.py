"""Reading the host's lines: strict JSON, at any depth, and what to answer when it is not.

The json module reads most lines. It accepts more than JSON (NaN,
Infinity, a UTF-8 byte order mark, surrogates encoded in UTF-8) and gives
up on nesting deeper than the interpreter recurses (RecursionError), where
a request with an id must still be answered. So lines are decoded as
UTF-8 first, NaN and Infinity are refused, and what is too deep for the
json module is read again without recursion.
"""

from __future__ import annotations

import json
import re
from json import decoder
from json.decoder import JSONDecodeError
from typing import Any, Callable

# The json module's own string reader (in C where it can be); untyped in typeshed.
scanstring: Callable[[str, int, bool], tuple[str, int]] = decoder.scanstring  # type: ignore[attr-defined]

ID_TYPES = (int, float, str)


class Undecodable(ValueError):
    """JSON that the interpreter cannot hold (an integer of too many digits, no memory left).

    request_id is the id of the request, when it could be read, else None.
    """

    def __init__(self, message: str, request_id: Any) -> None:
        super().__init__(message)
        self.request_id = request_id


class NotJSON(ValueError):
    """What the json module reads but JSON does not have: NaN, Infinity, -Infinity."""


def _no_constant(name: str) -> Any:
    raise NotJSON(f"{name} is not JSON")


_decoder = json.JSONDecoder(parse_constant=_no_constant)
_loads = _decoder.decode
# What _loads calls once past the whitespace before the value, to read it.
_scan: Callable[[str, int], tuple[Any, int]] = _decoder.scan_once  # type: ignore[attr-defined]


def decode(line: bytes) -> Any:
    """The value of one line; ValueError for what is not JSON, Undecodable for the rest."""
    text = line.decode("utf-8")  # strict: a surrogate or a stray byte is not UTF-8
    try:
        try:
            # _loads(text), sparing its regular expressions for a line that
            # starts with its value.
            try:
                value, end = _scan(text, 0)
            except StopIteration:
                return _loads(text)  # whitespace first, or no value: _loads reads it or says why
            if end != len(text) and text[end:].strip(" \t\n\r"):
                return _loads(text)  # more than whitespace after the value: _loads says what
            return value
        except RecursionError:
            return _decode_deep(text, int)
    except (JSONDecodeError, NotJSON):
        raise
    except ValueError as e:  # such as an integer of more digits than int() takes
        raise Undecodable(str(e), _recover_id(text)) from None
    except MemoryError:
        raise Undecodable("out of memory", None) from None


def valid_id(message: Any) -> Any:
    """The id of a message, when it is one JSON-RPC allows (a number or a string), else None."""
    if not isinstance(message, dict):
        return None
    value = message.get("id")
    return value if type(value) in ID_TYPES else None


def _recover_id(text: str) -> Any:
    """The id of a line that is JSON but whose values do not all decode, or None."""
    try:
        return valid_id(_decode_deep(text, _lenient_int))
    except (ValueError, MemoryError):
        return None


def _lenient_int(digits: str) -> int:
    try:
        return int(digits)
    except ValueError:
        return 0  # too long for the interpreter; only the id is wanted


# The patterns of _decode_deep, compiled for the first line that needs them:
# most hooks never read one.
_patterns: tuple[re.Pattern[str], re.Pattern[str]] | None = None


def _compiled() -> tuple[re.Pattern[str], re.Pattern[str]]:
    global _patterns
    if _patterns is None:
        _patterns = (
            re.compile(r"[ \t\n\r]*"),
            re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?"),
        )
    return _patterns


def _ws(s: str, i: int) -> int:
    """Where the whitespace from i ends (the pattern matches no whitespace too)."""
    return _compiled()[0].match(s, i).end()  # type: ignore[union-attr]


_CONSTANTS = {"true": True, "false": False, "null": None}


def _decode_deep(s: str, parse_int: Callable[[str], int]) -> Any:
    """json.loads without recursion: the same values, the same errors, at any depth.

    A stack holds the containers still open; for an object, with the key
    that waits for its value (a list's is None).
    """
    ws = _ws
    end = len(s)
    stack: list[tuple[Any, str | None]] = []
    key: str | None
    i = ws(s, 0)
    while True:
        # A value starts at i.
        c = s[i : i + 1]
        value: Any
        if c == "{":
            i = ws(s, i + 1)
            if s.startswith("}", i):
                value, i = {}, i + 1
            else:
                key, i = _key(s, i)
                stack.append(({}, key))
                continue
        elif c == "[":
            i = ws(s, i + 1)
            if s.startswith("]", i):
                value, i = [], i + 1
            else:
                stack.append(([], None))
                continue
        elif c == '"':
            value, i = scanstring(s, i + 1, True)
        else:
            value, i = _scalar(s, i, parse_int)
        # The value is whole: put it in its container, closing those that end here.
        while True:
            i = ws(s, i)
            if not stack:
                if i != end:
                    raise JSONDecodeError("Extra data", s, i)
                return value
            container, key = stack[-1]
            if key is None:
                container.append(value)
            else:
                container[key] = value
            c = s[i : i + 1]
            if c == ",":
                i = ws(s, i + 1)
                if key is not None:
                    key, i = _key(s, i)
                    stack[-1] = (container, key)
                break
            if c != ("]" if key is None else "}"):
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            stack.pop()
            value, i = container, i + 1


def _key(s: str, i: int) -> tuple[str, int]:
    """The member name at i, and where its value starts."""
    if not s.startswith('"', i):
        raise JSONDecodeError("Expecting property name enclosed in double quotes", s, i)
    key, i = scanstring(s, i + 1, True)
    i = _ws(s, i)
    if not s.startswith(":", i):
        raise JSONDecodeError("Expecting ':' delimiter", s, i)
    return key, _ws(s, i + 1)


def _scalar(s: str, i: int, parse_int: Callable[[str], int]) -> tuple[Any, int]:
    for name, value in _CONSTANTS.items():
        if s.startswith(name, i):
            return value, i + len(name)
    m = _compiled()[1].match(s, i)
    if m is None:
        raise JSONDecodeError("Expecting value", s, i)
    integer, frac, exp = m.groups()
    if frac or exp:
        return float(integer + (frac or "") + (exp or "")), m.end()
    return parse_int(integer), m.end()
