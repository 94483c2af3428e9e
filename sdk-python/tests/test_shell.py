"""The shell reader: the shared vectors of schema/testdata/shell, flags, and properties.

docs/shell-reader.md is the contract; "The vectors" there says how each
vector is compared: commands as a sorted set of JSON objects, unknown as
a sorted set of reasons, and no commands when reading stopped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwire import shell
from hookwire.shell import Command, Reading, Redirect, Unknown, read

SHELL = Path(__file__).resolve().parents[2] / "schema" / "testdata" / "shell"
STOPPED = {shell.SYNTAX, shell.DEPTH, shell.TOO_LONG}

settings.register_profile(
    "hookwire", database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("hookwire")


def vectors() -> list[Any]:
    found = []
    for path in sorted(SHELL.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if line.strip():
                found.append(pytest.param(json.loads(line), id=f"{path.stem}:{number}"))
    return found


VECTORS = vectors()


def command_line(vector: dict[str, Any]) -> str:
    if "cmd" in vector:
        return str(vector["cmd"])
    return "".join(text * count for text, count in vector["cmd_parts"])


def as_vector(command: Command) -> str:
    """A command as the vectors write it: empty members left out, keys sorted."""
    out: dict[str, Any] = {"args": command.args}
    if command.dynamic:
        out["dynamic"] = command.dynamic
    if command.via:
        out["via"] = command.via
    if command.redirects:
        out["redirects"] = [[r.op, r.target] for r in command.redirects]
    return json.dumps(out, sort_keys=True)


def test_there_are_vectors_from_every_file() -> None:
    files = {p.stem for p in SHELL.glob("*.jsonl")}
    assert len(files) >= 5 and len(VECTORS) >= 100
    assert {p.id.partition(":")[0] for p in VECTORS} == files


@pytest.mark.parametrize("vector", VECTORS)
def test_a_vector_reads_as_written(vector: dict[str, Any]) -> None:
    reading = read(command_line(vector))
    want_unknown = vector.get("unknown", [])
    assert sorted({u.reason for u in reading.unknown}) == sorted(set(want_unknown))
    if STOPPED & set(want_unknown):
        return
    # Compared as sets: a repeated command counts once.
    want = sorted({json.dumps(c, sort_keys=True) for c in vector["commands"]})
    assert sorted({as_vector(c) for c in reading.commands}) == want


# Readings the shared vectors do not pin down yet, each checked against
# bash (set -- WORDS; printf '%s\\0' "$@") or the program's manual.
MORE = [
    # An agent's commit message: a here-doc inside $() inside "...".
    (
        'git commit -m "$(cat <<EOF\nfix $(rm -rf x)\nEOF\n)"',
        [
            {
                "args": ["git", "commit", "-m", '"$(cat <<EOF\nfix $(rm -rf x)\nEOF\n)"'],
                "dynamic": [3],
            },
            {"args": ["cat"], "via": "$()", "redirects": [["<<", "EOF"]]},
            {"args": ["rm", "-rf", "x"], "via": "$()"},
        ],
        [],
    ),
    ("echo $'\\c?'", [{"args": ["echo", "\x7f"]}], []),
    ("echo $'a\\0b'c", [{"args": ["echo", "ac"]}], []),  # bash's strings end at a NUL
    # bash reads A=(...) as one argument of its declaring builtins.
    (
        "declare -a x=(1 $(rm y))",
        [
            {"args": ["declare", "-a", "x=(1 $(rm y))"], "dynamic": [2]},
            {"args": ["rm", "y"], "via": "$()"},
        ],
        [],
    ),
    # trap with one operand resets that signal: it runs nothing.
    ("trap 'rm -rf x'", [{"args": ["trap", "rm -rf x"]}], []),
    # GNU env's options end at its first other word: -u is the program here.
    (
        "env A=1 -u B rm x",
        [
            {"args": ["env", "A=1", "-u", "B", "rm", "x"]},
            {"args": ["-u", "B", "rm", "x"], "via": "env"},
        ],
        [],
    ),
    # getopt's prefixes of a long option that takes a value.
    (
        "timeout --sig KILL 5 rm x",
        [
            {"args": ["timeout", "--sig", "KILL", "5", "rm", "x"]},
            {"args": ["rm", "x"], "via": "timeout"},
        ],
        [],
    ),
    (
        "flock -c 'rm x' /tmp/l",
        [{"args": ["flock", "-c", "rm x", "/tmp/l"]}, {"args": ["rm", "x"], "via": "flock"}],
        [],
    ),
    ("command -pv rm", [{"args": ["command", "-pv", "rm"]}], []),
    ("time", [], []),
    (
        "find . -exec echo + {} +",
        [
            {"args": ["find", ".", "-exec", "echo", "+", "{}", "+"]},
            {"args": ["echo", "+", "{}"], "via": "find"},
        ],
        [],
    ),
    (
        "bash -c '(rm x)'",
        [{"args": ["bash", "-c", "(rm x)"]}, {"args": ["rm", "x"], "via": "bash"}],
        [],
    ),
    ("sudo -s", [{"args": ["sudo", "-s"]}], []),
    ("echo $(( $(rm x) ))", None, ["arithmetic"]),
    ("f() ls", None, ["syntax"]),
    # bash: {name}> allocates a descriptor; it is the redirect's, not a word.
    ("ls {fd}>f", [{"args": ["ls"], "redirects": [["{fd}>", "f"]]}], []),
    # Where an assignment may be, bash reads a[...] to its ], blanks and all.
    ("a[1 + 1]=3 rm x", [{"args": ["rm", "x"]}], []),
    ("a[$(rm y)]=1", [{"args": ["rm", "y"], "via": "$()"}], []),
    ('a[x "y"]z w', [{"args": ["a[x y]z", "w"]}], []),  # bash: a[x y]z: command not found
    ("EOF[[x -exec rm y", None, ["syntax"]),
    ("in", None, ["syntax"]),
    ("ls; ]]", None, ["syntax"]),
    # ${ ends at the first }; quotes inside it and inside $((...)) hide what they hold.
    ("echo ${x:-{}", [{"args": ["echo", "${x:-{}"], "dynamic": [1]}], []),
    ("echo \"${x:-'}'}\"", [{"args": ["echo", "\"${x:-'}'}\""], "dynamic": [1]}], []),
    ("echo $(( ')' ))", [{"args": ["echo", "$(( ')' ))"], "dynamic": [1]}], ["arithmetic"]),
    ("echo $(( ')' )", None, ["syntax"]),
    # bash reads the inside of $((...)) only when it runs it.
    ("echo $((${))", [{"args": ["echo", "$((${))"], "dynamic": [1]}], ["arithmetic"]),
    ("sudo " * 40 + "ls", None, ["depth"]),
]


@pytest.mark.parametrize(("line", "commands", "unknown"), MORE, ids=lambda v: repr(v)[:30])
def test_more_readings(line: str, commands: list[Any] | None, unknown: list[str]) -> None:
    reading = read(line)
    assert sorted({u.reason for u in reading.unknown}) == unknown
    if commands is not None:
        want = sorted(json.dumps(c, sort_keys=True) for c in commands)
        assert sorted(as_vector(c) for c in reading.commands) == want


def cmd(*args: str, dynamic: tuple[int, ...] = ()) -> Command:
    return Command(list(args), list(dynamic))


@pytest.mark.parametrize(
    ("args", "short", "long", "want"),
    [
        (["rm", "-r", "x"], "r", "recursive", True),
        (["rm", "-rf", "x"], "r", "recursive", True),
        (["rm", "-fr", "x"], "r", "recursive", True),
        (["rm", "-Rf", "x"], "r", "recursive", False),  # the letter as given
        (["rm", "-Rf", "x"], "R", "", True),
        (["rm", "--recursive", "x"], "r", "recursive", True),
        (["rm", "--recursive=yes", "x"], "r", "recursive", True),
        (["rm", "--rec", "x"], "r", "recursive", True),  # getopt's prefixes
        (["rm", "--rec=1", "x"], "r", "recursive", True),
        (["rm", "--recursively", "x"], "r", "recursive", False),
        (["rm", "--force", "x"], "r", "recursive", False),
        (["rm", "x", "-rf"], "r", "recursive", True),  # options after operands
        (["rm", "--", "-rf"], "r", "recursive", False),  # -- ends options
        (["rm", "-f", "--", "--recursive"], "r", "recursive", False),
        (["rm", "-", "x"], "r", "recursive", False),
        (["rm", "--", "x"], "", "", False),
        (["rm", "-f"], "", "", False),  # nothing asked, nothing found
        (["-r"], "r", "recursive", False),  # args[0] is the program
        (["rm", "-x"], "r", "recursive", False),
    ],
)
def test_has_flag(args: list[str], short: str, long: str, want: bool) -> None:
    assert cmd(*args).has_flag(short, long) is want


def test_has_flag_skips_dynamic_words() -> None:
    assert not cmd("rm", "-rf$X", "x", dynamic=(1,)).has_flag("r", "recursive")
    assert cmd("rm", "$X", "-r", dynamic=(1,)).has_flag("r", "recursive")
    # A dynamic -- does not end the options: its value is not known.
    assert cmd("rm", "--$X", "-r", dynamic=(1,)).has_flag("r", "recursive")


def test_has_flag_on_what_is_read() -> None:
    for line in ["rm --recursive --force x", "rm -r -f x", "r\\m -rf x", "sudo rm x -R"]:
        rms = [c for c in read(line).commands if c.name == "rm"]
        assert rms and (rms[0].has_flag("r", "recursive") or rms[0].has_flag("R", "")), line
    assert not read("grep -rn 'rm -rf' docs").commands[0].has_flag("f", "force")


@pytest.mark.parametrize(
    ("args", "name"),
    [(["/usr/bin/rm", "-rf"], "rm"), (["rm"], "rm"), (["./x.sh"], "x.sh"), (["dir/"], "")],
)
def test_name_is_the_base_name_of_the_program(args: list[str], name: str) -> None:
    assert cmd(*args).name == name


def test_a_command_with_no_words_has_no_name() -> None:
    assert Command([]).name == ""


def test_a_reading_is_an_immutable_value() -> None:
    reading = read("ls > f")
    assert reading == Reading([Command(["ls"], [], "", [Redirect(">", "f")])], [])
    with pytest.raises(AttributeError):
        reading.commands = []  # type: ignore[misc]


def test_a_line_too_long_is_not_read() -> None:
    line = "rm -rf x;" + " " * shell.MAX_LENGTH
    assert read(line) == Reading([], [Unknown(shell.TOO_LONG, line)])
    # Bytes count, not characters: é is two.
    assert read("é" * (shell.MAX_LENGTH // 2 + 1)).unknown[0].reason == shell.TOO_LONG
    assert read("é" * (shell.MAX_LENGTH // 2)).unknown == []


@pytest.mark.parametrize(
    "line",
    [
        "(" * 5000,
        "$(" * 5000,
        "`" * 5000,
        "${" * 5000,
        "{ " * 5000,
        "if " * 5000,
        "$((" * 5000 + "1" + "))" * 5000,
        "echo " + '"$(' * 5000,
        "eval " * 5000 + "ls",
        "sudo " * 5000 + "ls",
        "bash -c " * 2000 + "ls",
        "env -S " * 2000 + "ls",
        "find . -exec " * 2000 + "ls",
    ],
    ids=lambda line: repr(line[:12]),
)
def test_deep_nesting_stops_without_raising(line: str) -> None:
    reading = read(line)
    assert reading.unknown, reading
    assert reading.unknown[0].reason in STOPPED | {shell.DYNAMIC_PROGRAM, shell.SHELL_STDIN}


def test_text_read_again_counts_toward_the_length() -> None:
    # Each eval reads the rest of the line again: 20 levels of 300 kB.
    line = "eval " * 20 + "x" * 300_000
    assert [u.reason for u in read(line).unknown] == [shell.TOO_LONG]
    assert read("eval " * 3 + "x" * 300_000).unknown == []


def test_the_depth_limit_counts_each_kind_of_nesting() -> None:
    kinds = [("( ", " )"), ("{ ", "; }"), ("echo $(", ")"), ("if ", "; then :; fi")]
    for open_, close in kinds:
        ok = read(open_ * shell.MAX_DEPTH + "ls" + close * shell.MAX_DEPTH)
        assert ok.unknown == [], open_
        deep = read(open_ * (shell.MAX_DEPTH + 1) + "ls" + close * (shell.MAX_DEPTH + 1))
        assert [u.reason for u in deep.unknown] == [shell.DEPTH], open_


def test_a_long_line_reads_in_one_pass() -> None:
    # Not timed: the same work a line, so a quadratic reader would not
    # finish the suite. Each kind of long line once.
    lines = [
        "ls -la; " * 20_000,
        "cat <<EOF\n" + "$(x) text\n" * 10_000 + "EOF\n",
        "echo " + "'a' " * 50_000,
        "echo " + "x" * 900_000,
        "a | " * 20_000 + "b",
    ]
    for line in lines:
        reading = read(line)
        assert reading.unknown == [] and reading.commands, line[:40]


def test_an_unknown_says_what_it_is_about() -> None:
    assert read("curl x | /bin/sh").unknown == [Unknown(shell.SHELL_STDIN, "/bin/sh")]
    assert read('bash -c "$X"').unknown == [Unknown(shell.DYNAMIC_PROGRAM, '"$X"')]
    assert read("alias a=b").unknown == [Unknown(shell.ALIAS, "a=b")]
    assert read("(( i++ ))").unknown == [Unknown(shell.ARITHMETIC, " i++ ")]
    assert read("$A; $A").unknown == [Unknown(shell.DYNAMIC_PROGRAM, "$A")]  # once each


def test_the_reasons_are_the_specifications() -> None:
    assert [
        shell.SYNTAX,
        shell.DYNAMIC_PROGRAM,
        shell.SHELL_STDIN,
        shell.ALIAS,
        shell.ARITHMETIC,
        shell.DEPTH,
        shell.TOO_LONG,
    ] == ["syntax", "dynamic-program", "shell-stdin", "alias", "arithmetic", "depth", "too-long"]


def test_the_module_docstrings_guard() -> None:
    doc = shell.__doc__ or ""
    source = doc[doc.index("    from hookwire") : doc.index("        return None\n") + 20]
    namespace: dict[str, Any] = {}
    exec("from __future__ import annotations\n" + source.replace("\n    ", "\n")[4:], namespace)
    dangerous = namespace["dangerous"]
    for line in [
        "sudo bash -c 'rm --rec x'",
        "r\\m -rf x",
        "find . -exec rm -r {} +",
        "find /tmp -delete",
        "rm -Rf x",
        "$X -rf x",
    ]:
        assert dangerous(line), line
    for line in ['grep -rn "rm -rf" docs', "echo 'rm -rf /'", "rm x", "ls"]:
        assert dangerous(line) is None, line


# What shell text is made of, and a little of what it is not.
ALPHABET = [
    *" \t\n;&|()<>'\"\\$`{}[]#=!*?~,.-_/:%+@^0123456789abcrmx",
    "$(",
    "${",
    "$((",
    "))",
    "<<",
    "EOF",
    "<(",
    "[[",
    "]]",
    "if ",
    "then ",
    "fi",
    "case ",
    " in ",
    "esac",
    ";;",
    "do ",
    "done",
    "for ",
    "sudo ",
    "bash -c ",
    "eval ",
    "env -S ",
    "find -exec ",
    "\x00",
    "é",
    "\ud800",
]
shell_text = st.lists(st.sampled_from(ALPHABET), max_size=60).map("".join) | st.text(max_size=60)


@given(shell_text)
def test_read_never_raises_and_is_deterministic(line: str) -> None:
    reading = read(line)
    assert read(line) == reading
    for command in reading.commands:
        assert command.args
        assert command.dynamic == sorted(set(command.dynamic))
        assert all(0 <= i < len(command.args) for i in command.dynamic)
    for unknown in reading.unknown:
        assert unknown.reason in {
            shell.SYNTAX,
            shell.DYNAMIC_PROGRAM,
            shell.SHELL_STDIN,
            shell.ALIAS,
            shell.ARITHMETIC,
            shell.DEPTH,
            shell.TOO_LONG,
        }
    if {u.reason for u in reading.unknown} & STOPPED:
        assert reading.commands == [] and len(reading.unknown) == 1


# No shell is given a NUL: a command line holding one is a syntax error.
@given(st.lists(st.sampled_from([a for a in ALPHABET if a != "\x00"]), max_size=20).map("".join))
def test_a_quoted_word_is_one_argument(text: str) -> None:
    quoted = "'" + text.replace("'", "'\\''") + "'"
    assert read("echo " + quoted).commands[0].args == ["echo", text]
