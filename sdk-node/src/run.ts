// The stdio loop: one message per line on stdin, one reply line per
// request on the original stdout, logs on stderr.

import { HookwireError } from "./errors.js";
import { type Line, LineReader } from "./lines.js";
import { protectStdout } from "./protect.js";
import type { Registry } from "./registry.js";
import { Session } from "./session.js";

/** How long handlers in flight when stdin closes have to finish, then to stop once told. */
const STDIN_GRACE_MS = 500;
const CANCEL_GRACE_MS = 250;

const log = (message: string): void => {
  process.stderr.write(message + "\n");
};

// Kept on globalThis, not in this module: a program that loads both the ES
// module and the CommonJS build of the package has two of this module.
const RUNNING: unique symbol = Symbol.for("hookwire.running");
const state = globalThis as { [RUNNING]?: boolean };

export function run(hook: Registry): void {
  // stdin and stdout are one per process: a second loop would steal lines.
  if (state[RUNNING] === true) throw new HookwireError("hookwire: a hook is already running in this process");
  state[RUNNING] = true;
  const write = protectStdout();
  const stopping = new AbortController();
  const session = new Session(hook, log, stopping.signal, true);
  // Exit only once every reply written so far has reached the host.
  const exit = (): void => write("", () => process.exit(0));
  const close = (): void => void session.close().then(exit);
  // The host closed our stdout: nobody is left to answer.
  process.stdout.once("error", () => process.exit(0));

  const stdin = process.stdin;
  const lines = new LineReader();
  const emit = (line: Line): void => session.line(line, write);
  stdin.on("data", (chunk: Buffer) => lines.push(chunk, emit));
  stdin.once("end", () => {
    lines.end(emit);
    session.whenIdle(close);
    // The host has gone, or is going, and a hook must not outlive it:
    // handlers still running STDIN_GRACE_MS after stdin closed are told to
    // stop (ctx.signal), and CANCEL_GRACE_MS later the hook exits without them.
    setTimeout(() => {
      stopping.abort();
      setTimeout(() => {
        log("hookwire: warning: stdin is closed and handlers are still running; stopping without their replies");
        close();
      }, CANCEL_GRACE_MS);
    }, STDIN_GRACE_MS);
  });
  stdin.once("error", (err) => {
    log(`hookwire: reading stdin failed: ${err.message}`);
    session.whenIdle(close);
  });

  const stop = (): void => {
    stopping.abort();
    stdin.pause();
    close();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
