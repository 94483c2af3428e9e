// The shell reader's words: quote removal, ANSI-C strings, expansions and
// whether a word is known before the shell runs. The grammar (shell-parse.ts)
// extends this class and reads the commands inside substitutions.

import { MAX_DEPTH, type ShellReason, ShellReasons, StopReading } from "./shell-command.js";

/** A word as read: its value after quote removal and how it was written. */
export interface Word {
  /** After quote removal; an expansion is kept as its source text. */
  value: string;
  /** The word as written. */
  source: string;
  /** The shell expands it: its value is known only when the shell runs. */
  dynamic: boolean;
  /** Any part was quoted or escaped. */
  quoted: boolean;
  /** The unquoted literal characters, with "\0" for every other part: for assignments and brace expansion. */
  shape: string;
}

// Characters that end an unquoted word.
const DELIMITERS = " \t\n;&|<>()";
// Characters a literal word (a reserved word) cannot hold.
const SPECIAL = "'\"\\$`";
// Characters with a meaning inside double quotes.
const IN_DOUBLE = '"\\$`';
// Characters after `$` that name a special parameter.
const SPECIAL_PARAMS = "@*#?$!-0123456789";
// What arithmetic may hold and still be a constant: anything else, a name above all, can run a command.
const CONSTANT_ARITHMETIC = /^[0-9\s+\-*/%<>=!&|^~?:(),;]*$/;

const isPlain = (c: string): boolean => !DELIMITERS.includes(c) && !SPECIAL.includes(c);
const isNameStart = (c: string): boolean => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isNameChar = (c: string): boolean => isNameStart(c) || (c >= "0" && c <= "9");

export abstract class Scanner {
  pos = 0;
  /** Up to this index a word's delimiters are its own characters: an array subscript, `a[x y]=1`. */
  protected literalUntil = -1;
  /** Where the word peekLiteral() last saw ends. */
  private literalEnd = 0;
  /** Nesting of arithmetic, bounded apart from the spec's levels so that its recursion stays bounded too. */
  private arithmetic = 0;

  constructor(
    readonly src: string,
    /** Levels of nesting (docs/shell-reader.md): subshells, bodies, substitutions, `${...}`, strings read again. */
    protected depth: number,
  ) {}

  enter(): void {
    if (++this.depth > MAX_DEPTH) throw new StopReading(ShellReasons.Depth, this.src);
  }

  leave(): void {
    this.depth--;
  }

  /** Reads a command substitution from just after `$(` (or a process substitution after `<(`) through its `)`. */
  protected abstract substitution(via: string): void;
  /** Reads the text of a backquoted substitution, its escapes removed. */
  protected abstract backquoted(text: string): void;
  /** Records an unknown and goes on reading. */
  protected abstract note(reason: ShellReason, text: string): void;
  /** How many commands and unknowns are collected: a failed attempt at arithmetic is rolled back to it. */
  protected abstract mark(): [number, number];
  protected abstract rollback(mark: [number, number]): void;

  protected syntax(): never {
    throw new StopReading(ShellReasons.Syntax, this.src);
  }

  /** The index of the offset-th character from the position, joined lines (backslash-newline) skipped. */
  private index(offset: number): number {
    const src = this.src;
    let i = this.pos;
    for (let n = 0; ; n++, i++) {
      while (src[i] === "\\" && src[i + 1] === "\n") i += 2;
      if (n === offset) return i;
    }
  }

  /** Whether s is next, a joined line inside it or not: `&\<newline>&` is `&&`. */
  protected at(s: string): boolean {
    for (let k = 0; k < s.length; k++) if (this.peek(k) !== s[k]) return false;
    return true;
  }

  /** The offset-th character from the position, joined lines skipped. */
  protected peek(offset = 0): string {
    return this.src.charAt(this.index(offset));
  }

  /** Moves past n characters, and the joined lines before them. */
  protected advance(n: number): void {
    this.pos = this.index(n);
  }

  /** Skips spaces, tabs, backslash-newlines and a comment; not newlines. */
  protected skipBlanks(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && src[this.pos + 1] === "\n") this.pos += 2;
      else if (c === "#") {
        const end = src.indexOf("\n", this.pos);
        this.pos = end < 0 ? src.length : end;
      } else return;
    }
  }

  /**
   * The next word if it is plain unquoted text (a reserved word is), without
   * reading it; else null. Joined lines inside it are removed; takeLiteral()
   * moves past it.
   */
  protected peekLiteral(): string | null {
    const src = this.src;
    let i = this.pos;
    let w = "";
    while (i < src.length) {
      const c = src[i]!;
      if (c === "\\" && src[i + 1] === "\n") {
        i += 2;
        continue;
      }
      // `done<(x)` is one word: a process substitution goes on the word.
      if ((c === "<" || c === ">") && src[i + 1] === "(") return null;
      if (DELIMITERS.includes(c)) break;
      if (SPECIAL.includes(c)) return null;
      w += c;
      i++;
    }
    this.literalEnd = i;
    return w === "" ? null : w;
  }

  /** Moves past the word peekLiteral() last saw. */
  protected takeLiteral(): void {
    this.pos = this.literalEnd;
  }

  /**
   * Whether a redirect starts here: `<`, `>` (not a process substitution),
   * `&>`, or before one a file descriptor's number (a joined line inside it
   * or not) or bash's `{NAME}`.
   */
  protected atRedirect(): boolean {
    const c = this.peek();
    const next = this.peek(1);
    if ((c === "<" || c === ">") && next !== "(") return true;
    if (c === "&" && next === ">") return true;
    const end = this.descriptorEnd();
    if (end === this.pos) return false;
    const at = this.src[end];
    return (at === "<" || at === ">") && this.src[end + 1] !== "(";
  }

  /** Where a file descriptor's number (joined lines inside it skipped) or a `{NAME}` before a redirect ends. */
  protected descriptorEnd(): number {
    const src = this.src;
    let i = this.pos;
    if (src[i] === "{") {
      let j = i + 1;
      if (!isNameStart(src.charAt(j))) return i;
      while (isNameChar(src.charAt(j))) j++;
      return src[j] === "}" ? j + 1 : i;
    }
    for (;;) {
      if (src[i]! >= "0" && src[i]! <= "9") i++;
      else if (i > this.pos && src[i] === "\\" && src[i + 1] === "\n") i += 2;
      else break;
    }
    return i;
  }

  /**
   * Where an assignment may be, bash reads a word that starts NAME[ up to
   * its matching ], blanks and operators included: the word reader is told
   * how far. No ] is a syntax error.
   */
  protected subscript(): void {
    const src = this.src;
    let i = this.pos;
    if (i >= src.length || !/[A-Za-z_]/.test(src[i]!)) return;
    // A joined line may be inside the name or before its [: `for\\<newline>[`.
    while (i < src.length && (/\w/.test(src[i]!) || (src[i] === "\\" && src[i + 1] === "\n")))
      i += src[i] === "\\" ? 2 : 1;
    if (src[i] !== "[") return;
    let open = 0;
    for (; i < src.length; i++) {
      const c = src[i];
      if (c === "\\") i++;
      else if (c === "[") open++;
      else if (c === "]" && --open === 0) {
        this.literalUntil = i;
        return;
      }
    }
    this.syntax();
  }

  /** Reads the word at the position; null when none starts there. */
  protected readWord(): Word | null {
    const src = this.src;
    const start = this.pos;
    let value = "";
    let shape = "";
    let dynamic = false;
    let quoted = false;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if ((c === "<" || c === ">") && src[this.pos + 1] === "(") {
        // A process substitution is part of a word, as in `a<(b)`.
        const from = this.pos;
        this.pos += 2;
        this.substitution(c + "()");
        value += src.slice(from, this.pos);
        shape += "\0";
        dynamic = true;
        continue;
      }
      if (DELIMITERS.includes(c) && this.pos > this.literalUntil) break;
      if (c === "\\") {
        if (src[this.pos + 1] === "\n") {
          this.pos += 2;
          continue;
        }
        quoted = true;
        shape += "\0";
        if (this.pos + 1 < src.length) {
          value += src[this.pos + 1];
          this.pos += 2;
        } else {
          value += "\\";
          this.pos++;
        }
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) this.syntax();
        value += src.slice(this.pos + 1, end);
        this.pos = end + 1;
        quoted = true;
        shape += "\0";
      } else if (c === '"') {
        const d = this.readDouble();
        value += d.value;
        dynamic ||= d.dynamic;
        quoted = true;
        shape += "\0";
      } else if (c === "`") {
        const from = this.pos;
        this.readBackquoted(false);
        value += src.slice(from, this.pos);
        dynamic = true;
        shape += "\0";
      } else if (c === "$") {
        const next = src[this.pos + 1];
        if (next === "'") {
          value += this.readAnsiC();
          quoted = true;
          shape += "\0";
        } else if (next === '"') {
          this.pos++;
          const d = this.readDouble();
          value += d.value;
          dynamic ||= d.dynamic;
          quoted = true;
          shape += "\0";
        } else {
          const from = this.pos;
          if (this.readDollar(false)) {
            dynamic = true;
            shape += "\0";
          } else shape += "$";
          value += src.slice(from, this.pos);
        }
      } else {
        // A run of plain characters at once: one string per run, not per character.
        let end = this.pos + 1;
        while (end < src.length && (isPlain(src[end]!) || (end <= this.literalUntil && !SPECIAL.includes(src[end]!))))
          end++;
        const run = src.slice(this.pos, end);
        value += run;
        shape += run;
        this.pos = end;
      }
    }
    if (this.pos === start) return null;
    if (!dynamic && hasBraceExpansion(shape)) dynamic = true;
    return { value, source: src.slice(start, this.pos), dynamic, quoted, shape };
  }

  /** Reads `"..."` from its opening quote; its value after the escapes that double quotes keep. */
  protected readDouble(): { value: string; dynamic: boolean } {
    const src = this.src;
    this.pos++;
    let value = "";
    let dynamic = false;
    for (;;) {
      if (this.pos >= src.length) this.syntax();
      const c = src[this.pos]!;
      if (c === '"') {
        this.pos++;
        return { value, dynamic };
      }
      if (c === "\\") {
        const next = src[this.pos + 1];
        if (next === "\n") this.pos += 2;
        else if (next === "$" || next === "`" || next === '"' || next === "\\") {
          value += next;
          this.pos += 2;
        } else {
          value += c;
          this.pos++;
        }
      } else if (c === "$" || c === "`") {
        const from = this.pos;
        if (c === "`") {
          this.readBackquoted(true);
          dynamic = true;
        } else if (this.readDollar(true)) dynamic = true;
        value += src.slice(from, this.pos);
      } else {
        let end = this.pos + 1;
        while (end < src.length && !IN_DOUBLE.includes(src[end]!)) end++;
        value += src.slice(this.pos, end);
        this.pos = end;
      }
    }
  }

  /** Reads a `$` expansion from its `$`; false (and the `$` read alone) when it is a literal `$`. */
  protected readDollar(inDouble: boolean): boolean {
    const src = this.src;
    const next = src.charAt(this.pos + 1);
    if (next === "(") {
      if (src[this.pos + 2] === "(") {
        const from = this.pos;
        const mark = this.mark();
        this.pos += 3;
        if (this.readArithmetic()) return true;
        // `$( (a) b )`: a command substitution that starts with a subshell.
        this.rollback(mark);
        this.pos = from;
      }
      this.pos += 2;
      this.substitution("$()");
      return true;
    }
    if (next === "{") {
      this.pos += 2;
      this.readParameter(inDouble);
      return true;
    }
    if (next === "[") {
      // `$[...]`, bash's old arithmetic.
      this.pos += 2;
      this.readArithmetic("]");
      return true;
    }
    if (isNameStart(next)) {
      this.pos += 2;
      while (this.pos < src.length && isNameChar(src[this.pos]!)) this.pos++;
      return true;
    }
    if (next !== "" && SPECIAL_PARAMS.includes(next)) {
      this.pos += 2;
      return true;
    }
    this.pos++;
    return false;
  }

  /** Reads `${...}` from after `${` through its `}`, with the substitutions in it. */
  private readParameter(inDouble: boolean): void {
    const src = this.src;
    this.enter();
    for (;;) {
      if (this.pos >= src.length) this.syntax();
      const c = src[this.pos]!;
      if (c === "}") {
        this.pos++;
        break;
      }
      if (c === "\\") this.pos += 2;
      else if ((c === "<" || c === ">") && src[this.pos + 1] === "(") {
        // bash reads a process substitution inside ${...}, even in double quotes.
        this.pos += 2;
        this.substitution(c + "()");
      } else if (c === "'" && !inDouble) {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) this.syntax();
        this.pos = end + 1;
      } else if (c === '"') this.readDouble();
      else if (c === "$") this.readDollar(inDouble);
      else if (c === "`") this.readBackquoted(inDouble);
      else this.pos++;
    }
    this.leave();
  }

  /**
   * Reads arithmetic from after `$((` or `((` through `))` (or through `]`
   * for `$[`), noting an unknown when it is not a constant. False, with the
   * position anywhere, when a `)` closes it alone: then it was not arithmetic.
   */
  protected readArithmetic(close: "))" | "]" = "))"): boolean {
    const src = this.src;
    const start = this.pos;
    let parens = 0;
    this.enterArithmetic();
    for (;;) {
      if (this.pos >= src.length) {
        this.arithmetic--;
        if (close === "]") this.syntax();
        return false;
      }
      const c = src[this.pos]!;
      if (close === "]" && (c === "[" || c === "]")) {
        // `$[...]` nests brackets; its parentheses are arithmetic's own business.
        if (c === "]" && parens === 0) break;
        parens += c === "[" ? 1 : -1;
        this.pos++;
      } else if (close === "]" && (c === "(" || c === ")")) this.pos++;
      else if (c === "(") {
        parens++;
        this.pos++;
      } else if (c === ")") {
        if (parens > 0) {
          parens--;
          this.pos++;
        } else if (close === "))" && src[this.pos + 1] === ")") break;
        else {
          this.arithmetic--;
          return false;
        }
      } else if (c === "\\") this.pos += 2;
      else if (c === '"') this.readDouble();
      else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        this.pos = end < 0 ? src.length : end + 1;
      } else if (c === "$" && src[this.pos + 1] === "{") {
        // bash finds the end of arithmetic by its parentheses: a ${ inside is not matched to its }.
        this.pos += 2;
      } else if (c === "$") this.readDollar(false);
      else if (c === "`") this.readBackquoted(false);
      else this.pos++;
    }
    const text = src.slice(start, this.pos);
    this.pos += close.length;
    this.arithmetic--;
    if (!CONSTANT_ARITHMETIC.test(text)) this.note(ShellReasons.Arithmetic, text);
    return true;
  }

  /** Reads `` `...` `` from its opening quote, and hands its text, escapes removed, to backquoted(). */
  protected readBackquoted(inDouble: boolean): void {
    const src = this.src;
    this.pos++;
    let text = "";
    for (;;) {
      if (this.pos >= src.length) this.syntax();
      const c = src[this.pos]!;
      if (c === "`") {
        this.pos++;
        break;
      }
      const next = src[this.pos + 1];
      if (c === "\\" && (next === "$" || next === "`" || next === "\\" || (inDouble && next === '"'))) {
        text += next;
        this.pos += 2;
      } else {
        text += c;
        this.pos++;
      }
    }
    this.backquoted(text);
  }

  /** Reads `$'...'` from its `$`: bash's escapes, as bytes decoded as UTF-8. */
  private readAnsiC(): string {
    const src = this.src;
    this.pos += 2;
    const bytes: number[] = [];
    let ended = false; // bash ends the string at a NUL byte
    const push = (...b: number[]): void => {
      for (const x of b) {
        if (x === 0) ended = true;
        if (!ended) bytes.push(x);
      }
    };
    const pushText = (s: string): void => push(...utf8.encode(s));
    for (;;) {
      if (this.pos >= src.length) this.syntax();
      const c = src[this.pos]!;
      if (c === "'") {
        this.pos++;
        break;
      }
      if (c !== "\\") {
        const cp = src.codePointAt(this.pos)!;
        const ch = String.fromCodePoint(cp);
        pushText(ch);
        this.pos += ch.length;
        continue;
      }
      const e = src.charAt(this.pos + 1);
      this.pos += 2;
      const simple = ANSI_ESCAPES[e];
      if (simple !== undefined) push(simple);
      else if (e >= "0" && e <= "7") {
        const digits = takeWhile(src, this.pos - 1, 3, isOctal);
        this.pos += digits.length - 1;
        push(Number.parseInt(digits, 8) & 0xff);
      } else if (e === "x" || e === "u" || e === "U") {
        const digits = takeWhile(src, this.pos, e === "x" ? 2 : e === "u" ? 4 : 8, isHex);
        if (digits === "") pushText("\\" + e);
        else {
          this.pos += digits.length;
          const n = Number.parseInt(digits, 16);
          if (e === "x") push(n);
          else pushText(n <= 0x10ffff && (n < 0xd800 || n > 0xdfff) ? String.fromCodePoint(n) : "\ufffd");
        }
      } else if (e === "c" && this.pos < src.length) {
        const x = src[this.pos]!;
        // bash reads `\c\\` as control-backslash.
        this.pos += x === "\\" && src[this.pos + 1] === "\\" ? 2 : 1;
        push(x === "?" ? 0x7f : x.toUpperCase().charCodeAt(0) & 0x1f);
      } else if (e === "") this.syntax();
      else pushText("\\" + e);
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }

  private enterArithmetic(): void {
    if (++this.arithmetic > MAX_DEPTH) throw new StopReading(ShellReasons.Depth, this.src);
  }
}

const ANSI_ESCAPES: { [e: string]: number } = Object.assign(Object.create(null), {
  a: 7,
  b: 8,
  e: 27,
  E: 27,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
  "'": 39,
  '"': 34,
  "?": 63,
});

const utf8 = new TextEncoder();

const isOctal = (c: string): boolean => c >= "0" && c <= "7";
const isHex = (c: string): boolean => (c >= "0" && c <= "9") || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");

function takeWhile(s: string, from: number, max: number, ok: (c: string) => boolean): string {
  let end = from;
  while (end < s.length && end - from < max && ok(s[end]!)) end++;
  return s.slice(from, end);
}

// A sequence expression's body: `1..3`, `a..e`, `1..10..2`.
const SEQUENCE = /^(?:-?\d+\.\.-?\d+|[A-Za-z]\.\.[A-Za-z])(?:\.\.-?\d+)?$/;

/**
 * Whether the unquoted shape of a word holds a brace expansion: braces with
 * an unquoted comma at their top level, or a sequence. One pass with a stack,
 * so that a word of many braces stays linear.
 */
export function hasBraceExpansion(shape: string): boolean {
  const open: { at: number; comma: boolean }[] = [];
  for (let i = 0; i < shape.length; i++) {
    const c = shape[i];
    if (c === "{") open.push({ at: i, comma: false });
    else if (c === "," && open.length > 0) open[open.length - 1]!.comma = true;
    else if (c === "}" && open.length > 0) {
      const o = open.pop()!;
      if (o.comma) return true;
      if (i - o.at < 64 && SEQUENCE.test(shape.slice(o.at + 1, i))) return true;
    }
  }
  return false;
}
