// Arithmetic for the calculate tool: a small parser, never eval. The LLM
// writes the expression, so it is untrusted input: only numbers,
// + - * / % ** ^ and parentheses are read, and every step is bounded before
// it is taken. The Go and Python hooks implement the same rules with the
// same messages; ../cases.json is the table all three are tested against.
//
// Grammar, with Python's precedence (-2 ** 2 is -4, 2 ** -1 is 0.5):
//
//   sum     = product (("+" | "-") product)*
//   product = power (("*" | "/" | "%") power)*
//   power   = sign* atom (("**" | "^") sign* atom)*     right to left
//   atom    = number | "(" sum ")"
//
// Numbers are IEEE-754 doubles, as in the other two, and results are shown
// with at most 15 significant digits, as a pocket calculator shows them.

import { accuratePow, tooLarge } from "./pow.js";

export const MAX_LENGTH = 1000; // characters of an expression
export const MAX_DEPTH = 64; // nested parentheses
export const MAX_DIGITS = 300; // decimal digits a power's result may have, before or after the point
const SIGNIFICANT = 15; // digits a result is shown with

/** A refused expression: the message is what the LLM reads. */
export class CalcError extends Error {}

/** An operator or a number, and its position (1-based, in characters) for messages. */
interface Token {
  text: string;
  pos: number;
}

/** The value of expression, formatted; a CalcError says why there is none. */
export function evaluate(expression: string): string {
  // The length first, in characters (code points, as Go and Python count
  // them): every later step is linear in it.
  let length = 0;
  for (const _c of expression) {
    if (++length > MAX_LENGTH) throw new CalcError(`expression too long: more than ${MAX_LENGTH} characters`);
  }
  const tokens = tokenize(Array.from(expression));
  if (tokens.length === 0) throw new CalcError("empty expression");
  const parser = new Parser(tokens);
  const value = parser.sum();
  parser.end();
  return formatNumber(value);
}

function tokenize(s: string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    const start = i + 1;
    if (" \t\r\n".includes(c)) {
      i++;
    } else if (isDigit(c) || (c === "." && digitAt(s, i + 1))) {
      i = numberEnd(s, i);
      tokens.push({ text: s.slice(start - 1, i).join(""), pos: start });
    } else if (isNameChar(c)) {
      while (i < s.length && isNameChar(s[i] as string)) i++;
      throw new CalcError(`names are not allowed: "${s.slice(start - 1, i).join("")}" at position ${start}`);
    } else if (c === "*" && s[i + 1] === "*") {
      tokens.push({ text: "**", pos: start });
      i += 2;
    } else if ("+-*/%^()".includes(c)) {
      tokens.push({ text: c, pos: start });
      i++;
    } else {
      throw new CalcError(`unexpected character ${show(c)} at position ${start}`);
    }
  }
  return tokens;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && c >= "0" && c <= "9";
}

function isNameChar(c: string): boolean {
  return /^[A-Za-z0-9_]$/.test(c);
}

function digitAt(s: string[], i: number): boolean {
  return isDigit(s[i]);
}

/** The end of the number at i: digits, a point and digits, an exponent. */
function numberEnd(s: string[], i: number): number {
  while (digitAt(s, i)) i++;
  if (s[i] === ".") {
    i++;
    while (digitAt(s, i)) i++;
  }
  // An exponent only when digits follow: "2e" is 2 and then a name.
  if (s[i] === "e" || s[i] === "E") {
    let j = i + 1;
    if (s[j] === "+" || s[j] === "-") j++;
    if (digitAt(s, j)) {
      i = j;
      while (digitAt(s, i)) i++;
    }
  }
  return i;
}

/** A character for a message: quoted when printable ASCII, else its code point. */
function show(c: string): string {
  if (c >= "!" && c <= "~" && c !== '"') return `"${c}"`;
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): string {
    return this.tokens[this.i]?.text ?? "";
  }

  private unexpected(): CalcError {
    const t = this.tokens[this.i];
    if (t === undefined) return new CalcError("unexpected end of expression");
    return new CalcError(`unexpected "${t.text}" at position ${t.pos}`);
  }

  end(): void {
    const t = this.tokens[this.i];
    if (t === undefined) return;
    if (t.text === ")") throw new CalcError(`unmatched ")" at position ${t.pos}`);
    throw this.unexpected();
  }

  sum(): number {
    let value = this.product();
    for (let op = this.peek(); op === "+" || op === "-"; op = this.peek()) {
      this.i++;
      const right = this.product();
      value = finite(op === "+" ? value + right : value - right);
    }
    return value;
  }

  private product(): number {
    let value = this.power();
    for (let op = this.peek(); op === "*" || op === "/" || op === "%"; op = this.peek()) {
      this.i++;
      const right = this.power();
      if (op === "*") value = finite(value * right);
      else if (right === 0) throw new CalcError("division by zero");
      else if (op === "/") value = finite(value / right);
      else value = modulo(value, right);
    }
    return value;
  }

  private power(): number {
    // Read the whole chain first, then fold it from the right: a loop, not
    // a recursion, however long the chain or the run of signs.
    const operands = [this.signed()];
    while (this.peek() === "**" || this.peek() === "^") {
      this.i++;
      operands.push(this.signed());
    }
    const last = operands.pop() as { negative: boolean; value: number };
    let value = last.negative ? -last.value : last.value;
    for (let o = operands.pop(); o !== undefined; o = operands.pop()) {
      value = power(o.value, value);
      if (o.negative) value = -value;
    }
    return value;
  }

  /** The signs before an atom, as one: whether they negate it. */
  private signed(): { negative: boolean; value: number } {
    let negative = false;
    for (let op = this.peek(); op === "+" || op === "-"; op = this.peek()) {
      if (op === "-") negative = !negative;
      this.i++;
    }
    return { negative, value: this.atom() };
  }

  private atom(): number {
    const t = this.tokens[this.i];
    if (t === undefined) throw this.unexpected();
    if (t.text === "(") {
      if (this.depth === MAX_DEPTH) throw new CalcError(`too many nested parentheses: more than ${MAX_DEPTH}`);
      this.depth++;
      this.i++;
      const value = this.sum();
      if (this.peek() === ")") this.i++;
      else if (this.i >= this.tokens.length) throw new CalcError(`missing ")" for the "(" at position ${t.pos}`);
      else throw this.unexpected();
      this.depth--;
      return value;
    }
    if (isDigit(t.text[0]) || t.text[0] === ".") {
      this.i++;
      const value = Number(t.text);
      if (!Number.isFinite(value)) throw new CalcError(`number too large: "${t.text}"`);
      return value;
    }
    throw this.unexpected();
  }
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new CalcError("result too large");
  return value;
}

/** a % b as Python has it for floats: the result takes the divisor's sign. */
function modulo(a: number, b: number): number {
  let r = a % b; // fmod, as Go's math.Mod and Python's math.fmod
  if (r !== 0 && r < 0 !== b < 0) r += b;
  return r;
}

/** base ** exponent, refused before it is computed when too large. */
function power(base: number, exponent: number): number {
  if (base === 0) {
    if (exponent < 0) throw new CalcError("division by zero");
    return exponent === 0 ? 1 : 0;
  }
  const shown = `${operandText(base)} ** ${operandText(exponent)}`;
  if (base < 0 && !Number.isInteger(exponent)) throw new CalcError(`no real result: ${shown}`);
  // The digits the result would have, from logarithms: 9 ** 9 ** 9 is
  // refused here, and never computed.
  if (Math.abs(base) === 1) return base ** exponent; // exact: 1, or -1 for an odd exponent
  if (tooLarge(base, exponent, MAX_DIGITS)) throw new CalcError(`exponent too large: ${shown}`);
  // Rounded once from an exact or 200-bit value (pow.ts): V8's own pow is
  // sometimes off in its last place.
  return finite(accuratePow(base, exponent));
}

function operandText(x: number): string {
  return x < 0 ? `(${formatNumber(x)})` : formatNumber(x);
}

/**
 * x with at most 15 significant digits, as the other two hooks write it:
 * from the shortest digits that read back as x (which Go's strconv and
 * Python's repr give alike), rounded half up to 15 digits, in positional
 * notation from 1e-6 to below 1e15.
 */
export function formatNumber(x: number): string {
  if (x === 0) return "0";
  const sign = x < 0 ? "-" : "";
  const [mantissa = "", exp = "0"] = Math.abs(x).toExponential().split("e");
  const [digits, point] = roundDigits(mantissa.replace(".", ""), Number(exp));
  return sign + layout(digits, point);
}

/** digits (x = d.ddd times 10**point) rounded half up to 15, without trailing zeros. */
function roundDigits(digits: string, point: number): [string, number] {
  if (digits.length > SIGNIFICANT) {
    const up = (digits[SIGNIFICANT] as string) >= "5";
    digits = digits.slice(0, SIGNIFICANT);
    if (up) {
      const kept = digits.replace(/9+$/, "");
      if (kept === "") {
        // 999...9 rounds up to 1 at the next power of ten
        digits = "1";
        point++;
      } else {
        digits = kept.slice(0, -1) + String(Number(kept.slice(-1)) + 1);
      }
    }
  }
  return [digits.replace(/0+$/, "") || "0", point];
}

function layout(digits: string, point: number): string {
  if (point >= -6 && point < SIGNIFICANT) {
    if (point < 0) return `0.${"0".repeat(-point - 1)}${digits}`;
    const whole = digits.slice(0, point + 1).padEnd(point + 1, "0");
    const frac = digits.slice(point + 1);
    return frac === "" ? whole : `${whole}.${frac}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${mantissa}e${point >= 0 ? "+" : "-"}${Math.abs(point)}`;
}
