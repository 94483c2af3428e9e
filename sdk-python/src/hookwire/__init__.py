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

# What the package exports is each module's __all__, the one list of its
# names: the modules below at once, those of _ON_FIRST_USE when first used.
from . import _errors, _hook, _methods_gen, _protocol_gen, _results
from ._errors import *  # noqa: F403
from ._hook import *  # noqa: F403
from ._methods_gen import *  # noqa: F403 (what each method's handler returns)
from ._protocol_gen import *  # noqa: F403 (the protocol's types, error codes, extensions)
from ._results import *  # noqa: F403
from ._version_gen import __version__ as __version__

_AT_ONCE = (_errors, _hook, _methods_gen, _protocol_gen, _results)

# Imported on first use, cheapest first (a name is looked for in each in
# turn): the plugin tools' module is only for a hook that declares tools,
# and the test client and the lifecycle layer need asyncio, which a hook of
# plain functions does without. Type checkers read them as imported here,
# and _lifecycle_gen's too: lifecycle's __all__ adds them in a form they do
# not follow.
_ON_FIRST_USE = ("._canonical", "._tools", "._testing", ".lifecycle")
if TYPE_CHECKING:
    from ._canonical import *  # noqa: F403
    from ._lifecycle_gen import *  # noqa: F403
    from ._testing import *  # noqa: F403
    from ._tools import *  # noqa: F403
    from .lifecycle import *  # noqa: F403


def __getattr__(name: str) -> Any:
    # __all__ too is made on first use: it names what the modules of
    # _ON_FIRST_USE export, which takes importing them.
    if name == "__all__":
        modules = [*_AT_ONCE, *map(_import, _ON_FIRST_USE)]
        value: Any = ["__version__", *(n for m in modules for n in m.__all__)]
    else:
        if name.startswith("_"):  # no module's export: looked up without importing any
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        for module in map(_import, _ON_FIRST_USE):
            if name in module.__all__:
                value = getattr(module, name)
                break
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # the next lookup finds it without coming here
    return value


def _import(module: str) -> Any:
    from importlib import import_module

    return import_module(module, __name__)


def __dir__() -> list[str]:
    return sorted({*globals(), *__getattr__("__all__")})
