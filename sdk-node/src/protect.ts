// Keeps stdout for the protocol. Node cannot move a file descriptor (there
// is no dup2 in its standard library), so the protection is done where
// JavaScript writes to stdout: the process.stdout stream (console.log and
// friends write through it) and the stdio of child processes. What writes
// to file descriptor 1 by number (fs.writeSync(1, ...), native addons) is
// not covered; the README says so.

import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";

/** Writes a string to the protocol channel; calls done once it is flushed. */
export type ProtocolWrite = (data: string, done?: () => void) => void;

/**
 * From now on, writes to process.stdout go to stderr, and child processes
 * that would inherit stdout write to stderr instead. Returns the writer of
 * the original stdout.
 */
export function protectStdout(): ProtocolWrite {
  const stdout = process.stdout;
  const stderr = process.stderr;
  const original = stdout.write.bind(stdout);
  stdout.write = stderr.write.bind(stderr) as typeof stdout.write;
  redirectChildren();
  return (data, done) => {
    original(data, done === undefined ? undefined : () => done());
  };
}

type Stdio = unknown;

/** The stdio option of a child with every reference to our stdout turned into stderr (fd 2). */
export function redirectStdio(stdio: Stdio): Stdio {
  const toStderr = (entry: unknown, i: number): unknown =>
    entry === 1 || entry === process.stdout || (i === 1 && entry === "inherit") ? 2 : entry;
  if (stdio === "inherit") return ["inherit", 2, "inherit"];
  return Array.isArray(stdio) ? stdio.map(toStderr) : stdio;
}

type Options = { stdio?: Stdio };
const isOptions = (v: unknown): v is Options => typeof v === "object" && v !== null && !Array.isArray(v);

function withStdio(options: Options): Options {
  return options.stdio === undefined ? options : { ...options, stdio: redirectStdio(options.stdio) };
}

let redirected = false;

function redirectChildren(): void {
  if (redirected) return;
  redirected = true;
  // spawn, exec, execFile and fork all start their child through this method.
  const proto = childProcess.ChildProcess.prototype as unknown as { spawn(this: unknown, options: Options): unknown };
  const spawn = proto.spawn;
  proto.spawn = function (options) {
    return spawn.call(this, withStdio(options));
  };
  // The synchronous forms have no such shared method: wrap each, and update
  // the named ESM exports that import { execSync } binds to.
  const exports = childProcess as unknown as { [name: string]: (...args: unknown[]) => unknown };
  for (const name of ["spawnSync", "execSync", "execFileSync"]) {
    const original = exports[name]!;
    exports[name] = function (this: unknown, ...args: unknown[]) {
      for (let i = args.length - 1; i >= 0; i--) {
        if (isOptions(args[i])) {
          args[i] = withStdio(args[i] as Options);
          break;
        }
      }
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
}
