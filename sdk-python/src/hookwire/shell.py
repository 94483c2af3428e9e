"""Read a shell command line as POSIX sh and bash split it, for a guard to decide on.

read(command) gives the programs the shell would run (each a Command: its
words after quote removal, what runs it, its redirects) and what cannot be
known without running it (each an Unknown). A guard blocks on the commands
and refuses when anything is unknown:

    from hookwire.shell import read

    def dangerous(command: str) -> str | None:
        reading = read(command)
        if reading.unknown:
            return f"cannot read the command: {reading.unknown[0].reason}"
        for c in reading.commands:
            recursive = c.has_flag("r", "recursive") or c.has_flag("R", "")
            if c.name == "rm" and recursive:
                return "a recursive delete"
            if c.name == "find" and "-delete" in c.args:
                return "find -delete"
        return None

So `sudo bash -c 'rm --rec x'`, `r\\m -rf x` and `find . -exec rm -r {} +`
are refused, and `grep -rn "rm -rf" docs` passes. The reader does not know
aliases and functions from start-up files, scripts' contents, or what
`python -c` runs. docs/shell-reader.md is the full contract, shared with
the Go and TypeScript SDKs.
"""

from __future__ import annotations

from ._shell_lex import Failure, State
from ._shell_parse import read_into
from ._shell_types import (
    ALIAS,
    ARITHMETIC,
    DEPTH,
    DYNAMIC_PROGRAM,
    MAX_DEPTH,
    MAX_LENGTH,
    SHELL_STDIN,
    SYNTAX,
    TOO_LONG,
    Command,
    Reading,
    Redirect,
    Unknown,
)

__all__ = [
    "ALIAS",
    "ARITHMETIC",
    "DEPTH",
    "DYNAMIC_PROGRAM",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "SHELL_STDIN",
    "SYNTAX",
    "TOO_LONG",
    "Command",
    "Reading",
    "Redirect",
    "Unknown",
    "read",
]


def read(command: str) -> Reading:
    """The commands command runs and what cannot be known; never raises.

    On syntax, depth or too-long, unknown holds that one reason and
    commands is empty: nothing read is to be trusted.
    """
    if len(command) > MAX_LENGTH or _utf8_length(command) > MAX_LENGTH:
        return Reading([], [Unknown(TOO_LONG, command)])
    state = State()
    try:
        read_into(command, state)
    except Failure as failure:
        return Reading([], [Unknown(failure.reason, failure.text)])
    except RecursionError:  # not reached within MAX_DEPTH; a last guard
        return Reading([], [Unknown(DEPTH, command)])
    return Reading(state.commands, state.unknown)


def _utf8_length(text: str) -> int:
    # Lone surrogates count as the three bytes they would take.
    return len(text.encode("utf-8", "surrogatepass"))
