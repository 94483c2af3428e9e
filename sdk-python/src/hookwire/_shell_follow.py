"""What a command runs in turn: wrappers, shells' -c, env -S, eval, trap, find -exec.

The table is docs/shell-reader.md's ("What runs a command"). A chain of
wrappers is followed in a loop, not by recursion; a string read again goes
back to the parser one level down.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from ._shell_types import ALIAS, DYNAMIC_PROGRAM, SHELL_STDIN, Command

SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "mksh", "ash"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_ENV_ESCAPES = {"_": " ", "n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v"}


class _Wrapper(NamedTuple):
    short: str = ""  # short options that take a value
    long: tuple[str, ...] = ()  # long options that take a value
    operands: int = 0  # words between the options and the command
    assignments: bool = False  # NAME=value words before the command are skipped
    optional: str = ""  # short options whose value, if any, is the rest of their word


WRAPPERS = {
    "sudo": _Wrapper(
        "ughpCDrtTU",
        (
            "user",
            "group",
            "host",
            "prompt",
            "close-from",
            "chdir",
            "role",
            "type",
            "command-timeout",
            "other-user",
        ),
        assignments=True,
    ),
    "doas": _Wrapper("uC"),
    "env": _Wrapper("uC", ("unset", "chdir"), assignments=True),
    "command": _Wrapper(),
    "builtin": _Wrapper(),
    "nohup": _Wrapper(),
    "setsid": _Wrapper(),
    "unbuffer": _Wrapper(),
    "exec": _Wrapper("a"),
    "nice": _Wrapper("n", ("adjustment",)),
    "time": _Wrapper("fo", ("format", "output")),
    "timeout": _Wrapper("sk", ("signal", "kill-after"), 1),
    "xargs": _Wrapper(
        "InPLdEsa",
        (
            "replace",
            "max-args",
            "max-procs",
            "max-lines",
            "delimiter",
            "eof",
            "max-chars",
            "arg-file",
            "process-slot-var",
        ),
        optional="iel",
    ),
    "stdbuf": _Wrapper("ioe", ("input", "output", "error")),
    "ionice": _Wrapper("cnp", ("class", "classdata", "pid")),
    "chrt": _Wrapper(operands=1),
    "taskset": _Wrapper(operands=1),
    "flock": _Wrapper("wE", ("timeout", "conflict-exit-code"), 1),
    "caffeinate": _Wrapper("tw"),
}

# The programs that run another, or a string, or say something of one.
_FOLLOWED = SHELLS | set(WRAPPERS) | {"alias", "eval", "trap", "find"}

# A word and whether it is dynamic.
_Arg = tuple[str, bool]


class Sink(Protocol):
    def emit(self, command: Command) -> None: ...
    def add_unknown(self, reason: str, text: str) -> None: ...
    def read_again(self, text: str, via: str) -> None: ...
    def nest(self, levels: int) -> None: ...


def follow(command: Command, sink: Sink) -> None:
    """Reads what command runs, and what that runs, after the command itself."""
    if command.name not in _FOLLOWED and command.dynamic[:1] != [0]:
        return  # most commands: nothing to follow
    todo = [(command, 0)]
    while todo:
        current, level = todo.pop()
        for inner in _runs(current, sink):
            sink.nest(level + 1)
            sink.emit(inner)
            todo.append((inner, level + 1))


def _command(args: list[_Arg], via: str) -> Command:
    return Command([a for a, _ in args], [i for i, (_, d) in enumerate(args) if d], via)


def _runs(command: Command, sink: Sink) -> list[Command]:
    """The commands command runs itself; strings it runs go to sink.read_again."""
    if not command.args:
        return []
    dynamic = set(command.dynamic)
    args = [(a, i in dynamic) for i, a in enumerate(command.args)]
    if args[0][1]:
        sink.add_unknown(DYNAMIC_PROGRAM, args[0][0])
        return []
    name = command.name
    rest = args[1:]
    if name in SHELLS:
        _shell(name, args[0][0], rest, sink)
    elif name == "alias":
        for arg, dyn in rest:
            if dyn or "=" in arg:
                sink.add_unknown(ALIAS, arg)
    elif name == "eval":
        if rest and rest[0] == ("--", False):
            rest = rest[1:]
        _read_words(rest, "eval", sink)
    elif name == "trap":
        if rest and rest[0][0] in ("-p", "-l", "-lp", "-pl"):
            return []
        if rest and rest[0] == ("--", False):
            rest = rest[1:]
        # One operand is a signal to reset; the action comes before the signals.
        if len(rest) >= 2 and rest[0][0] not in ("", "-"):
            _read_words(rest[:1], "trap", sink)
    elif name == "find":
        return _find(rest)
    elif name in WRAPPERS:
        inner = _unwrap(name, rest, sink)
        if inner:
            return [_command(inner, name)]
    return []


def _read_words(words: list[_Arg], via: str, sink: Sink) -> None:
    for word, dyn in words:
        if dyn:
            sink.add_unknown(DYNAMIC_PROGRAM, word)
            return
    if words:
        sink.read_again(" ".join(w for w, _ in words), via)


def _shell(name: str, program: str, rest: list[_Arg], sink: Sink) -> None:
    """bash -c STRING reads STRING; bash SCRIPT reads a file; bash alone reads stdin."""
    c = s = False
    i = 0
    while i < len(rest):
        word, dyn = rest[i]
        if dyn:
            break
        if word in ("--", "-"):
            i += 1
            break
        if word in ("--rcfile", "--init-file"):
            i += 2
            continue
        if word.startswith("--"):
            i += 1
            continue
        if len(word) < 2 or word[0] not in "-+":
            break
        for flag in word[1:]:
            if flag in "oO":
                i += 1  # its value is the next word
            elif word[0] == "-":
                c = c or flag == "c"
                s = s or flag == "s"
        i += 1
    if c:
        if i < len(rest):
            _read_words(rest[i : i + 1], name, sink)
    elif s or i >= len(rest):
        sink.add_unknown(SHELL_STDIN, program)


def _find(rest: list[_Arg]) -> list[Command]:
    found = []
    i = 0
    while i < len(rest):
        if rest[i] in ((e, False) for e in _FIND_EXEC):
            start = i = i + 1
            while i < len(rest):
                word, dyn = rest[i]
                # + ends the command only right after {}.
                if not dyn and (word == ";" or (word == "+" and rest[i - 1] == ("{}", False))):
                    break
                i += 1
            if i > start:
                found.append(_command(rest[start:i], "find"))
        i += 1
    return found


def _long_takes_value(option: str, names: tuple[str, ...]) -> bool:
    # GNU's getopt takes an unambiguous prefix: --sig for --signal.
    return bool(option) and any(n.startswith(option) for n in names)


def _unwrap(name: str, rest: list[_Arg], sink: Sink) -> list[_Arg] | None:
    """The words of the command a wrapper runs, or None when it runs none."""
    spec = WRAPPERS[name]
    words = list(rest)
    i = splits = 0
    while i < len(words):
        word, dyn = words[i]
        if dyn:
            break
        if word == "--":
            i += 1
            break
        if word == "-" and name == "env":  # env - is env -i
            i += 1
            continue
        value: tuple[str, int] | None = None  # (the option's letter or name, where its value is)
        if word.startswith("--"):
            option, eq, _ = word[2:].partition("=")
            special = _long_takes_value(option, ("split-string",) if name == "env" else ())
            special = special or (name == "flock" and _long_takes_value(option, ("command",)))
            if special:
                value = ("S" if name == "env" else "c", -1 if eq else i + 1)
            elif not eq and _long_takes_value(option, spec.long):
                i += 1
        elif word.startswith("-") and len(word) > 1:
            if name == "command" and ("v" in word or "V" in word):
                return None  # command -v: says what a name is, runs nothing
            for j in range(1, len(word)):
                flag = word[j]
                if flag in spec.optional:
                    break
                if (name == "env" and flag == "S") or (name == "flock" and flag == "c"):
                    value = (flag, -1 if j + 1 < len(word) else i + 1)
                    word = word[j + 1 :]
                    break
                if flag in spec.short:
                    i += j + 1 == len(word)  # the value is the next word
                    break
        else:
            break
        if value is not None:
            expanded = _string_option(name, value, word, words, i, sink)
            if expanded is None:
                return None
            splits += 1
            sink.nest(splits)  # each env -S read is one more level
            words, i = expanded, 0
            continue
        i += 1
    if spec.assignments:
        while i < len(words) and not words[i][1] and _ASSIGNMENT.match(words[i][0]):
            i += 1
    i += spec.operands
    if name == "flock" and i < len(words) and words[i][0] in ("-c", "--command"):
        return _string_option(name, ("c", i + 1), "", words, i, sink)
    return words[i:] or None


def _string_option(
    name: str, value: tuple[str, int], word: str, words: list[_Arg], i: int, sink: Sink
) -> list[_Arg] | None:
    """env -S STRING's words, to read on; flock -c STRING is read as sh -c reads it."""
    _, at = value
    if at < 0:  # in the option's own word: -Sstring, --split-string=string
        text, dyn = (word.partition("=")[2] if word.startswith("--") else word), words[i][1]
        after = i + 1
    elif at < len(words):
        text, dyn = words[at]
        after = at + 1
    else:
        return None
    if dyn:
        sink.add_unknown(DYNAMIC_PROGRAM, text)
        return None
    if name == "flock":
        sink.read_again(text, "flock")
        return None
    return split_env_string(text) + words[after:]


def split_env_string(text: str) -> list[_Arg]:
    """env -S's words: blanks split them, quotes and backslashes as env reads them."""
    words: list[_Arg] = []
    current: list[str] = []
    started = dyn = False
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\n\v\f\r":
            if started:
                words.append(("".join(current), dyn))
                current, started, dyn = [], False, False
            i += 1
            continue
        if c == "#" and not started:
            break
        started = True
        if c == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            current.append(text[i + 1 : end])
            i = end + 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                dyn = dyn or text.startswith("${", i)
                current.append(text[i])
                i += 1
            i += 1
        elif c == "\\" and i + 1 < n:
            e = text[i + 1]
            if e == "c":
                break
            current.append(_ENV_ESCAPES.get(e, e))
            i += 2
        else:
            dyn = dyn or text.startswith("${", i)  # env -S expands ${NAME}
            current.append(c)
            i += 1
    if started:
        words.append(("".join(current), dyn))
    return words
