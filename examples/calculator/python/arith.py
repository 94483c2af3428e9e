"""Arithmetic for the calculate tool: a small parser, never eval.

The LLM writes the expression, so it is untrusted input: only numbers,
+ - * / % ** ^ and parentheses are read, and every step is bounded before it
is taken. The Go and TypeScript hooks implement the same rules with the same
messages; ../cases.json is the table all three are tested against.

Grammar, with Python's precedence (-2 ** 2 is -4, 2 ** -1 is 0.5):

    sum     = product (("+" | "-") product)*
    product = power (("*" | "/" | "%") power)*
    power   = sign* atom (("**" | "^") sign* atom)*     right to left
    atom    = number | "(" sum ")"

Numbers are IEEE-754 doubles in all three languages (Python's ints, which
grow without bound, appear only inside a power, and only up to 4096 bits).
A power is rounded once, from its exact value or a 60-digit one, where
math.pow does not always round an exact tie to even; the Go and TypeScript
hooks round theirs the same way, so that the three agree. Results are shown
with at most 15 significant digits, as a pocket calculator shows them.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

MAX_LENGTH = 1000  # characters of an expression
MAX_DEPTH = 64  # nested parentheses
MAX_DIGITS = 300  # decimal digits a power's result may have, before or after the point
SIGNIFICANT = 15  # digits a result is shown with
_PREC = 60  # decimal digits a power is computed with, before its one rounding to a float

# The natural logarithm of the largest power allowed, 10 ** MAX_DIGITS, with
# a margin far below any rounding: so that 100 ** 150, exactly at the bound,
# is allowed in each language, however its last bits of ln come out.
with localcontext() as _ctx:
    _ctx.prec = _PREC
    _LIMIT = MAX_DIGITS * Decimal(10).ln() + Decimal("1e-30")

OPERATORS = ("**", "+", "-", "*", "/", "%", "^", "(", ")")


class CalcError(Exception):
    """An expression that is refused: the message is what the LLM reads."""


# A token: its text, and its position (1-based, in characters) for messages.
Token = tuple[str, int]


def evaluate(expression: str) -> str:
    """The value of expression, formatted; CalcError says why there is none."""
    # The length first: every later step is linear in it.
    if len(expression) > MAX_LENGTH:
        raise CalcError(f"expression too long: more than {MAX_LENGTH} characters")
    tokens = tokenize(expression)
    if not tokens:
        raise CalcError("empty expression")
    parser = _Parser(tokens)
    value = parser.sum()
    parser.end()
    return format_number(value)


def tokenize(expression: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(expression)
    while i < n:
        c = expression[i]
        start = i + 1
        if c in " \t\r\n":
            i += 1
        elif c.isascii() and (c.isdigit() or (c == "." and _digit_at(expression, i + 1))):
            i = _number_end(expression, i)
            tokens.append((expression[start - 1 : i], start))
        elif _name_char(c) and not c.isdigit():
            while i < n and _name_char(expression[i]):
                i += 1
            name = expression[start - 1 : i]
            raise CalcError(f'names are not allowed: "{name}" at position {start}')
        elif expression.startswith("**", i):
            tokens.append(("**", start))
            i += 2
        elif c in OPERATORS:
            tokens.append((c, start))
            i += 1
        else:
            raise CalcError(f"unexpected character {_show(c)} at position {start}")
    return tokens


def _name_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


def _digit_at(s: str, i: int) -> bool:
    return i < len(s) and "0" <= s[i] <= "9"


def _number_end(s: str, i: int) -> int:
    """The end of the number at i: digits, a point and digits, an exponent."""
    while _digit_at(s, i):
        i += 1
    if i < len(s) and s[i] == ".":
        i += 1
        while _digit_at(s, i):
            i += 1
    # An exponent only when digits follow: "2e" is 2 and then a name.
    if i < len(s) and s[i] in "eE":
        j = i + 1
        if j < len(s) and s[j] in "+-":
            j += 1
        if _digit_at(s, j):
            i = j
            while _digit_at(s, i):
                i += 1
    return i


def _show(c: str) -> str:
    """A character for a message: quoted when printable ASCII, else its code point."""
    if "!" <= c <= "~" and c != '"':
        return f'"{c}"'
    return f"U+{ord(c):04X}"


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> str:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else ""

    def unexpected(self) -> CalcError:
        if self.i >= len(self.tokens):
            return CalcError("unexpected end of expression")
        text, pos = self.tokens[self.i]
        return CalcError(f'unexpected "{text}" at position {pos}')

    def end(self) -> None:
        if self.i < len(self.tokens):
            text, pos = self.tokens[self.i]
            if text == ")":
                raise CalcError(f'unmatched ")" at position {pos}')
            raise self.unexpected()

    def sum(self) -> float:
        value = self.product()
        while self.peek() in ("+", "-"):
            op = self.peek()
            self.i += 1
            right = self.product()
            value = finite(value + right if op == "+" else value - right)
        return value

    def product(self) -> float:
        value = self.power()
        while self.peek() in ("*", "/", "%"):
            op = self.peek()
            self.i += 1
            right = self.power()
            if op == "*":
                value = finite(value * right)
            elif right == 0:
                raise CalcError("division by zero")
            elif op == "/":
                value = finite(value / right)
            else:
                value = modulo(value, right)
        return value

    def power(self) -> float:
        # Read the whole chain first, then fold it from the right: a loop,
        # not a recursion, however long the chain or the run of signs.
        operands = [self.signed()]
        while self.peek() in ("**", "^"):
            self.i += 1
            operands.append(self.signed())
        negative, value = operands.pop()
        value = -value if negative else value
        while operands:
            negative, base = operands.pop()
            value = power(base, value)
            value = -value if negative else value
        return value

    def signed(self) -> tuple[bool, float]:
        """The signs before an atom, as one: whether they negate it."""
        negative = False
        while self.peek() in ("+", "-"):
            negative ^= self.peek() == "-"
            self.i += 1
        return negative, self.atom()

    def atom(self) -> float:
        if self.i >= len(self.tokens):
            raise self.unexpected()
        text, pos = self.tokens[self.i]
        if text == "(":
            if self.depth == MAX_DEPTH:
                raise CalcError(f"too many nested parentheses: more than {MAX_DEPTH}")
            self.depth += 1
            self.i += 1
            value = self.sum()
            if self.peek() == ")":
                self.i += 1
            elif self.i >= len(self.tokens):
                raise CalcError(f'missing ")" for the "(" at position {pos}')
            else:
                raise self.unexpected()
            self.depth -= 1
            return value
        if text[0].isdigit() or text[0] == ".":
            self.i += 1
            value = float(text)
            if not math.isfinite(value):
                raise CalcError(f'number too large: "{text}"')
            return value
        raise self.unexpected()


def finite(value: float) -> float:
    if not math.isfinite(value):
        raise CalcError("result too large")
    return value


def modulo(a: float, b: float) -> float:
    """a % b as Python has it for floats: the result takes the divisor's sign."""
    r = math.fmod(a, b)
    if r != 0 and (r < 0) != (b < 0):
        r += b
    return r


def power(base: float, exponent: float) -> float:
    """base ** exponent, refused before it is computed when too large."""
    if base == 0:
        if exponent < 0:
            raise CalcError("division by zero")
        return 1.0 if exponent == 0 else 0.0
    shown = f"{_operand(base)} ** {_operand(exponent)}"
    if base < 0 and not exponent.is_integer():
        raise CalcError(f"no real result: {shown}")
    if abs(base) == 1:
        return math.pow(base, exponent)  # exact: 1, or -1 for an odd exponent
    negative = base < 0 and exponent % 2 == 1
    with localcontext() as ctx:
        ctx.prec = _PREC
        # The digits the result would have, from its logarithm: 9 ** 9 ** 9
        # is refused here, and never computed.
        t = Decimal(exponent) * Decimal(abs(base)).ln()
        if abs(t) > _LIMIT:
            raise CalcError(f"exponent too large: {shown}")
        value = _exact_power(abs(base), exponent)
        if value is None:
            value = float(t.exp())
    return finite(-value if negative else value)


def _exact_power(x: float, exponent: float) -> float | None:
    """x ** exponent from integers, rounded once (to even on a tie), as
    math.pow does not always do; None when the integers would be large."""
    n = abs(exponent)
    if not n.is_integer():
        return None
    num, den = x.as_integer_ratio()
    if n * (num.bit_length() + den.bit_length()) > 4096:
        return None
    p: int = num ** int(n)
    q: int = den ** int(n)
    return p / q if exponent > 0 else q / p  # int / int rounds correctly


def _operand(x: float) -> str:
    s = format_number(x)
    return f"({s})" if x < 0 else s


def format_number(x: float) -> str:
    """x with at most 15 significant digits, as the other two hooks write it.

    From the shortest digits that read back as x (repr's, which Go's
    strconv and JavaScript's toExponential give alike), rounded half up to
    15 digits, in positional notation from 1e-6 to below 1e15.
    """
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    _, digit_tuple, exp = Decimal(repr(abs(x))).as_tuple()
    assert isinstance(exp, int)
    digits = "".join(map(str, digit_tuple))
    point = len(digits) + exp - 1  # x = d.ddd times 10**point
    digits, point = round_digits(digits, point)
    return sign + layout(digits, point)


def round_digits(digits: str, point: int) -> tuple[str, int]:
    """digits rounded half up to SIGNIFICANT, without trailing zeros."""
    if len(digits) > SIGNIFICANT:
        up = digits[SIGNIFICANT] >= "5"
        digits = digits[:SIGNIFICANT]
        if up:
            kept = digits.rstrip("9")
            if kept:
                digits = kept[:-1] + str(int(kept[-1]) + 1)
            else:  # 999...9 rounds up to 1 at the next power of ten
                digits, point = "1", point + 1
    return digits.rstrip("0") or "0", point


def layout(digits: str, point: int) -> str:
    if -6 <= point < SIGNIFICANT:
        if point < 0:
            return "0." + "0" * (-point - 1) + digits
        whole = digits[: point + 1].ljust(point + 1, "0")
        frac = digits[point + 1 :]
        return whole + ("." + frac if frac else "")
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{mantissa}e{'+' if point >= 0 else '-'}{abs(point)}"
