// A hook run as a real child process, talked to as a host would: lines on
// its stdin, replies matched by id on its stdout, its stderr kept.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The compiled test fixture of that name (test/fixtures/<name>.ts). */
export const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}.js`, import.meta.url));

export interface Reply {
  jsonrpc: string;
  id: number | null;
  result?: { [key: string]: unknown };
  error?: { code: number; message: string; data?: unknown };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class HookProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line the hook wrote to stdout, in order. */
  readonly lines: string[] = [];
  /** Everything the hook wrote to stderr. */
  stderr = "";
  private readonly waiting = new Map<number | null, (reply: Reply) => void>();
  private readonly early = new Map<number | null, Reply>();
  private rest = "";
  private nextId = 1;
  private readonly closed: Promise<Exit>;

  /** detached: in a process group of its own, whose id is the hook's pid. */
  constructor(command: string, args: readonly string[], cwd?: string, detached = false) {
    this.child = spawn(command, args, { stdio: "pipe", cwd, detached });
    this.closed = new Promise((resolve) => this.child.once("close", (code, signal) => resolve({ code, signal })));
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => (this.stderr += chunk));
    this.child.stdout.on("data", (chunk: string) => {
      // Only the new chunk is searched, so that a long line costs linear time.
      const parts = chunk.split("\n");
      if (parts.length === 1) {
        this.rest += chunk;
        return;
      }
      this.received(this.rest + parts[0]);
      for (const line of parts.slice(1, -1)) this.received(line);
      this.rest = parts.at(-1) ?? "";
    });
  }

  /** Starts the hook with node. */
  static node(script: string, cwd?: string): HookProcess {
    return new HookProcess(process.execPath, [script], cwd);
  }

  private received(line: string): void {
    this.lines.push(line);
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      return; // kept in lines: the tests that read them fail on it
    }
    const waiter = this.waiting.get(reply.id);
    if (waiter !== undefined) {
      this.waiting.delete(reply.id);
      waiter(reply);
    } else {
      this.early.set(reply.id, reply);
    }
  }

  /** Writes one raw line to the hook's stdin. */
  send(line: string): void {
    this.child.stdin.write(line + "\n");
  }

  /** Sends a request without waiting; returns its id. */
  post(method: string, params?: unknown): number {
    const id = this.nextId++;
    this.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return id;
  }

  /** The reply with that id (null for a line that could not be read). */
  reply(id: number | null): Promise<Reply> {
    const early = this.early.get(id);
    if (early !== undefined) {
      this.early.delete(id);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** Sends a request and waits for its reply. */
  request(method: string, params?: unknown): Promise<Reply> {
    return this.reply(this.post(method, params));
  }

  /** Closes the hook's stdin and waits for it to exit. */
  close(): Promise<Exit> {
    this.child.stdin.end();
    return this.exited();
  }

  /** Waits for the hook to exit and its output to be read to the end. */
  exited(): Promise<Exit> {
    return this.closed;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}
