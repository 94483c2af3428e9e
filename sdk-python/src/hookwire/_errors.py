"""The exceptions of hookwire: HookwireError and the ones derived from it.

A module of its own, importing nothing, so that the generated protocol
module (DecodeError) and the plugin tools (ArgumentError) can derive from
the same base without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["HookError", "HookwireError"]


class HookwireError(Exception):
    """The base of every exception hookwire raises on purpose.

    ``except HookwireError`` catches HookError, DecodeError, ArgumentError
    and ToolError, and none of Python's own exceptions.
    """


class HookError(HookwireError):
    """A JSON-RPC error reply: the code, message and data the host receives.

    A handler raises it to choose its error: the reply is
    ``{"error": {"code": code, "message": message, "data": data}}``, data
    left out when it is None (any other exception is answered with -32000
    and its message). The test client raises it for every error reply.
    """

    def __init__(self, code: int, message: str, data: object = None) -> None:
        # Checked here, where the handler that got them wrong is on the stack,
        # rather than when the reply is written.
        if not isinstance(code, int) or isinstance(code, bool):
            raise TypeError(f"HookError's code is an int, not {type(code).__name__}")
        if not isinstance(message, str):
            raise TypeError(f"HookError's message is a str, not {type(message).__name__}")
        # All three as args, so that copy and pickle rebuild it.
        super().__init__(code, message, data)
        self.code = int(code)
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return self.message

    def error(self) -> dict[str, object]:
        """The reply's error member, as the wire carries it."""
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ToolError(HookwireError):
    """A tool's failure, as a lifecycle PostToolUseFailure callback gets it:
    result is the tool's result (a ToolResult), message its for_llm."""

    def __init__(self, result: Mapping[str, object]) -> None:
        super().__init__(result)  # as args, so that copy and pickle rebuild it
        self.result = result

    @property
    def message(self) -> str:
        return str(self.result["for_llm"])

    def __str__(self) -> str:
        return self.message


def failure_message(e: BaseException) -> str:
    """The message the host reads for a handler that raised: the
    exception's class with its text, as a traceback's last line says it
    (``KeyError: 'path'``, where the text alone would be ``'path'``)."""
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__
