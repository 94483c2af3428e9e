"""What the shell reader gives back: hookwire.shell re-exports these."""

from __future__ import annotations

from dataclasses import dataclass, field

# Why a reading holds an unknown (docs/shell-reader.md, "Unknowns").
SYNTAX = "syntax"
DYNAMIC_PROGRAM = "dynamic-program"
SHELL_STDIN = "shell-stdin"
ALIAS = "alias"
ARITHMETIC = "arithmetic"
DEPTH = "depth"
TOO_LONG = "too-long"

MAX_LENGTH = 1 << 20  # bytes of a command line; longer ones are not read
MAX_DEPTH = 32  # nesting levels: subshells, bodies, substitutions, strings read again


@dataclass(frozen=True)
class Redirect:
    """A redirection: op as written with its descriptor (2>&), target after quote removal."""

    op: str
    target: str


@dataclass(frozen=True)
class Unknown:
    """What cannot be known without running the command: a reason and its text."""

    reason: str
    text: str


@dataclass(frozen=True)
class Command:
    """One program the shell would run, with its words as the program gets them.

    dynamic holds the indexes of the words the shell expands when it runs
    (kept as their source text); via is "" for a command the shell runs
    itself, else what runs it ("sudo", "bash", "$()", "find", ...).
    """

    args: list[str]
    dynamic: list[int] = field(default_factory=list)
    via: str = ""
    redirects: list[Redirect] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The base name of args[0]: /usr/bin/rm gives rm."""
        return self.args[0].rpartition("/")[2] if self.args else ""

    def has_flag(self, short: str, long: str) -> bool:
        """Whether an argument before any -- is -short (alone or in a cluster) or --long.

        short is one letter, compared as given ("r" and "R" are asked for
        apart); long matches --long, --long=..., and any non-empty prefix
        of it (--rec for --recursive), as GNU's getopt reads it. Options
        after operands count; dynamic words are skipped. Pass "" for a
        form the program does not have.
        """
        skip = set(self.dynamic)
        for i in range(1, len(self.args)):
            if i in skip:
                continue
            arg = self.args[i]
            if arg == "--":
                return False
            if arg.startswith("--"):
                name = arg[2:].partition("=")[0]
                if name and long.startswith(name):
                    return True
            elif arg.startswith("-") and len(short) == 1 and short in arg[1:]:
                return True
        return False


@dataclass(frozen=True)
class Reading:
    """The commands a shell would run and what could not be known.

    A guard that finds nothing to block in commands lets the call through
    only when unknown is empty.
    """

    commands: list[Command]
    unknown: list[Unknown]
