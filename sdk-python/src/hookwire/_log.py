"""The "hookwire" logger, with the logging module loaded when a hook first logs.

logging costs a hook about a fifth of its start-up (it loads traceback,
string, weakref and more), and a hook that runs well never logs: so the SDK
logs through log, which imports logging on its first message.

Hook.run() sends logging to stderr when the program has configured nothing;
for a program that has not loaded logging by then, that happens on the first
message, the SDK's own or, once it has logged, anyone's.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

# For type checkers only: at run time logging loads on the first message.
if TYPE_CHECKING:
    from logging import Logger

NAME = "hookwire"

_configure = False  # set by Hook.run(): configure logging when it is loaded


def configure() -> None:
    """Send logging to stderr when nothing is configured: now, or on the first message."""
    global _configure
    if "logging" in sys.modules:
        _basic_config()
    else:
        _configure = True


def _basic_config() -> None:
    import logging

    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO,
            stream=sys.stderr,
            format="%(levelname)s %(name)s: %(message)s",
        )


class _Lazy:
    """Forwards to the "hookwire" logger, importing logging on first use."""

    def __getattr__(self, name: str) -> Any:
        global _configure
        import logging

        if _configure:
            _configure = False
            _basic_config()
        return getattr(logging.getLogger(NAME), name)


log: Logger = _Lazy()  # type: ignore[assignment]
