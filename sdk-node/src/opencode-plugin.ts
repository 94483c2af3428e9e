// hookwire's plugin for OpenCode's plugin API (OpenCode, and its forks such
// as Kilo Code CLI). It runs in the agent's own process, starts ONE warm
// server of hookwire's (`hookwire bridge --mcp AGENT -- HOOK`) for the
// life of that process and asks it each event over the server's stdin and
// stdout, as MCP tool calls: no process starts per event. It fails
// closed: a guarded call (tool.execute.before) that the server does not
// answer, in time and readably, is blocked by a throw that names hookwire.
//
// Standard library only, so that it is built to one ES module that the
// agent loads from its plugins folder with no npm install.
import { type ChildProcess, spawn } from "node:child_process";

/** What the installed plugin is told: the server's command line, and the
 * longest it waits for an answer (past the bridge's own deadline). */
export interface PluginConfig {
  server: string[];
  timeoutMs: number;
}

/** The server's answer to one event, as the bridge's form for OpenCode
 * writes it (core/bridge/opencode.go). */
export interface Decision {
  block?: string;
  args?: Record<string, unknown>;
  output?: string;
  message?: string;
}

/** The longest line read from the server: its answers are a few KiB. */
export const MAX_LINE = 1 << 20;
/** How much of the server's stderr is kept, for the message of a failure. */
const STDERR_KEPT = 2000;

/** How long a closed stdin waits for the server's exit to be reported. */
const EXIT_WAIT_MS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads one JSON-RPC response line of the server: its id, and the text
 * of a tool's result, or why it is an error. Anything else throws. */
export function decodeResponse(line: string): { id: number; text?: string; error?: string } {
  const msg: unknown = JSON.parse(line);
  if (!isObject(msg) || typeof msg.id !== "number") {
    throw new Error("a line of the server that is no response");
  }
  if (isObject(msg.error)) {
    return { id: msg.id, error: String(msg.error.message) };
  }
  const result = msg.result;
  if (!isObject(result)) {
    throw new Error("a response of the server without a result");
  }
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  if (result.content !== undefined && (!isObject(first) || typeof first.text !== "string")) {
    throw new Error("a tool result of the server without text");
  }
  const text = isObject(first) ? String(first.text) : undefined;
  return result.isError === true ? { id: msg.id, error: text ?? "an error" } : { id: msg.id, text };
}

/** Reads the bridge's decision from the text of a tool's result. */
export function decodeDecision(text: string): Decision {
  const v: unknown = JSON.parse(text);
  if (!isObject(v)) {
    throw new Error("the server's answer is not a JSON object");
  }
  const out: Decision = {};
  if (v.block !== undefined) out.block = String(v.block);
  if (v.output !== undefined) out.output = String(v.output);
  if (v.message !== undefined) out.message = String(v.message);
  if (v.args !== undefined) {
    if (!isObject(v.args)) throw new Error("the server's new arguments are not an object");
    out.args = v.args;
  }
  return out;
}

/** One warm server, asked over stdio; every wait is bounded. */
export class WarmServer {
  private child: ChildProcess;
  private nextId = 1;
  private pending = new Map<number, (r: { text?: string; error?: string }) => void>();
  private buffered = "";
  private stderr = "";
  private down: string | undefined;
  private ready: Promise<unknown>;

  constructor(private readonly config: PluginConfig) {
    const [program, ...args] = config.server;
    this.child = spawn(program ?? "hookwire", args, { stdio: ["pipe", "pipe", "pipe"] });
    this.child.on("error", (err) => this.fail(`the server did not start: ${err.message}`));
    this.child.on("exit", (code, signal) => this.fail(`the server ended (${signal ?? `exit code ${code}`})`));
    // A write to a server that has just ended fails before Node reports
    // its exit: the exit, which says why, is waited for a moment.
    this.child.stdin?.on("error", () => {
      setTimeout(() => this.fail("the server's stdin is closed"), EXIT_WAIT_MS).unref();
    });
    this.child.stderr?.setEncoding("utf8").on("data", (s: string) => {
      this.stderr = (this.stderr + s).slice(-STDERR_KEPT);
    });
    this.child.stdout?.setEncoding("utf8").on("data", (s: string) => this.read(s));
    // The server lives as long as the agent, and never keeps it running.
    this.child.unref();
    for (const pipe of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      (pipe as unknown as { unref?: () => void } | null)?.unref?.();
    }
    this.ready = this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "hookwire-opencode-plugin", version: "1" },
    }).then(() => this.send({ jsonrpc: "2.0", method: "notifications/initialized" }));
    this.ready.catch(() => {}); // asked again by each event
  }

  /** Asks the server about one event: the bridge's decision. */
  async ask(event: { text: Record<string, string>; json: Record<string, string> }): Promise<Decision> {
    await this.ready;
    const r = await this.request("tools/call", { name: "event", arguments: event });
    return decodeDecision(r);
  }

  /** Stops the server: its stdin closed, then a kill. */
  close(): void {
    this.child.stdin?.end();
    this.child.kill();
  }

  /** Why the server cannot answer, with the last of its stderr. */
  private why(reason: string): string {
    const tail = this.stderr.trim();
    return tail === "" ? reason : `${reason}; its stderr ends: ${tail.slice(-500)}`;
  }

  private fail(reason: string): void {
    this.down ??= this.why(reason);
    for (const settle of this.pending.values()) settle({ error: this.down });
    this.pending.clear();
  }

  private send(msg: unknown): void {
    this.child.stdin?.write(`${JSON.stringify(msg)}\n`);
  }

  private request(method: string, params: unknown): Promise<string> {
    if (this.down !== undefined) return Promise.reject(new Error(this.down));
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(this.why(`the server did not answer within ${this.config.timeoutMs} ms`)));
      }, this.config.timeoutMs);
      this.pending.set(id, (r) => {
        clearTimeout(timer);
        if (r.error !== undefined) reject(new Error(r.error));
        else resolve(r.text ?? "");
      });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    let nl = this.buffered.indexOf("\n");
    while (nl >= 0) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      if (line.trim() !== "") this.answer(line);
      nl = this.buffered.indexOf("\n");
    }
    if (this.buffered.length > MAX_LINE) {
      this.fail(`the server wrote a line of more than ${MAX_LINE} bytes`);
      this.close();
    }
  }

  private answer(line: string): void {
    let r: { id: number; text?: string; error?: string };
    try {
      r = decodeResponse(line);
    } catch (err) {
      if (/"method"/.test(line)) return; // a request or notification of the server's: none is asked of us
      this.fail(`the server wrote what hookwire cannot read (${(err as Error).message})`);
      return;
    }
    const settle = this.pending.get(r.id);
    this.pending.delete(r.id);
    settle?.(r);
  }
}

type Args = Record<string, unknown>;

/** The plugin: OpenCode calls it once, with its context, and calls the
 * hooks it returns. */
export function openCodePlugin(config: PluginConfig) {
  return async (ctx: { directory?: string }) => {
    const server = new WarmServer(config);
    process.once("exit", () => server.close());
    const cwd = ctx.directory ?? process.cwd();
    const event = (
      name: string,
      session: string,
      more: Record<string, string> = {},
      json: Record<string, string> = {},
    ) => ({
      text: { hook_event_name: name, session_id: session, cwd, ...more },
      json,
    });
    const tell = async (ev: ReturnType<typeof event>) => {
      try {
        return await server.ask(ev);
      } catch (err) {
        process.stderr.write(`hookwire: ${(err as Error).message}\n`);
        return {};
      }
    };
    return {
      "tool.execute.before": async (
        input: { tool: string; sessionID: string; callID: string },
        output: { args: Args },
      ) => {
        let d: Decision;
        try {
          d = await server.ask(
            event(
              "tool.execute.before",
              input.sessionID,
              { tool_name: input.tool, tool_use_id: input.callID },
              { tool_input: JSON.stringify(output.args ?? {}) },
            ),
          );
        } catch (err) {
          throw new Error(
            `hookwire blocked the call: its server cannot answer: ${(err as Error).message} (check the hook with hookwire doctor, and start the agent again)`,
          );
        }
        if (d.block !== undefined) throw new Error(d.block);
        if (d.args !== undefined) {
          for (const k of Object.keys(output.args)) delete output.args[k];
          Object.assign(output.args, d.args);
        }
      },
      "tool.execute.after": async (
        input: { tool: string; sessionID: string; callID: string; args?: Args },
        output: { output: string },
      ) => {
        const d = await tell(
          event(
            "tool.execute.after",
            input.sessionID,
            { tool_name: input.tool, tool_use_id: input.callID },
            { tool_input: JSON.stringify(input.args ?? {}), tool_response: JSON.stringify(output.output) },
          ),
        );
        if (d.output !== undefined) output.output = d.output;
      },
      "chat.message": async (input: { sessionID: string }, output: { parts?: { type: string; text?: string }[] }) => {
        const prompt = (output.parts ?? []).flatMap((p) => (p.type === "text" && p.text ? [p.text] : [])).join("\n");
        await tell(event("chat.message", input.sessionID, { prompt }));
      },
      event: async ({ event: e }: { event: { type: string; properties?: { sessionID?: string } } }) => {
        if (e.type === "session.idle" && e.properties?.sessionID) {
          await tell(event("session.idle", e.properties.sessionID));
        }
      },
    };
  };
}
