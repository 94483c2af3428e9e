"""hookwire: agent hooks in Python.

A hook is a process the agent runtime starts and talks to over stdin and
stdout (JSON-RPC 2.0, one message per line). Declare what it does on a Hook,
then run it:

    from hookwire import Hook

    hook = Hook("weather")

    @hook.tool
    def get_weather(city: str) -> str:
        \"\"\"Query weather information for a specified city\"\"\"
        return f"{city}: sunny, 15°C"

    hook.run()

The message types are TypedDicts generated from the protocol's JSON Schema
(hookwire._protocol_gen), and what each method's handler returns is generated
from the method table (hookwire._methods_gen): both re-exported here.

Every exception the SDK raises on purpose derives from HookwireError:
HookError (a JSON-RPC error reply, which a handler raises to choose its
error), DecodeError, ArgumentError and ToolError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _methods_gen, _protocol_gen
from ._errors import HookError, HookwireError
from ._hook import Hook

# The protocol's types, error codes and host extensions, and what each
# method's handler returns: generated, with the lists of their names.
from ._methods_gen import *  # noqa: F403
from ._protocol_gen import *  # noqa: F403
from ._results import Modify, abstain, deny, modify, respond, tool_result
from ._version_gen import __version__

# For type checkers only: at run time these load on first use (see _LAZY).
if TYPE_CHECKING:
    from ._canonical import canonical_tool, rewrite
    from ._testing import TestClient
    from ._tools import ArgumentError
    from .lifecycle import (
        CanUseTool,
        CanUseToolOptions,
        HookEvent,
        HookInput,
        HookOutput,
        LifecycleHook,
        LifecycleHooks,
        PermissionRequestInput,
        PermissionResult,
        PostToolUseFailureInput,
        PostToolUseInput,
        PreToolUseInput,
        SessionEndInput,
        SessionStartInput,
        TaskCompletedInput,
        ToolError,
        ToolInput,
        UserPromptSubmitInput,
    )

# Imported on first use: the test client and the lifecycle layer need
# asyncio, which a hook of plain functions does without, and the plugin tools'
# module is only for a hook that declares tools.
_LAZY = {
    "canonical_tool": "._canonical",
    "rewrite": "._canonical",
    "ArgumentError": "._tools",
    "TestClient": "._testing",
    "CanUseTool": ".lifecycle",
    "CanUseToolOptions": ".lifecycle",
    "HookEvent": ".lifecycle",
    "HookInput": ".lifecycle",
    "HookOutput": ".lifecycle",
    "LifecycleHook": ".lifecycle",
    "LifecycleHooks": ".lifecycle",
    "PermissionRequestInput": ".lifecycle",
    "PermissionResult": ".lifecycle",
    "PostToolUseFailureInput": ".lifecycle",
    "PostToolUseInput": ".lifecycle",
    "PreToolUseInput": ".lifecycle",
    "SessionEndInput": ".lifecycle",
    "SessionStartInput": ".lifecycle",
    "TaskCompletedInput": ".lifecycle",
    "ToolError": ".lifecycle",
    "ToolInput": ".lifecycle",
    "UserPromptSubmitInput": ".lifecycle",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # the next lookup finds it without coming here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "ArgumentError",
    "CanUseTool",
    "CanUseToolOptions",
    "Hook",
    "HookError",
    "HookEvent",
    "HookInput",
    "HookOutput",
    "HookwireError",
    "LifecycleHook",
    "LifecycleHooks",
    "Modify",
    "PermissionRequestInput",
    "PermissionResult",
    "PostToolUseFailureInput",
    "PostToolUseInput",
    "PreToolUseInput",
    "SessionEndInput",
    "SessionStartInput",
    "TaskCompletedInput",
    "TestClient",
    "ToolError",
    "ToolInput",
    "UserPromptSubmitInput",
    "__version__",
    "abstain",
    "canonical_tool",
    "deny",
    "modify",
    "respond",
    "rewrite",
    "tool_result",
]
__all__ += _protocol_gen.__all__ + _methods_gen.__all__
