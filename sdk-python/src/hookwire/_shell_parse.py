"""The shell reader's grammar: lists, pipelines, compound and simple commands.

A recursive descent over the lexer's text, one method a construct; each
nesting level goes through Lexer.enter, which stops at MAX_DEPTH, so the
recursion is bounded.
"""

from __future__ import annotations

import re

from ._shell_follow import follow
from ._shell_lex import Failure, Lexer, State, Word
from ._shell_types import DEPTH, MAX_DEPTH, Command, Redirect

_END = r"(?=[ \t\n;&|()<>]|\Z)"
_RESERVED = re.compile(
    r"(?:if|then|elif|else|fi|do|done|case|esac|while|until|for|select|function|coproc"
    r"|time|in|\{|\}|!|\[\[|\]\])" + _END
)
_TIME_P = re.compile(r"-p" + _END)
_OPERATOR = re.compile(r";;&|;;|;&|&&|\|\||\|&|[;&|()\n]")
_REDIRECT = re.compile(
    r"(?:[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})?(?:&>>|&>|<<<|<<-|<<|<>|<&|>>|>&|>\||<|>)"
)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
_SUBSCRIPTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[")
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

    def reserved(self) -> str | None:
        m = _RESERVED.match(self.s, self.i)
        return m.group() if m else None

    def operator(self) -> str | None:
        m = _OPERATOR.match(self.s, self.i)
        return m.group() if m else None

    def expect(self, word: str) -> None:
        if self.reserved() != word:
            raise self.fail()
        self.i += len(word)

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
                self.i += 1
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
            self.i += 2
            self.skip_linebreaks()
            self.pipeline()

    def pipeline(self) -> None:
        prefixed = False
        while True:
            self.skip_blanks()
            word = self.reserved()
            if word == "!":
                self.i += 1
            elif word == "time":  # bash's keyword, with its -p
                self.i += 4
                self.skip_blanks()
                if _TIME_P.match(self.s, self.i):
                    self.i += 2
            else:
                break
            prefixed = True
        if prefixed and (self.i >= self.n or self.operator() not in (None, "(")):
            return  # `time` alone times nothing
        self.command()
        while True:
            self.skip_blanks()
            op = self.operator()
            if op not in ("|", "|&"):
                return
            self.i += len(op)
            self.skip_linebreaks()
            self.command()

    # -- commands --------------------------------------------------------------

    def command(self) -> None:
        self.skip_blanks()
        if self.i >= self.n:
            raise self.fail()
        s = self.s
        if s.startswith("(", self.i):
            if not (s.startswith("((", self.i) and self.arithmetic(self.i + 2)):
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
            self.i += len(word or "")
            self.enter()
            self.compound(word or "")
            self.leave()
            self.redirects_after()
        elif word == "function":
            self.i += len(word)
            self.skip_blanks()
            if self.word() is None:
                raise self.fail()
            self.skip_blanks()
            if s.startswith("(", self.i):
                self.parens_of_function()
            self.function_body()
        elif word == "coproc":
            self.i += len(word)
            self.skip_blanks()
            m = _NAME_THEN_BLANKS.match(s, self.i)
            if m and self.is_compound_at(m.end()):
                self.i = m.end()  # coproc NAME { ...; }: NAME names it
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

    def compound(self, word: str) -> None:
        if word == "{":
            self.list_of_one(frozenset({"}"}))
            self.expect("}")
        elif word == "if":
            self.list_of_one(frozenset({"then"}))
            self.expect("then")
            self.list_of_one(frozenset({"elif", "else", "fi"}))
            while self.reserved() == "elif":
                self.i += 4
                self.list_of_one(frozenset({"then"}))
                self.expect("then")
                self.list_of_one(frozenset({"elif", "else", "fi"}))
            if self.reserved() == "else":
                self.i += 4
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
                self.i += 2
                while True:
                    self.skip_blanks()
                    if self.word() is None:
                        break
        self.skip_blanks()
        op = self.operator()
        if op == ";":
            self.i += 1
        elif op not in (None, "\n"):
            raise self.fail()
        self.skip_linebreaks()
        if self.reserved() == "{":  # bash takes a group for do ... done
            self.i += 1
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
                self.i += 4
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
                self.i += len(op or "")
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
                self.i += 2
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
            m = _REDIRECT.match(self.s, self.i)
            if not m or (m.group() in ("<", ">") and self.s.startswith("(", m.end())):
                return
            self.redirect(m.group(), [])

    def redirect(self, op: str, redirects: list[Redirect]) -> None:
        self.i += len(op)
        self.skip_blanks()
        word = self.word()
        if word is None:
            raise self.fail()
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
            m = _REDIRECT.match(s, self.i)
            if m and not (m.group() in ("<", ">") and s.startswith("(", m.end())):
                self.redirect(m.group(), redirects)
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
            is_assignment = _ASSIGNMENT.match(word.raw) is not None
            if is_assignment and word.raw.endswith("=") and s.startswith("(", self.i):
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
    Parser(text, state, 0, "").read_all()
