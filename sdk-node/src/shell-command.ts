// What the shell reader hands a guard: the commands a shell would run and
// what it could not know. The reader itself is in shell-parse.ts.

/** Why part of a command line could not be read (docs/shell-reader.md, "Unknowns"). */
export const ShellReasons = {
  /** The command does not parse as sh/bash. */
  Syntax: "syntax",
  /** What runs is known only when the shell runs: `$CMD x`, `bash -c "$X"`, `eval $X`. */
  DynamicProgram: "dynamic-program",
  /** A shell that reads its commands from standard input: `curl x | sh`. */
  ShellStdin: "shell-stdin",
  /** An alias is defined: later words may be expanded. */
  Alias: "alias",
  /** Arithmetic that names a variable, whose value can run a command. */
  Arithmetic: "arithmetic",
  /** Nesting deeper than 32 levels. */
  Depth: "depth",
  /** A command line longer than 1 MiB of UTF-8: nothing is read. */
  TooLong: "too-long",
} as const;

/** One of {@link ShellReasons}. */
export type ShellReason = (typeof ShellReasons)[keyof typeof ShellReasons];

/** A redirect of a command: `op` as written with its file descriptor (`2>&`), `target` after quote removal. */
export interface ShellRedirect {
  readonly op: string;
  /** The word after quote removal (its source text when dynamic); a here-doc's delimiter. */
  readonly target: string;
}

/** What could not be known without running the command, and the text it is about. */
export interface ShellUnknown {
  readonly reason: ShellReason;
  readonly text: string;
}

/** A reading: the commands a shell would run, and the unknowns. A guard lets a call through only when `unknown` is empty. */
export interface ShellReading {
  readonly commands: ShellCommand[];
  readonly unknown: ShellUnknown[];
}

/** A command the shell would run, as the program gets its words. */
export class ShellCommand {
  /**
   * @param args the words after quote removal; `args[0]` the program as written (`/bin/rm`)
   * @param dynamic the indexes in `args`, ascending, of words known only when the shell runs (kept as source text)
   * @param via `""` when the shell runs it itself, else what runs it (`sudo`, `bash`, `$()`, `find`, ...)
   * @param redirects the command's redirects in source order
   */
  constructor(
    readonly args: string[],
    readonly dynamic: number[] = [],
    readonly via: string = "",
    readonly redirects: ShellRedirect[] = [],
  ) {}

  /** The base name of `args[0]`: `/usr/bin/rm` gives `rm`. */
  get name(): string {
    const program = this.args[0] ?? "";
    return program.slice(program.lastIndexOf("/") + 1);
  }

  /**
   * Whether any argument after the program and before `--` is the short flag
   * (alone or in a cluster: `-rf`), `--long`, `--long=...` or a non-empty
   * prefix of `--long` (GNU getopt takes one: `--rec`). Options after
   * operands count, as GNU moves them. Dynamic words are skipped. Pass `""`
   * for a form the program does not have.
   */
  hasFlag(short: string, long: string): boolean {
    for (let i = 1; i < this.args.length; i++) {
      if (this.dynamic.includes(i)) continue;
      const arg = this.args[i]!;
      if (arg === "--") return false;
      if (arg.startsWith("--")) {
        const eq = arg.indexOf("=");
        const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
        if (long !== "" && name !== "" && long.startsWith(name)) return true;
      } else if (arg.length > 1 && arg.startsWith("-")) {
        if (short !== "" && arg.slice(1).includes(short)) return true;
      }
    }
    return false;
  }
}

/** Thrown inside the reader to stop reading: caught by readShell, which records the unknown. */
export class StopReading {
  constructor(
    readonly reason: ShellReason,
    readonly text: string,
  ) {}
}

/** Where a reading collects what it finds; the same for every string read again. */
export interface Collected {
  commands: ShellCommand[];
  unknown: ShellUnknown[];
}

/** Levels of nesting read before the reader stops with `depth`. */
export const MAX_DEPTH = 32;
