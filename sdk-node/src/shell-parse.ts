// The shell reader's grammar: a recursive-descent parser of bash's lists,
// pipelines, compound commands and redirects, reading characters directly
// (the lexing of the shell depends on where it is: reserved words, case
// patterns, here-docs). Each nesting level is counted, and bounded.

import { type Collected, ShellCommand, type ShellReason, type ShellRedirect } from "./shell-command.js";
import { Scanner } from "./shell-words.js";
import { runs } from "./shell-wrappers.js";

// Reserved words that end a list; each is checked by the construct it closes (`in` and `]]` by none: syntax).
const CLOSERS = new Set(["then", "elif", "else", "fi", "do", "done", "esac", "}", "]]", "in"]);
// Words a function's body starts with: it is a compound command.
const COMPOUNDS = new Set(["{", "if", "while", "until", "for", "select", "case", "[["]);
// bash's reserved words.
const KEYWORDS = new Set([...CLOSERS, ...COMPOUNDS, "function", "time", "!", "coproc"]);
// Builtins whose NAME=(...) words are array assignments.
const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

interface HereDoc {
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

export class Parser extends Scanner {
  private hereDocs: HereDoc[] = [];

  constructor(
    src: string,
    private readonly out: Collected,
    depth: number,
    private via: string,
  ) {
    super(src, depth);
  }

  /** Reads the whole string as a command line. */
  readProgram(): void {
    this.readList();
    if (this.pos < this.src.length || this.hereDocs.length > 0) this.syntax();
  }

  /** Reads the body of an unquoted here-doc: its substitutions run. */
  readHereDocBody(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === "\\") this.pos += 2;
      else if (c === "$") this.readDollar(true);
      else if (c === "`") this.readBackquoted(true);
      else this.pos++;
    }
  }

  // What the scanner asks of the grammar.

  protected override substitution(via: string): void {
    this.enter();
    const outer = this.via;
    this.via = via;
    this.readList();
    if (this.peek() !== ")") this.syntax();
    this.pos++;
    this.via = outer;
    this.leave();
  }

  protected override backquoted(text: string): void {
    this.readAgain(text, "$()");
  }

  override note(reason: ShellReason, text: string): void {
    this.out.unknown.push({ reason, text });
  }

  protected override mark(): [number, number] {
    return [this.out.commands.length, this.out.unknown.length];
  }

  protected override rollback([commands, unknown]: [number, number]): void {
    this.out.commands.length = commands;
    this.out.unknown.length = unknown;
  }

  /** Reads a string again as a whole command line (a shell's -c, eval, a backquoted substitution), one level down. */
  readAgain(text: string, via: string): void {
    this.enter();
    new Parser(text, this.out, this.depth, via).readProgram();
    this.leave();
  }

  // Lists and pipelines.

  /** Skips blanks and newlines; after each newline, the here-docs it starts. */
  private skipLines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.peek() !== "\n") return;
      this.newline();
    }
  }

  private newline(): void {
    this.pos++;
    if (this.hereDocs.length > 0) this.readHereDocs();
  }

  /** Whether a list ends here: the end, `)`, a case's `;;`, or a reserved word that closes a construct. */
  private atListEnd(): boolean {
    if (this.pos >= this.src.length) return true;
    const c = this.peek();
    if (c === ")" || this.at(";;") || this.at(";&")) return true;
    const w = this.peekLiteral();
    return w !== null && CLOSERS.has(w);
  }

  /** Reads and-or lists separated by `;`, `&` and newlines, up to what ends the list; how many it read. */
  private readList(): number {
    let n = 0;
    for (;;) {
      this.skipLines();
      if (this.atListEnd()) return n;
      this.readAndOr();
      n++;
      this.skipBlanks();
      const c = this.peek();
      const next = this.peek(1);
      if (c === ";" && next !== ";" && next !== "&") this.pos++;
      else if (c === "&" && next !== "&") this.pos++;
      else if (c !== "\n") return n;
    }
  }

  /** A list that must hold a command, as a compound command's body must. */
  private readBody(): void {
    if (this.readList() === 0) this.syntax();
  }

  private readAndOr(): void {
    this.readPipeline();
    for (;;) {
      this.skipBlanks();
      if (!this.at("&&") && !this.at("||")) return;
      this.advance(2);
      this.skipLines();
      this.readPipeline();
    }
  }

  private readPipeline(): void {
    // bash's `time [-p] [--]` and `!`, in any order, are read through.
    let prefixed = false;
    for (;;) {
      this.skipBlanks();
      const w = this.peekLiteral();
      if (w === "!" || w === "time") prefixed = true;
      if (w === "!") this.takeLiteral();
      else if (w === "time") {
        this.takeLiteral();
        for (;;) {
          this.skipBlanks();
          const option = this.peekLiteral();
          if (option !== "-p" && option !== "--") break;
          this.takeLiteral();
        }
      } else break;
    }
    // bash takes `time` or `!` with no command: `time;`, but refuses `time &`.
    const c = this.peek();
    if (prefixed && (c === "" || c === "\n" || (c === ";" && this.peek(1) !== ";"))) return;
    this.readCommand();
    for (;;) {
      this.skipBlanks();
      if (this.peek() !== "|" || this.peek(1) === "|") return;
      this.advance(this.peek(1) === "&" ? 2 : 1);
      this.skipLines();
      this.readCommand();
    }
  }

  // Commands.

  private readCommand(): void {
    this.skipBlanks();
    const c = this.peek();
    if (c === "" || c === "\n" || c === ";" || c === "|" || c === ")" || (c === "&" && this.peek(1) !== ">"))
      this.syntax();
    if (c === "(") {
      if (this.peek(1) === "(") {
        const from = this.pos;
        const mark = this.mark();
        this.advance(2);
        if (this.readArithmetic()) {
          this.compoundRedirects();
          return;
        }
        if (this.at(")\n")) this.syntax(); // bash reads `((a) )` as two subshells, but not `((a)` before a newline
        this.rollback(mark);
        this.pos = from;
      }
      this.pos++;
      this.enter();
      this.readBody();
      this.expect(")");
      this.leave();
      this.compoundRedirects();
      return;
    }
    const w = this.peekLiteral();
    if (w !== null) {
      // `!` only starts a pipeline: `a | ! b` does not parse.
      if (CLOSERS.has(w) || w === "!") this.syntax();
      if (this.readCompound(w)) {
        this.compoundRedirects();
        return;
      }
      if (w === "function") {
        this.readFunction(true);
        return;
      }
      if (w === "coproc") {
        this.readCoproc();
        return;
      }
      // name ( ) body: a function definition (NAME=( ... ) is an array).
      const from = this.pos;
      if (ASSIGNMENT.test(w)) {
        this.readSimple();
        return;
      }
      this.takeLiteral();
      this.skipBlanks();
      if (this.peek() === "(") {
        this.pos = from;
        this.readFunction(false);
        return;
      }
      this.pos = from;
    }
    this.readSimple();
  }

  // bash's `coproc [NAME] compound` or `coproc simple-command`: the command runs, read through, not a level. A reserved
  // word that starts no compound command, first or after NAME, is a syntax error (a second coproc: it does not nest).
  private readCoproc(): void {
    this.takeLiteral();
    this.skipBlanks();
    const first = this.peekLiteral();
    if (first !== null && KEYWORDS.has(first) && !COMPOUNDS.has(first)) this.syntax();
    if (first === null || !COMPOUNDS.has(first)) {
      const from = this.pos;
      const mark = this.mark();
      if (!this.atRedirect() && this.readWord() !== null) {
        this.skipBlanks();
        const next = this.peekLiteral();
        if (this.peek() === "(" || (next !== null && COMPOUNDS.has(next))) {
          this.readCommand();
          return;
        }
        if (next !== null && KEYWORDS.has(next)) this.syntax();
      }
      this.rollback(mark); // a simple command: read again from its start
      this.pos = from;
    }
    this.readCommand();
  }

  /** Reads the compound command that starts with reserved word w; false when w starts none. */
  private readCompound(w: string): boolean {
    switch (w) {
      case "{":
        this.takeLiteral();
        this.enter();
        this.readBody();
        this.expectWord("}");
        this.leave();
        return true;
      case "if":
        this.takeLiteral();
        this.enter();
        this.readBody();
        this.expectWord("then");
        this.readBody();
        for (;;) {
          const next = this.peekLiteral();
          if (next !== null) this.takeLiteral();
          if (next === "fi") break;
          if (next === "elif") {
            this.readBody();
            this.expectWord("then");
            this.readBody();
          } else if (next === "else") {
            this.readBody();
            this.expectWord("fi");
            break;
          } else this.syntax();
        }
        this.leave();
        return true;
      case "while":
      case "until":
        this.takeLiteral();
        this.enter();
        this.readBody();
        this.readDoGroup();
        this.leave();
        return true;
      case "for":
      case "select":
        this.takeLiteral();
        this.enter();
        this.readFor();
        this.leave();
        return true;
      case "case":
        this.takeLiteral();
        this.enter();
        this.readCase();
        this.leave();
        return true;
      case "[[":
        this.takeLiteral();
        this.readTest();
        return true;
      default:
        return false;
    }
  }

  private expect(c: string): void {
    this.skipLines();
    if (this.peek() !== c) this.syntax();
    this.pos++;
  }

  private expectWord(w: string): void {
    this.skipLines();
    if (this.peekLiteral() !== w) this.syntax();
    this.takeLiteral();
  }

  /** `do list done`, or bash's `{ list }` in place of it. */
  private readDoGroup(): void {
    this.skipLines();
    const w = this.peekLiteral();
    if (w !== "do" && w !== "{") this.syntax();
    this.takeLiteral();
    this.readBody();
    this.expectWord(w === "do" ? "done" : "}");
  }

  /** for/select: `name [in words] ; do list done`, or `(( ... ))`. */
  private readFor(): void {
    this.skipBlanks();
    if (this.at("((")) {
      this.advance(2);
      if (!this.readArithmetic()) this.syntax();
    } else {
      if (this.readWord() === null) this.syntax();
      this.skipLines();
      if (this.peekLiteral() === "in") {
        this.takeLiteral();
        for (;;) {
          this.skipBlanks();
          const c = this.peek();
          if (c === "\n") break;
          if (c === "") this.syntax();
          if (c === ";") break;
          if (this.readWord() === null) this.syntax();
        }
      }
    }
    this.skipBlanks();
    if (this.peek() === ";") this.pos++;
    this.readDoGroup();
  }

  /** case word in [(] pattern [| pattern]... ) list ;; ... esac */
  private readCase(): void {
    this.skipBlanks();
    if (this.readWord() === null) this.syntax();
    this.expectWord("in");
    for (;;) {
      this.skipLines();
      if (this.peekLiteral() === "esac") {
        this.takeLiteral();
        return;
      }
      if (this.peek() === "(") this.pos++;
      for (;;) {
        this.skipBlanks();
        if (this.readWord() === null) this.syntax();
        this.skipBlanks();
        const c = this.peek();
        this.pos++;
        if (c === ")") break;
        if (c !== "|") this.syntax();
      }
      this.readList();
      this.skipBlanks();
      if (this.at(";;&")) this.advance(3);
      else if (this.at(";;") || this.at(";&")) this.advance(2);
      else {
        this.expectWord("esac");
        return;
      }
    }
  }

  /** `[[ ... ]]` runs no command; the substitutions in its words do. */
  private readTest(): void {
    for (;;) {
      this.skipLines();
      const c = this.peek();
      if (c === "") this.syntax();
      const w = this.peekLiteral();
      if (w === "]]") {
        this.takeLiteral();
        return;
      }
      if (w === "=~") {
        this.takeLiteral();
        this.readRegex();
      } else if (c === "&" || c === "|") {
        // Only && and || join; a single one does not parse.
        if (this.peek(1) !== c) this.syntax();
        this.advance(2);
      } else if (c === "<" || c === ">") {
        if (this.peek(1) === c) this.syntax();
        this.pos++;
      } else if ("()!".includes(c)) this.pos++;
      else if (this.readWord() === null) this.syntax();
    }
  }

  /** The right side of =~: one word, its parentheses, | and < included, to a blank outside parentheses. */
  private readRegex(): void {
    this.skipBlanks();
    let parens = 0;
    for (;;) {
      const c = this.peek();
      if (c === "" || ((c === " " || c === "\t" || c === "\n") && parens === 0)) return;
      if (c === "(") parens++;
      else if (c === ")" && parens-- === 0) return;
      if ("()|<>&; \t\n".includes(c)) this.pos++;
      else if (this.readWord() === null) this.pos++;
    }
  }

  /** `function name [()] body` or `name () body`: the body is a compound command. */
  private readFunction(keyword: boolean): void {
    if (keyword) {
      this.takeLiteral();
      this.skipBlanks();
    }
    if (this.readWord() === null) this.syntax();
    this.skipBlanks();
    if (this.peek() === "(" || !keyword) {
      this.expect("(");
      this.skipBlanks();
      this.expect(")");
    }
    this.skipLines();
    const w = this.peekLiteral();
    if (this.peek() !== "(" && (w === null || !COMPOUNDS.has(w))) this.syntax();
    // A function body is a level, apart from the compound command it is.
    this.enter();
    this.readCommand();
    this.leave();
  }

  /** The redirects after a compound command: not listed on any command, but their words and here-docs are read. */
  private compoundRedirects(): void {
    const ignored: ShellRedirect[] = [];
    for (;;) {
      this.skipBlanks();
      if (!this.atRedirect()) return;
      this.readRedirect(ignored);
    }
  }

  private readRedirect(into: ShellRedirect[]): void {
    const src = this.src;
    const start = this.pos;
    this.pos = this.descriptorEnd();
    const c = this.peek();
    this.advance(1);
    if (c === "&") this.advance(this.at(">>") ? 2 : 1);
    else if (c === "<") {
      if (this.at("<<") || this.at("<-")) this.advance(2);
      else if (this.at("<") || this.at("&") || this.at(">")) this.advance(1);
    } else if (this.at(">") || this.at("&") || this.at("|")) this.advance(1);
    const op = src.slice(start, this.pos).replaceAll("\\\n", "");
    this.skipBlanks();
    const w = this.readWord();
    if (w === null) this.syntax();
    // A target cannot be a descriptor's number: `>2>&1`.
    if (/^[0-9]+$/.test(w.source) && (this.peek() === "<" || this.peek() === ">")) this.syntax();
    const bare = op.replace(/^(?:[0-9]+|\{\w+\})/, "");
    if (bare === "<<" || bare === "<<-") {
      this.hereDocs.push({ delimiter: w.value, stripTabs: bare === "<<-", quoted: w.quoted });
      into.push({ op, target: w.value });
    } else into.push({ op, target: w.dynamic ? w.source : w.value });
  }

  /** Reads the bodies of the here-docs started on the line just ended. */
  private readHereDocs(): void {
    const src = this.src;
    const docs = this.hereDocs;
    this.hereDocs = [];
    for (const doc of docs) {
      const start = this.pos;
      for (;;) {
        if (this.pos >= src.length) this.syntax();
        const found = src.indexOf("\n", this.pos);
        const end = found < 0 ? src.length : found;
        let line = src.slice(this.pos, end);
        if (doc.stripTabs) line = line.replace(/^\t+/, "");
        const bodyEnd = this.pos;
        this.pos = Math.min(end + 1, src.length);
        if (line === doc.delimiter) {
          if (!doc.quoted) new Parser(src.slice(start, bodyEnd), this.out, this.depth, this.via).readHereDocBody();
          break;
        }
      }
    }
  }

  /** Assignments, words and redirects: one command, listed with the commands its words run after it. */
  private readSimple(): void {
    const mark = this.out.commands.length;
    const args: string[] = [];
    const dynamic: number[] = [];
    const redirects: ShellRedirect[] = [];
    let read = false;
    for (;;) {
      this.skipBlanks();
      if (this.atRedirect()) {
        this.readRedirect(redirects);
        read = true;
        continue;
      }
      const start = this.pos;
      if (args.length === 0) this.subscript();
      const w = this.readWord();
      if (w === null) break;
      read = true;
      const assignment = ASSIGNMENT.exec(w.shape);
      // NAME=(...) only when its = ends the word: `A=b=(c)` does not parse.
      const whole = assignment !== null && assignment[0].length === w.shape.length;
      if (whole && this.peek() === "(" && (args.length === 0 || this.declares(args))) {
        // NAME=(...): an array's words.
        const array = this.readArray();
        if (args.length > 0) {
          args.push(this.src.slice(start, this.pos));
          if (array || w.dynamic) dynamic.push(args.length - 1);
        }
        continue;
      }
      if (assignment !== null && args.length === 0) continue;
      if (w.dynamic) dynamic.push(args.length);
      args.push(w.dynamic ? w.source : w.value);
    }
    const c = this.peek();
    if (!read || c === "(") this.syntax();
    if (args.length === 0) return;
    const command = new ShellCommand(args, dynamic, this.via, redirects);
    this.out.commands.splice(mark, 0, command);
    runs(command, this);
  }

  private declares(args: string[]): boolean {
    return DECLARATIONS.has(args[0]!);
  }

  /** Reads `(words)` after NAME=; whether a word of it is dynamic. */
  private readArray(): boolean {
    this.pos++;
    let dynamic = false;
    for (;;) {
      this.skipLines();
      if (this.peek() === ")") {
        this.pos++;
        return dynamic;
      }
      const w = this.readWord();
      if (w === null) this.syntax();
      dynamic ||= w.dynamic;
    }
  }

  // What shell-wrappers.ts asks of the reader.

  add(command: ShellCommand): void {
    this.out.commands.push(command);
  }
}
