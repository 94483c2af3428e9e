"""The shell reader's words: quote removal, expansions, here-docs.

The lexer reads one text by position; the parser (_shell_parse) builds on
it, and a substitution met inside a word is parsed there and then, so that
`$(case x in a) ...;; esac)` and here-docs inside it read as the shell
reads them.
"""

from __future__ import annotations

import re

from ._shell_types import (
    ARITHMETIC,
    DEPTH,
    MAX_DEPTH,
    MAX_LENGTH,
    SYNTAX,
    TOO_LONG,
    Command,
    Unknown,
)

_PLAIN = re.compile(r"[^ \t\n;&|()<>'\"\\$`]+")
_DQ_PLAIN = re.compile(r'[^"\\$`]+')
_DOC_PLAIN = re.compile(r"[^\\$`]+")
_ANSI_PLAIN = re.compile(r"[^'\\]+")
_PARAM_PLAIN = re.compile(r"[^}\]\[<>\\'\"$`]+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ARITH_SCAN = re.compile(r"[()'\"`\\]")
_DQ_END = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_BQ_END = re.compile(r"(?:[^`\\]|\\.)*`", re.DOTALL)
_TICK_OR_ESCAPE = re.compile(r"[`\\]")
# What $((...)) may hold without bash evaluating a name: a name's value is
# itself evaluated, and can run a command (a[$(cmd)]).
_ARITH_OK = re.compile(r"[0-9 \t\n+\-*/%<>=!&|^~?:(),;]*\Z")
_SEQUENCE = re.compile(r"(-?[0-9]+\.\.-?[0-9]+|[A-Za-z]\.\.[A-Za-z])(\.\.-?[0-9]+)?\Z")
# A word's unquoted text, with every quoted or expanded part as this mark.
_HIDDEN = "\x00"
_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "r": "\r",
    "v": "\v",
    "?": "?",
}
_HEX = "0123456789abcdefABCDEF"


class Failure(Exception):
    """Reading stops: reason is syntax, depth or too-long."""

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.text = text


class State:
    """What every text read for one command line shares."""

    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.unknown: list[Unknown] = []
        self._seen: set[tuple[str, str]] = set()
        # Text read again (eval, -c strings) counts too, so that eval eval
        # eval ... cannot read a long line 32 times over.
        self.budget = 4 * MAX_LENGTH

    def add_unknown(self, reason: str, text: str) -> None:
        if (reason, text) not in self._seen:
            self._seen.add((reason, text))
            self.unknown.append(Unknown(reason, text))


class Word:
    """A word read: its value after quote removal, its source, and whether it expands."""

    __slots__ = ("dynamic", "quoted", "raw", "value")

    def __init__(self, value: str, raw: str, dynamic: bool, quoted: bool) -> None:
        self.value = value
        self.raw = raw
        self.dynamic = dynamic
        self.quoted = quoted

    @property
    def text(self) -> str:
        """What the reading shows: the value, or the source of a dynamic word."""
        return self.raw if self.dynamic else self.value


def is_brace_expansion(shape: str) -> bool:
    """Whether unquoted text holds {a,b} or {1..3}: bash makes several words of it."""
    opened: list[int] = []
    commas: list[bool] = []
    for i, c in enumerate(shape):
        if c == "{":
            opened.append(i)
            commas.append(False)
        elif c == "," and commas:
            commas[-1] = True
        elif c == "}" and opened:
            start = opened.pop()
            if commas.pop() or _SEQUENCE.match(shape, start + 1, i):
                return True
    return False


class Lexer:
    """Reads words from one text; the parser adds the grammar."""

    def __init__(self, text: str, state: State, depth: int, via: str) -> None:
        if len(text) > state.budget:
            raise Failure(TOO_LONG, text)  # read again past the budget
        state.budget -= len(text)
        self.s = text
        self.n = len(text)
        self.i = 0
        self.state = state
        self.depth = depth
        self.via = via
        # Here-docs whose bodies start after the next newline: (delimiter, strip tabs, quoted).
        self.pending: list[tuple[str, bool, bool]] = []
        # Where a ) closed first when arithmetic() found no (( ... )), or -1.
        self.arith_stop = -1

    # -- what the parser provides --------------------------------------

    def list_(self, stops: frozenset[str]) -> int:
        raise NotImplementedError

    def child(self, text: str, via: str) -> Lexer:
        raise NotImplementedError

    # -- helpers --------------------------------------------------------

    def fail(self) -> Failure:
        return Failure(SYNTAX, self.s)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Failure(DEPTH, self.s)

    def leave(self) -> None:
        self.depth -= 1

    def read_again(self, text: str, via: str) -> None:
        """Reads a string the way the shell reads a command line, one level down."""
        self.enter()
        self.child(text, via).read_all()
        self.leave()

    def read_all(self) -> None:
        self.list_(frozenset())
        if self.i < self.n:  # a ), ;; or reserved word where none belongs
            raise self.fail()
        if self.pending:
            raise self.fail()

    def skip_blanks(self) -> None:
        """Skips spaces, tabs, backslash-newlines and a comment."""
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c in " \t":
                self.i += 1
            elif c == "\\" and s.startswith("\n", self.i + 1):
                self.i += 2
            elif c == "#":
                end = s.find("\n", self.i)
                self.i = n if end < 0 else end
            else:
                return

    def newline(self) -> None:
        """Consumes the newline at i, then the bodies of the here-docs pending."""
        self.i += 1
        pending, self.pending = self.pending, []
        for delimiter, strip, quoted in pending:
            self.heredoc(delimiter, strip, quoted)

    def heredoc(self, delimiter: str, strip: bool, quoted: bool) -> None:
        s, n = self.s, self.n
        start = self.i
        while True:
            if self.i >= n:
                raise self.fail()
            end = s.find("\n", self.i)
            if end < 0:
                end = n
            line = s[self.i : end]
            if (line.lstrip("\t") if strip else line) == delimiter:
                body_end = self.i
                self.i = min(end + 1, n)
                break
            self.i = end + 1
        if not quoted:  # an unquoted here-doc expands its $(...), `...` and ${...}
            self.child(s[start:body_end], self.via).expand_doc()

    def expand_doc(self) -> None:
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c == "\\":
                self.i += 2
            elif c == "$":
                self.dollar([], True)
            elif c == "`":
                self.i += 1
                self.backtick(False)
            else:
                m = _DOC_PLAIN.match(s, self.i)
                self.i = m.end() if m else self.i + 1

    # -- words ----------------------------------------------------------

    def word(self, regex: bool = False, until: int = 0) -> Word | None:
        """Reads the word at i, or None when an operator or the end is there.

        regex: the right side of [[ =~ ]], where ( ) and | are the regex's.
        until: blanks and operators before it are the word's (a[i + 1]=x).
        """
        s, n = self.s, self.n
        start = self.i
        parts: list[str] = []
        shape: list[str] = []
        dynamic = quoted = False
        level = 0
        while self.i < n:
            i = self.i
            c = s[i]
            if c in " \t\n;&|()<>":
                if i < until:
                    parts.append(c)
                    shape.append(c)
                    self.i = i + 1
                    continue
                if c in "<>" and s.startswith("(", i + 1):
                    self.i = i + 2
                    self.substitution(c + "()")
                    dynamic = True
                    shape.append(_HIDDEN)
                    continue
                if regex and (c in "(|" or (level and c in " \t\n)")):
                    level += 1 if c == "(" else -1 if c == ")" else 0
                    parts.append(c)
                    shape.append(_HIDDEN)
                    self.i = i + 1
                    continue
                break
            if c == "'":
                end = s.find("'", i + 1)
                if end < 0:
                    raise self.fail()
                parts.append(s[i + 1 : end])
                self.i = end + 1
                quoted = True
            elif c == '"':
                self.i = i + 1
                dynamic = self.dquote(parts) or dynamic
                quoted = True
            elif c == "\\":
                if i + 1 >= n:
                    parts.append("\\")
                    self.i = n
                    continue
                if s[i + 1] != "\n":
                    parts.append(s[i + 1])
                    quoted = True
                self.i = i + 2
            elif c == "$":
                if s.startswith("'", i + 1) or s.startswith('"', i + 1):
                    quoted = True
                dynamic = self.dollar(parts, False) or dynamic
            elif c == "`":
                self.i = i + 1
                self.backtick(False)
                dynamic = True
            else:
                m = _PLAIN.match(s, i)
                run = m.group() if m else c
                parts.append(run)
                shape.append(run)
                self.i = i + len(run)
                continue
            shape.append(_HIDDEN)
        if self.i == start:
            return None
        if not dynamic and "{" in s[start : self.i]:
            dynamic = is_brace_expansion("".join(shape))
        return Word("".join(parts), s[start : self.i], dynamic, quoted)

    def dquote(self, parts: list[str]) -> bool:
        """Reads a "..." string from after its opening quote; true if it expands."""
        s, n = self.s, self.n
        dynamic = False
        while True:
            i = self.i
            if i >= n:
                raise self.fail()
            c = s[i]
            if c == '"':
                self.i = i + 1
                return dynamic
            if c == "\\":
                nxt = s[i + 1 : i + 2]
                if nxt == "\n":
                    self.i = i + 2
                elif nxt and nxt in '$`"\\':
                    parts.append(nxt)
                    self.i = i + 2
                else:
                    parts.append("\\")
                    self.i = i + 1
            elif c == "$":
                dynamic = self.dollar(parts, True) or dynamic
            elif c == "`":
                self.i = i + 1
                self.backtick(True)
                dynamic = True
            else:
                m = _DQ_PLAIN.match(s, i)
                run = m.group() if m else c
                parts.append(run)
                self.i = i + len(run)

    def dollar(self, parts: list[str], in_dq: bool) -> bool:
        """Reads what starts with the $ at i; true if the shell expands it."""
        s, n, i = self.s, self.n, self.i
        nxt = s[i + 1] if i + 1 < n else ""
        if nxt == "(":
            if s.startswith("((", i + 1) and self.arithmetic(i + 3):
                return True
            self.i = i + 2
            self.substitution("$()")
            return True
        if nxt == "{":
            self.i = i + 2
            self.matched("}", "", in_dq)  # the first: bash does not pair braces inside
            return True
        if nxt == "[":  # $[...], bash's old arithmetic: to its matching ]
            self.i = i + 2
            mark = len(self.state.commands)
            end = self.matched("]", "[", in_dq)
            del self.state.commands[mark:]  # check_arithmetic reads them
            self.check_arithmetic(s[i + 2 : end])
            return True
        if not in_dq and nxt == "'":
            self.i = i + 2
            parts.append(self.ansi_c())
            return False
        if not in_dq and nxt == '"':
            self.i = i + 2
            return self.dquote(parts)
        m = _NAME.match(s, i + 1)
        if m:
            self.i = m.end()
            return True
        if nxt and nxt in "0123456789@*#?$!-":
            self.i = i + 2
            return True
        parts.append("$")
        self.i = i + 1
        return False

    def substitution(self, via: str) -> None:
        """Reads a command list up to its ), from after the opening (."""
        self.enter()
        outer, self.via = self.via, via
        self.list_(frozenset())
        if not self.s.startswith(")", self.i):
            raise self.fail()
        self.i += 1
        self.via = outer
        self.leave()

    def arithmetic(self, start: int) -> bool:
        """Reads $((...)) or ((...)) whose text starts at start; false if it is not one.

        `$((a) )` is a command substitution of a subshell: the caller reads
        it as one.
        """
        s = self.s
        level = 0
        j = start
        self.arith_stop = -1
        while True:
            m = _ARITH_SCAN.search(s, j)
            if not m:
                return False
            c, k = m.group(), m.start()
            j = k + 1
            if c == "\\":
                j = k + 2
            elif c == "'":  # quotes hide their parentheses, as bash reads them
                end = s.find("'", j)
                if end < 0:
                    return False
                j = end + 1
            elif c in '"`':  # as are a "..." or `...`'s: ((`echo ))` + 1))
                dq = (_DQ_END if c == '"' else _BQ_END).match(s, j)
                if not dq:
                    return False
                j = dq.end()
            elif c == "(":
                level += 1
            elif level:
                level -= 1
            elif s.startswith("))", k):
                self.enter()
                self.check_arithmetic(s[start:k])
                self.leave()
                self.i = k + 2
                return True
            else:
                self.arith_stop = k  # where a ) closed first
                return False

    def check_arithmetic(self, text: str) -> None:
        if not _ARITH_OK.match(text):
            self.state.add_unknown(ARITHMETIC, text)
            # A substitution inside runs before the arithmetic does. bash
            # reads the inside only when it runs: what does not parse there
            # is an error then, not a syntax error of the line.
            try:
                self.child(text, "$()").expand_doc()
            except Failure as failure:
                if failure.reason != SYNTAX:
                    raise

    def matched(self, close: str, nest: str, in_dq: bool) -> int:
        """Reads ${...} or $[...] from after its opening; returns the index of its close.

        nest: what opens a level inside ($[ nests [ ]); ${ pairs no braces.
        bash's $[ reads quotes, $(...), $[...] and `...` inside it, not
        ${...} or <(...): `$[ ${x:-]} ]` ends at the first ].
        """
        self.enter()
        s, n = self.s, self.n
        level = 0
        while True:
            i = self.i
            if i >= n:
                raise self.fail()
            c = s[i]
            if c == close:
                self.i = i + 1
                if not level:
                    break
                level -= 1
            elif c == nest:
                level += 1
                self.i = i + 1
            elif c in "<>" and not in_dq and not nest and s.startswith("(", i + 1):
                # ${<(ls)} runs ls
                self.i = i + 2
                self.substitution(c + "()")
            elif c == "\\":
                self.i = i + 2
            elif c == "'":  # quoting even inside "...", as bash reads ${x:-'}'}
                end = s.find("'", i + 1)
                if end < 0:
                    raise self.fail()
                self.i = end + 1
            elif c == '"':
                self.i = i + 1
                self.dquote([])
            elif c == "$" and not (nest and s.startswith("{", i + 1)):
                self.dollar([], in_dq)
            elif c == "`":
                self.i = i + 1
                self.backtick(in_dq)
            else:
                m = _PARAM_PLAIN.match(s, i)
                self.i = m.end() if m else i + 1
        self.leave()
        return i

    def backtick(self, in_dq: bool) -> None:
        """Reads `...` from after its opening backquote, and the command in it."""
        s = self.s
        parts: list[str] = []
        j = self.i
        while True:
            m = _TICK_OR_ESCAPE.search(s, j)
            if not m:
                raise self.fail()
            k = m.start()
            parts.append(s[j:k])
            if s[k] == "`":
                self.i = k + 1
                break
            nxt = s[k + 1 : k + 2]
            if not nxt:
                raise self.fail()
            # Inside backquotes a backslash quotes only $, ` and \ (and " in "...").
            escaped = nxt in "$`\\" or (in_dq and nxt == '"')
            parts.append(nxt if escaped else s[k : k + 2])
            j = k + 2
        self.read_again("".join(parts), "$()")

    def ansi_c(self) -> str:
        """Reads $'...' from after its opening quote, with bash's escapes."""
        s, n = self.s, self.n
        out: list[str] = []
        i = self.i
        while True:
            if i >= n:
                raise self.fail()
            c = s[i]
            if c == "'":
                break
            if c != "\\":
                m = _ANSI_PLAIN.match(s, i)
                run = m.group() if m else c
                out.append(run)
                i += len(run)
                continue
            if i + 1 >= n:
                raise self.fail()
            e = s[i + 1]
            i += 2
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
            elif e in "01234567":
                j = i - 1
                while j < n and j < i + 2 and s[j] in "01234567":
                    j += 1
                out.append(chr(int(s[i - 1 : j], 8) & 0xFF))
                i = j
            elif e in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[e]
                j = i
                while j < n and j < i + width and s[j] in _HEX:
                    j += 1
                code = int(s[i:j], 16) if j > i else -1
                if 0 <= code <= 0x10FFFF:
                    out.append(chr(code))
                else:
                    out.append(s[i - 2 : j])
                i = j
            elif e == "c" and i < n:
                out.append("\x7f" if s[i] == "?" else chr(ord(s[i]) & 0x1F))
                i += 1
            else:
                out.append("\\" + e)
        self.i = i + 1
        text = "".join(out)
        # bash's strings end at a NUL: the rest of $'...' is dropped.
        return text.partition("\x00")[0]
