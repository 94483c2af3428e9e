// The shell reader: what programs a shell command line runs, read the way
// POSIX sh and bash split it (docs/shell-reader.md is the contract the Go,
// Python and TypeScript readers share).

import { type Collected, type ShellReading, ShellReasons, StopReading } from "./shell-command.js";
import { Parser } from "./shell-parse.js";

export {
  ShellCommand,
  type ShellReading,
  type ShellReason,
  ShellReasons,
  type ShellRedirect,
  type ShellUnknown,
} from "./shell-command.js";

/** The longest command line read, in bytes of UTF-8: a longer one is not read at all. */
const MAX_BYTES = 1 << 20;

/**
 * Reads a shell command line the way POSIX sh and bash split it: the
 * commands it would run (through quotes, lists, pipelines, compound
 * commands, substitutions, wrappers such as `sudo`, shells' `-c`, `eval`,
 * `find -exec`) and the unknowns, what cannot be known without running it.
 * It never throws, and reads 1 MiB in linear time.
 *
 * A guard decides on the commands, and refuses when `unknown` is not empty:
 *
 * @example
 * ```ts
 * import { readShell, type ShellCommand } from "hookwire";
 *
 * const deletes = (c: ShellCommand): boolean =>
 *   (c.name === "rm" && (c.hasFlag("r", "recursive") || c.hasFlag("R", "recursive"))) ||
 *   (c.name === "find" && c.args.includes("-delete"));
 *
 * function allowed(command: string): boolean {
 *   const reading = readShell(command);
 *   if (reading.unknown.length > 0) return false; // what it cannot read, it does not let through
 *   return !reading.commands.some(deletes);
 * }
 *
 * allowed("grep -rn 'rm -rf' docs"); // true
 * allowed("sudo bash -c 'rm --rec x'"); // false
 * allowed("$CMD -rf x"); // false: dynamic-program
 * ```
 */
export function readShell(command: string): ShellReading {
  const out: Collected = { commands: [], unknown: [] };
  if (tooLong(command)) {
    out.unknown.push({ reason: ShellReasons.TooLong, text: command.slice(0, 100) });
    return out;
  }
  if (command.includes("\0")) {
    // No shell can be given a NUL byte: whatever the caller runs, it is not this line.
    out.unknown.push({ reason: ShellReasons.Syntax, text: command.slice(0, 100) });
    return out;
  }
  try {
    new Parser(command, out, 0, "").readProgram();
  } catch (e) {
    if (e instanceof StopReading) out.unknown.push({ reason: e.reason, text: e.text });
    // The nesting is bounded well below the stack's size; should the stack still run out, refuse.
    else if (e instanceof RangeError) out.unknown.push({ reason: ShellReasons.Depth, text: command.slice(0, 100) });
    else throw e;
  }
  return out;
}

/** Whether the command is over 1 MiB of UTF-8, without encoding it when its length alone says. */
function tooLong(command: string): boolean {
  if (command.length > MAX_BYTES) return true;
  if (command.length * 3 <= MAX_BYTES) return false;
  return Buffer.byteLength(command, "utf8") > MAX_BYTES;
}
