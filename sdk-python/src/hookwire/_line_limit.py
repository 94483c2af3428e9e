"""What a hook sends instead of a reply longer than the host reads.

A host stops reading a hook for good at a line longer than it reads. What
goes instead never lets through what the hook would have stopped or changed
(docs/protocol.md, "Replies longer than the host reads"): each request's
answer is the table OVER_LIMIT, generated from schema/methods.json, which fit
applies.
"""

from __future__ import annotations

import json
from typing import Any

from ._errors import HookError
from ._methods_gen import OVER_LIMIT, cut_marker, too_long_reason

# How the stdio server encodes a reply (compact, ASCII, no NaN), so that a
# cut string is measured as it is written.
_dumps = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode


def fit(method: str, result: Any, room: int, limit: int) -> dict[str, Any] | HookError:
    """What replaces the result of a request whose reply line is longer than
    the host reads (limit bytes): a result that takes at most room bytes, or
    the error to send instead."""
    answer = OVER_LIMIT[method]
    reason = too_long_reason(limit)
    if answer.error is not None:
        return HookError(answer.error, reason)
    action = result.get("action") if isinstance(result, dict) else None
    if answer.cut is not None and action == answer.cut:
        cut = cut_to_fit(result, answer.cut_at, room)
        if cut is not None:
            return cut
    if action in answer.keep:
        return {"action": action, "reason": reason}
    return {**(answer.result or {}), "reason": reason}


def cut_to_fit(reply: dict[str, Any], path: tuple[str, ...], room: int) -> dict[str, Any] | None:
    """The reply with its string at path cut from the end so that it takes at
    most room bytes, with a marker; None when even an empty string does not
    fit, or there is none."""
    objects = [reply]  # the objects along the path, outermost first
    for key in path[:-1]:
        inner = objects[-1].get(key)
        if not isinstance(inner, dict):
            return None
        objects.append(inner)
    text = objects[-1].get(path[-1])
    if not isinstance(text, str):
        return None
    size = len(text.encode("utf-8", "surrogatepass"))

    def marked(keep: int) -> str:
        kept = len(text[:keep].encode("utf-8", "surrogatepass"))
        return text[:keep] + cut_marker(size - kept)

    def cut(value: str) -> dict[str, Any]:
        out: dict[str, Any] = {**objects[-1], path[-1]: value}
        for obj, key in zip(reversed(objects[:-1]), reversed(path[:-1])):
            out = {**obj, key: out}
        return out

    # The reply but for the string is the same whatever is kept: its size
    # once. The longest prefix that fits: the size grows with the prefix,
    # since the count in the marker loses a digit only as a whole character
    # is kept.
    others = len(_dumps(cut(""))) - 2
    lo, hi = -1, len(text)  # marked(lo) fits, marked(hi + 1) does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if others + len(_dumps(marked(mid))) <= room:
            lo = mid
        else:
            hi = mid - 1
    return None if lo < 0 else cut(marked(lo))
