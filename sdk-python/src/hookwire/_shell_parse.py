"""The shell reader's grammar: lists, pipelines, compound and simple commands.

A recursive descent over the lexer's text, one method a construct; each
nesting level goes through Lexer.enter, which stops at MAX_DEPTH, so the
recursion is bounded.
"""

from __future__ import annotations

import re

from ._shell_follow import follow
from ._shell_lex import Failure, Lexer, State, Word
from ._shell_types import DEPTH, MAX_DEPTH, SYNTAX, Command, Redirect

_META = " \t\n;&|()<>"
# Reserved words; a joined line (backslash-newline) may split one.
_KEYWORDS = frozenset(
    "if then elif else fi do done case esac while until for select function coproc"
    " time in { } ! [[ ]]".split()
)
_TIME_P = re.compile(r"-p(?=[ \t\n;&|()<>]|\Z)")
_OPERATOR = re.compile(r";;&|;;|;&|&&|\|\||\|&|[;&|()\n]")
# A descriptor's number may hold joined lines: 1\<newline>2>&1 is 12>&.
# No number or {NAME} comes before &> or &>>: `echo 2&>f` echoes 2.
_REDIRECT = re.compile(
    r"(?:[0-9](?:[0-9]|\\\n)*|\{[A-Za-z_][A-Za-z0-9_]*\})?"
    r"(?:<<<|<<-|<<|<>|<&|>>|>&|>\||<|>)|&>>|&>"
)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
_SUBSCRIPTED = re.compile(r"[A-Za-z_](?:[A-Za-z0-9_]|\\\n)*\[")
_JOINED = "\\\n"
_BRACKETS = re.compile(r"[\[\]]")
_NAME_THEN_BLANKS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[ \t]+")
# Reserved words that end a list, never start a command.
_CLOSERS = frozenset({"then", "elif", "else", "fi", "do", "done", "esac", "}", "in", "]]"})
_COMPOUND = frozenset({"{", "if", "while", "until", "for", "select", "case", "[["})
_CASE_ENDS = (";;&", ";;", ";&")
# bash's builtins that take A=(a b) as an argument.
_DECLARING = frozenset({"declare", "typeset", "local", "export", "readonly"})


class Parser(Lexer):
    def child(self, text: str, via: str) -> Parser:
        return Parser(text, self.state, self.depth, via)

    # -- what follow() needs ---------------------------------------------

    def emit(self, command: Command) -> None:
        self.state.commands.append(command)

    def add_unknown(self, reason: str, text: str) -> None:
        self.state.add_unknown(reason, text)

    def nest(self, levels: int) -> None:
        """Stops a chain of wrappers (sudo sudo ...) as deep nesting does."""
        if self.depth + levels > MAX_DEPTH:
            raise Failure(DEPTH, self.s)

    # -- tokens ------------------------------------------------------------

    kw_end = 0  # where the reserved word last found ends: take() moves there
    op_end = 0  # where the operator last found ends: take_op() moves there

    def reserved(self) -> str | None:
        """The reserved word at i: a whole unquoted word, joined lines and all."""
        s, n = self.s, self.n
        chars: list[str] = []
        i = self.i
        while i < n and len(chars) <= 8:
            c = s[i]
            if c == "\\" and s.startswith("\n", i + 1):
                i += 2
                continue
            if c in _META or c in "'\"\\$`":
                break
            chars.append(c)
            i += 1
        word = "".join(chars)
        if word not in _KEYWORDS:
            return None
        j = i
        while s.startswith(_JOINED, j):
            j += 2
        # A process substitution continues the word: [[<(a)]] is a word.
        if j < n and (s[j] not in _META or (s[j] in "<>" and s.startswith("(", j + 1))):
            return None
        self.kw_end = i
        return word

    def take(self) -> None:
        self.i = self.kw_end

    def operator(self) -> str | None:
        """The operator at i; a joined line may split it (&\\<newline>&)."""
        s, n = self.s, self.n
        chars: list[str] = []
        ends: list[int] = []
        i = self.i
        while len(chars) < 3 and i < n:
            if s.startswith(_JOINED, i):
                i += 2
                continue
            chars.append(s[i])
            i += 1
            ends.append(i)
        m = _OPERATOR.match("".join(chars))
        if not m:
            return None
        self.op_end = ends[m.end() - 1]
        return m.group()

    def take_op(self) -> None:
        self.i = self.op_end

    def expect(self, word: str) -> None:
        if self.reserved() != word:
            raise self.fail()
        self.take()

    def skip_linebreaks(self) -> None:
        while True:
            self.skip_blanks()
            if not self.s.startswith("\n", self.i):
                return
            self.newline()

    # -- lists and pipelines -------------------------------------------------

    def list_(self, stops: frozenset[str]) -> int:
        """Reads commands up to the end, a ), a ;; or a reserved word of stops."""
        count = 0
        while True:
            self.skip_linebreaks()
            if self.i >= self.n or self.reserved() in stops:
                return count
            op = self.operator()
            if op == ")" or op in _CASE_ENDS:
                return count
            self.and_or()
            count += 1
            self.skip_blanks()
            op = self.operator()
            if op in (";", "&"):
                self.take_op()
            elif not (
                self.i >= self.n or op in ("\n", ")", *_CASE_ENDS) or self.reserved() in stops
            ):
                raise self.fail()

    def list_of_one(self, stops: frozenset[str]) -> None:
        """A compound command's list, which holds at least one command."""
        if not self.list_(stops):
            raise self.fail()

    def and_or(self) -> None:
        self.pipeline()
        while True:
            self.skip_blanks()
            if self.operator() not in ("&&", "||"):
                return
            self.take_op()
            self.skip_linebreaks()
            self.pipeline()

    def pipeline(self) -> None:
        prefixed = False
        while True:
            self.skip_blanks()
            word = self.reserved()
            if word == "!":
                self.take()
            elif word == "time":  # bash's keyword, with its -p
                self.take()
                self.skip_blanks()
                if _TIME_P.match(self.s, self.i):
                    self.i += 2
            else:
                break
            prefixed = True
        if prefixed and self.i >= self.n:
            return  # `time` alone times nothing
        op = self.operator()
        if prefixed and op not in (None, "(") and not _REDIRECT.match(self.s, self.i):
            if op in ("&", "&&", "||", "|", "|&"):
                raise self.fail()  # bash runs `time;` but refuses `time &`, `! || x`
            return
        self.command()
        while True:
            self.skip_blanks()
            op = self.operator()
            if op not in ("|", "|&"):
                return
            self.take_op()
            self.skip_linebreaks()
            if self.reserved() == "!":
                raise self.fail()  # `a | ! b`: ! starts a pipeline only
            self.command()

    # -- commands --------------------------------------------------------------

    def command(self) -> None:
        self.skip_blanks()
        if self.i >= self.n:
            raise self.fail()
        s = self.s
        if s.startswith("(", self.i):
            if not (s.startswith("((", self.i) and self.arithmetic(self.i + 2)):
                if s.startswith("((", self.i) and s.startswith("\n", self.arith_stop + 1):
                    raise self.fail()  # bash reads ((a) ) as subshells, not ((a) and a newline
                self.i += 1
                self.enter()
                self.list_of_one(frozenset())
                if not s.startswith(")", self.i):
                    raise self.fail()
                self.i += 1
                self.leave()
            self.redirects_after()
            return
        if not _REDIRECT.match(s, self.i) and self.operator() is not None:
            raise self.fail()
        word = self.reserved()
        if word in _COMPOUND:
            self.take()
            self.enter()
            self.compound(word or "")
            self.leave()
            self.redirects_after()
        elif word == "function":
            self.take()
            self.skip_blanks()
            if self.word() is None:
                raise self.fail()
            self.skip_blanks()
            if s.startswith("(", self.i):
                self.parens_of_function()
            self.function_body()
        elif word == "coproc":
            self.take()
            self.skip_blanks()
            if self.reserved() is not None and not self.is_compound_at(self.i):
                raise self.fail()  # coproc done, coproc function f ...
            m = _NAME_THEN_BLANKS.match(s, self.i)
            if m and self.is_compound_at(m.end()):
                self.i = m.end()  # coproc NAME { ...; }: NAME names it
            elif m and self.at_reserved(m.end()):
                raise self.fail()  # coproc w done
            self.command()
        elif word in _CLOSERS:
            raise self.fail()
        else:
            self.simple()

    def is_compound_at(self, i: int) -> bool:
        saved, self.i = self.i, i
        word = self.reserved()
        self.i = saved
        return word in _COMPOUND or self.s.startswith("(", i)

    def at_reserved(self, i: int) -> bool:
        saved, self.i = self.i, i
        word = self.reserved()
        self.i = saved
        return word is not None

    def compound(self, word: str) -> None:
        if word == "{":
            self.list_of_one(frozenset({"}"}))
            self.expect("}")
        elif word == "if":
            self.list_of_one(frozenset({"then"}))
            self.expect("then")
            self.list_of_one(frozenset({"elif", "else", "fi"}))
            while self.reserved() == "elif":
                self.take()
                self.list_of_one(frozenset({"then"}))
                self.expect("then")
                self.list_of_one(frozenset({"elif", "else", "fi"}))
            if self.reserved() == "else":
                self.take()
                self.list_of_one(frozenset({"fi"}))
            self.expect("fi")
        elif word in ("while", "until"):
            self.list_of_one(frozenset({"do"}))
            self.expect("do")
            self.list_of_one(frozenset({"done"}))
            self.expect("done")
        elif word in ("for", "select"):
            self.for_(word)
        elif word == "case":
            self.case()
        else:
            self.test()

    def for_(self, word: str) -> None:
        self.skip_blanks()
        s = self.s
        if word == "for" and s.startswith("((", self.i):
            if not self.arithmetic(self.i + 2):
                raise self.fail()
        else:
            if self.word() is None:
                raise self.fail()
            self.skip_linebreaks()
            if self.reserved() == "in":
                self.take()
                while True:
                    self.skip_blanks()
                    if self.word() is None:
                        break
        self.skip_blanks()
        op = self.operator()
        if op == ";":
            self.take_op()
        elif op not in (None, "\n"):
            raise self.fail()
        self.skip_linebreaks()
        if self.reserved() == "{":  # bash takes a group for do ... done
            self.take()
            self.list_of_one(frozenset({"}"}))
            self.expect("}")
            return
        self.expect("do")
        self.list_of_one(frozenset({"done"}))
        self.expect("done")

    def case(self) -> None:
        self.skip_blanks()
        if self.word() is None:
            raise self.fail()
        self.skip_linebreaks()
        self.expect("in")
        s = self.s
        while True:
            self.skip_linebreaks()
            if self.reserved() == "esac":
                self.take()
                return
            if s.startswith("(", self.i):
                self.i += 1
            while True:  # the patterns: a | b )
                self.skip_blanks()
                if self.word() is None:
                    raise self.fail()
                self.skip_blanks()
                if s.startswith(")", self.i):
                    self.i += 1
                    break
                if not s.startswith("|", self.i) or s.startswith("||", self.i):
                    raise self.fail()
                self.i += 1
            self.list_(frozenset({"esac"}))
            op = self.operator()
            if op in _CASE_ENDS:
                self.take_op()
            elif self.reserved() != "esac":
                raise self.fail()

    def test(self) -> None:
        """[[ ... ]]: runs nothing itself; its words' substitutions run."""
        s = self.s
        regex = False
        while True:
            self.skip_blanks()
            if self.i >= self.n:
                raise self.fail()
            if s.startswith("\n", self.i):
                self.newline()
                continue
            if self.reserved() == "]]":
                self.take()
                return
            if s.startswith("&&", self.i) or s.startswith("||", self.i):
                self.i += 2
                continue
            c = s[self.i]
            if c in "()<>" and not (c in "<>" and s.startswith("(", self.i + 1)):
                self.i += 1
                continue
            if c in ";&|":
                raise self.fail()
            word = self.word(regex)
            if word is None:
                raise self.fail()
            regex = word.raw == "=~"

    def parens_of_function(self) -> None:
        self.i += 1
        self.skip_blanks()
        if not self.s.startswith(")", self.i):
            raise self.fail()
        self.i += 1

    def function_body(self) -> None:
        self.skip_linebreaks()
        if not self.is_compound_at(self.i):
            raise self.fail()
        self.command()

    def redirects_after(self) -> None:
        """A compound command's redirects: not listed on any command, but read."""
        while True:
            self.skip_blanks()
            m = self.redirect_at()
            if not m:
                return
            self.redirect(m, [])

    def redirect_at(self) -> re.Match[str] | None:
        """The redirect operator at i, with its number or {NAME}: not <( or >(."""
        m = _REDIRECT.match(self.s, self.i)
        if m and m.group() in ("<", ">") and self.s.startswith("(", m.end()):
            return None
        return m

    def redirect(self, m: re.Match[str], redirects: list[Redirect]) -> None:
        op = m.group().replace(_JOINED, "")
        self.i = m.end()
        self.skip_blanks()
        word = self.word()
        if word is None:
            raise self.fail()
        if word.raw.strip("0123456789") == "" and self.s.startswith(("<", ">"), self.i):
            raise self.fail()  # a target cannot be a descriptor's number: > 2>f
        target = word.text
        if op.endswith(("<<", "<<-")) and not op.endswith("<<<"):
            target = word.value if word.quoted else word.raw
            self.pending.append((target, op.endswith("-"), word.quoted))
        redirects.append(Redirect(op, target))

    def simple(self) -> None:
        s = self.s
        mark = len(self.state.commands)
        words: list[Word] = []
        redirects: list[Redirect] = []
        assigned = False
        while True:
            self.skip_blanks()
            if self.i >= self.n:
                break
            m = self.redirect_at()
            if m:
                self.redirect(m, redirects)
                continue
            c = s[self.i]
            if c in ";&|)\n":
                break
            if c == "(":
                first = words[0] if len(words) == 1 else None
                if not first or first.quoted or first.dynamic or redirects or assigned:
                    raise self.fail()
                self.parens_of_function()  # name() body: defines, runs nothing now
                self.function_body()
                return
            word = self.subscripted() if not words else None
            word = word or self.word()
            if word is None:
                raise self.fail()
            raw = word.raw.replace(_JOINED, "")
            assignment = _ASSIGNMENT.match(raw)
            is_assignment = assignment is not None
            # NAME=(...) is an array only when its = ends the word: not A=b=(c).
            if assignment and assignment.end() == len(raw) and s.startswith("(", self.i):
                if words and words[0].text not in _DECLARING:
                    raise self.fail()
                start = self.i - len(word.raw)
                dynamic = self.array()
                word = Word(s[start : self.i], s[start : self.i], dynamic, False)
            if not words and is_assignment:
                assigned = True
                continue
            words.append(word)
        if not words:
            return  # assignments and redirects alone run no program
        command = Command(
            [w.text for w in words],
            [i for i, w in enumerate(words) if w.dynamic],
            self.via,
            redirects,
        )
        # Before the commands of its substitutions, which ran first.
        self.state.commands.insert(mark, command)
        follow(command, self)

    def subscripted(self) -> Word | None:
        """a[i + 1]=x where an assignment may be: bash reads to the ], blanks and all."""
        s = self.s
        m = _SUBSCRIPTED.match(s, self.i)
        if not m:
            return None
        level = 0
        for b in _BRACKETS.finditer(s, m.end()):
            if b.group() == "[":
                level += 1
            elif level:
                level -= 1
            else:
                return self.word(until=b.end())
        raise self.fail()

    def array(self) -> bool:
        """A=(a b c): the elements are words, their substitutions run; true if one expands."""
        self.i += 1
        dynamic = False
        while True:
            self.skip_linebreaks()
            if self.s.startswith(")", self.i):
                self.i += 1
                return dynamic
            word = self.word()
            if word is None:
                raise self.fail()
            dynamic = dynamic or word.dynamic


def read_into(text: str, state: State) -> None:
    if "\x00" in text:  # no shell is given a NUL: an argument ends at it
        raise Failure(SYNTAX, text[text.index("\x00") :])
    Parser(text, state, 0, "").read_all()
