// The stdio loop: one message per line on stdin, one reply line per
// request on the original stdout, logs on stderr.

import type { Hook } from "./hook.js";
import { protectStdout } from "./protect.js";
import { Session } from "./session.js";

const log = (message: string): void => {
  process.stderr.write(message + "\n");
};

let running = false;

export function run(hook: Hook): void {
  // stdin and stdout are one per process: a second loop would steal lines.
  if (running) throw new Error("hookwire: a hook is already running in this process");
  running = true;
  const write = protectStdout();
  const stopping = new AbortController();
  const session = new Session(hook, log, stopping.signal);
  // Exit only once every reply written so far has reached the host.
  const exit = (): void => write("", () => process.exit(0));
  const close = (): void => void session.close().then(exit);
  // The host closed our stdout: nobody is left to answer.
  process.stdout.once("error", () => process.exit(0));

  const stdin = process.stdin;
  stdin.setEncoding("utf8");
  let rest = "";
  // Splitting by hand rather than with readline: no line-length limit, and
  // a long line is joined once, not scanned again for every chunk.
  stdin.on("data", (chunk: string) => {
    let nl = chunk.indexOf("\n");
    if (nl < 0) {
      rest += chunk;
      return;
    }
    session.line(rest + chunk.slice(0, nl), write);
    let start = nl + 1;
    while ((nl = chunk.indexOf("\n", start)) >= 0) {
      session.line(chunk.slice(start, nl), write);
      start = nl + 1;
    }
    rest = chunk.slice(start);
  });
  stdin.once("end", () => {
    if (rest !== "") session.line(rest, write);
    session.whenIdle(close);
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
