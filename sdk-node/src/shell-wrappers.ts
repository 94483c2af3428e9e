// What runs another command: wrappers (sudo, env, xargs, ...), shells' -c,
// eval and trap, find's -exec. Each command the reader finds is looked at
// here, and what it runs is reported with `via` naming the runner.

import { ShellCommand, type ShellReason, ShellReasons } from "./shell-command.js";

/** What the reader offers this module: collect a command or an unknown, read a string again. */
export interface Runs {
  add(command: ShellCommand): void;
  note(reason: ShellReason, text: string): void;
  readAgain(text: string, via: string): void;
  /** One level down (a command run by another program is one), or stops with depth. */
  enter(): void;
  leave(): void;
}

interface Wrapper {
  /** Short options that take a value. */
  shorts: string;
  /** Long options that take a value. */
  longs: string[];
  /** Operands before the command. */
  operands: number;
}

const wrapper = (shorts = "", longs: string[] = [], operands = 0): Wrapper => ({ shorts, longs, operands });

const WRAPPERS = new Map<string, Wrapper>([
  [
    "sudo",
    wrapper("ughpCDrtTU", [
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
    ]),
  ],
  ["doas", wrapper("uC")],
  ["env", wrapper("uC", ["unset", "chdir"])],
  ["command", wrapper()],
  ["builtin", wrapper()],
  ["nohup", wrapper()],
  ["setsid", wrapper()],
  ["unbuffer", wrapper()],
  ["exec", wrapper("a")],
  ["nice", wrapper("n", ["adjustment"])],
  ["time", wrapper("fo", ["format", "output"])],
  ["timeout", wrapper("sk", ["signal", "kill-after"], 1)],
  [
    "xargs",
    wrapper("InPLdEsa", [
      "replace",
      "max-args",
      "max-procs",
      "max-lines",
      "delimiter",
      "eof",
      "max-chars",
      "arg-file",
      "process-slot-var",
    ]),
  ],
  ["stdbuf", wrapper("ioe", ["input", "output", "error"])],
  ["ionice", wrapper("cnp", ["class", "classdata", "pid"])],
  ["chrt", wrapper("", [], 1)],
  ["taskset", wrapper("", [], 1)],
  ["flock", wrapper("wE", ["timeout", "conflict-exit-code"], 1)],
  ["caffeinate", wrapper("tw")],
]);

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash"]);
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const OTHERS = new Set(["eval", "trap", "find", "alias"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** A word of a command line being taken apart: its text, and whether it is known only when the shell runs. */
interface Arg {
  text: string;
  dynamic: boolean;
}

type Again = (a: Arg | undefined) => void;

function argsOf(c: ShellCommand): Arg[] {
  const dynamic = new Set(c.dynamic);
  return c.args.map((text, i) => ({ text, dynamic: dynamic.has(i) }));
}

/**
 * Reports what the command runs, if anything, after it: the command of a
 * wrapper, the string of a shell's -c, eval's and trap's strings, find's
 * -exec commands. Each command run so is one level down, so that a line of
 * wrappers (`sudo sudo ...`) stays bounded.
 */
export function runs(command: ShellCommand, to: Runs, words?: Arg[]): void {
  if (command.args.length === 0) return;
  if (command.dynamic[0] === 0) {
    to.note(ShellReasons.DynamicProgram, command.args[0]!);
    return;
  }
  const name = command.name;
  if (!WRAPPERS.has(name) && !SHELLS.has(name) && !OTHERS.has(name)) return;
  const args = words ?? argsOf(command);
  const run = (inner: Arg[]): void => {
    if (inner.length === 0) return;
    const dynamic: number[] = [];
    inner.forEach((a, i) => {
      if (a.dynamic) dynamic.push(i);
    });
    const c = new ShellCommand(
      inner.map((a) => a.text),
      dynamic,
      name,
    );
    to.enter();
    to.add(c);
    runs(c, to, inner);
    to.leave();
  };
  const readAgain: Again = (a) => {
    if (a === undefined) return;
    if (a.dynamic) to.note(ShellReasons.DynamicProgram, a.text);
    else to.readAgain(a.text, name);
  };

  const w = WRAPPERS.get(name);
  if (w !== undefined) unwrap(name, w, args, to, run, readAgain);
  else if (SHELLS.has(name)) shell(args, readAgain, to);
  else if (name === "eval") {
    const words = args.slice(args[1]?.text === "--" && !args[1].dynamic ? 2 : 1);
    if (words.length === 0) return;
    const text = words.map((a) => a.text).join(" ");
    readAgain({ text, dynamic: words.some((a) => a.dynamic) });
  } else if (name === "trap") trap(args, readAgain);
  else if (name === "find") find(args, run);
  else if (name === "alias") {
    const defined = args.slice(1).find((a) => a.dynamic || (!a.text.startsWith("-") && a.text.includes("=")));
    if (defined !== undefined) to.note(ShellReasons.Alias, defined.text);
  }
}

/** A wrapper's options, operands and command (docs/shell-reader.md has its table). */
function unwrap(name: string, w: Wrapper, given: Arg[], to: Runs, run: (inner: Arg[]) => void, readAgain: Again): void {
  let args = given;
  // Each env -S is a level: the reader's depth bounds how many copies of the words are made.
  let splits = 0;
  const splitIn = (at: number, value: Arg | undefined): boolean => {
    if (value === undefined) return true;
    if (value.dynamic) {
      readAgain(value);
      return false;
    }
    to.enter();
    splits++;
    args = [...args.slice(0, at), ...splitString(value.text), ...args.slice(at)];
    return true;
  };
  const done = (): void => {
    for (; splits > 0; splits--) to.leave();
  };
  let i = 1;
  let script: Arg | undefined; // flock's -c string
  let assigned = false; // after NAME=value, options have ended (GNU env, sudo)
  while (i < args.length) {
    const a = args[i]!;
    const t = a.text;
    if (a.dynamic) break;
    if ((name === "sudo" || name === "env") && ASSIGNMENT.test(t)) {
      assigned = true;
      i++;
      continue;
    }
    if (assigned) break;
    if (t === "--") {
      i++;
      break;
    }
    if (name === "env" && t === "-") {
      i++; // env's `-` is -i
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const long = eq < 0 ? t.slice(2) : t.slice(2, eq);
      // getopt takes any prefix of a long name.
      const is = (full: string): boolean => long !== "" && full.startsWith(long);
      const split = name === "env" && is("split-string");
      const command = name === "flock" && is("command");
      const takes = split || command || w.longs.some(is);
      const value = eq >= 0 ? { text: t.slice(eq + 1), dynamic: false } : args[i + 1];
      i += takes && eq < 0 ? 2 : 1;
      if (split && !splitIn(i, value)) {
        done();
        return;
      }
      if (command) script = value;
      continue;
    }
    if (t.length < 2 || !t.startsWith("-")) break;
    if (name === "nice" && /^-\d+$/.test(t)) {
      i++;
      continue;
    }
    if (name === "command" && (t.includes("v") || t.includes("V"))) {
      done();
      return;
    }
    let took = 1;
    for (let j = 1; j < t.length; j++) {
      const letter = t[j]!;
      const split = name === "env" && letter === "S";
      const command = name === "flock" && letter === "c";
      if (!split && !command && !w.shorts.includes(letter)) continue;
      const value = j + 1 < t.length ? { text: t.slice(j + 1), dynamic: false } : args[i + 1];
      if (j + 1 === t.length) took = 2;
      if (split && !splitIn(i + took, value)) {
        done();
        return;
      }
      if (command) script = value;
      break;
    }
    i += took;
  }
  i += w.operands;
  const next = args[i];
  if (name === "flock" && script === undefined && next !== undefined && !next.dynamic) {
    if (next.text === "-c" || next.text === "--command") script = args[i + 1] ?? { text: "", dynamic: false };
    else if (next.text.startsWith("--command=")) script = { text: next.text.slice(10), dynamic: false };
  }
  if (script !== undefined) readAgain(script);
  else if (i < args.length) run(args.slice(i));
  done();
}

/** bash, sh, ...: the string of -c is read again; with neither -c nor a script, the shell reads standard input. */
function shell(args: Arg[], readAgain: Again, to: Runs): void {
  let i = 1;
  let c = false;
  let stdin = false;
  while (i < args.length && !args[i]!.dynamic) {
    const t = args[i]!.text;
    if (t === "--" || t === "-") {
      i++;
      break;
    }
    if (t.startsWith("--")) {
      i += t === "--rcfile" || t === "--init-file" ? 2 : 1;
      continue;
    }
    if (t.length < 2 || (t[0] !== "-" && t[0] !== "+")) break;
    const letters = t.slice(1);
    if (t[0] === "-") {
      c ||= letters.includes("c");
      stdin ||= letters.includes("s");
    }
    // Each o or O takes the next word: `-euo pipefail`.
    i += 1 + (letters.match(/[oO]/g)?.length ?? 0);
  }
  if (c) readAgain(args[i]);
  else if (stdin || i >= args.length) to.note(ShellReasons.ShellStdin, args.map((a) => a.text).join(" "));
}

/** trap [-lpP] [action signal...]: the action, when there is one, is read again. */
function trap(args: Arg[], readAgain: Again): void {
  let i = 1;
  while (i < args.length && !args[i]!.dynamic && args[i]!.text.startsWith("-") && args[i]!.text.length > 1) {
    const t = args[i]!.text;
    i++;
    if (t === "--") break;
    if (/[lpP]/.test(t)) return;
  }
  // One operand alone is a signal to reset; `-` resets too.
  if (args.length - i < 2) return;
  const action = args[i]!;
  if (!action.dynamic && (action.text === "-" || action.text === "")) return;
  readAgain(action);
}

/** find's -exec, -execdir, -ok and -okdir, each up to its `;` or `{} +`. */
function find(args: Arg[], run: (inner: Arg[]) => void): void {
  let i = 1;
  while (i < args.length) {
    const a = args[i]!;
    i++;
    if (a.dynamic || !FIND_ACTIONS.has(a.text)) continue;
    let end = i;
    while (end < args.length) {
      const e = args[end]!;
      if (!e.dynamic && (e.text === ";" || (e.text === "+" && end > i && args[end - 1]!.text === "{}"))) break;
      end++;
    }
    run(args.slice(i, end));
    i = end + 1;
  }
}

/**
 * env -S's string split into words as GNU env splits it: blanks separate,
 * quotes and backslash escapes as in its manual; `${NAME}` is expanded by
 * env, so a word holding it is dynamic.
 */
export function splitString(s: string): Arg[] {
  const out: Arg[] = [];
  let word: Arg | null = null;
  const add = (text: string, dynamic = false): void => {
    word ??= { text: "", dynamic: false };
    word.text += text;
    word.dynamic ||= dynamic;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      if (word !== null) out.push(word);
      word = null;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      const stop = end < 0 ? s.length : end;
      add(s.slice(i + 1, stop));
      i = stop;
    } else if (c === '"') {
      add("");
      for (i++; i < s.length && s[i] !== '"'; i++) {
        if (s[i] === "\\" && i + 1 < s.length) i++;
        add(s[i]!, s[i] === "$" && s[i + 1] === "{");
      }
    } else if (c === "\\" && i + 1 < s.length) {
      i++;
      const e = s[i]!;
      if (e === "c") break;
      add(e === "_" ? " " : e === "t" ? "\t" : e === "n" ? "\n" : e === "f" ? "\f" : e === "v" ? "\v" : e);
    } else if (c === "#" && word === null) break;
    else add(c, c === "$" && s[i + 1] === "{");
  }
  if (word !== null) out.push(word);
  return out;
}
