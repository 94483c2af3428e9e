"""Whether a handler is a coroutine function: asked by every layer that registers one."""

from __future__ import annotations

from functools import partial
from types import FunctionType
from typing import Any, Callable

# inspect.CO_COROUTINE: the flag of a function defined with async def.
_CO_COROUTINE = 0x80


def is_async(fn: Callable[..., Any]) -> bool:
    """Whether calling fn gives a coroutine, for functions and callable objects alike."""
    while isinstance(fn, partial):
        # Python 3.9's inspect does not look through a partial of a method.
        fn = fn.func
    if type(fn) is FunctionType and not hasattr(fn, "_is_coroutine_marker"):
        # What inspect answers for a plain function (one that
        # inspect.markcoroutinefunction has not marked), without importing
        # inspect: a hook of plain handlers would load it for nothing else.
        return bool(fn.__code__.co_flags & _CO_COROUTINE)
    import inspect

    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - the method, not callable()
    )
