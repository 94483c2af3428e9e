// Calls a hook's handlers in-process, from the hook author's own tests,
// through the same code that serves the wire.

import { HookwireError } from "./errors.js";
import type { Hook } from "./hook.js";
import { TestClientMethods } from "./methods.gen.js";
import type { HelloParams, HelloResult, LegacyEvent, Mode, RuntimeEvent } from "./protocol.gen.js";
import { type Log, Session } from "./session.js";

/** The error a request gets on the wire, thrown by the test client. */
export class RpcError extends HookwireError {
  constructor(
    /** The JSON-RPC error code, such as -32000 for a handler that failed. */
    readonly code: number,
    message: string,
    /** The error's data, undefined when the wire carries none. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

/** A JSON-RPC response as the hook writes it. */
export interface WireResponse {
  jsonrpc: "2.0";
  id: number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Options of testHook. */
export interface TestOptions {
  /** Handed to handlers as ctx.signal. */
  signal?: AbortSignal;
  /** Receives the hook's log lines; by default they go to stderr. */
  log?: Log;
}

/**
 * Calls a hook's handlers in-process. Each method sends its params through
 * the hook as the host would (JSON in, JSON out) and resolves to exactly
 * the result that would go on the wire, or rejects with an RpcError when
 * the wire would carry an error. Its call of each request (beforeLLM and the
 * others) comes from TestClientMethods.
 */
export class TestClient extends TestClientMethods {
  private readonly session: Session;
  private nextId = 1;

  constructor(hook: Hook, options: TestOptions = {}) {
    super();
    const log = options.log ?? ((message: string) => void process.stderr.write(message + "\n"));
    this.session = new Session(hook, log, options.signal ?? new AbortController().signal);
  }

  /** Sends any request and resolves to the whole response line, parsed. */
  request(method: string, params?: unknown): Promise<WireResponse> {
    const id = this.nextId++;
    const sent: unknown = params === undefined ? undefined : JSON.parse(JSON.stringify(params));
    return new Promise((resolve) => {
      this.session.call(id, method, sent, (line) => resolve(JSON.parse(line) as WireResponse));
    });
  }

  /** Sends a raw input line, as the host would write it, and resolves to the reply line, if any comes at once. */
  line(text: string): WireResponse | undefined {
    let reply: WireResponse | undefined;
    this.session.line(text, (line) => {
      reply = JSON.parse(line) as WireResponse;
    });
    return reply;
  }

  /** Sends hook.hello, the handshake, with defaults for what params leave out, and resolves to the hook's answer. */
  hello(params: Partial<HelloParams> = {}): Promise<HelloResult & { modes: Mode[] }> {
    return this.result("hook.hello", { name: "test", version: 1, modes: [], ...params });
  }

  /**
   * Sends an observe notification (hook.runtime_event, or hook.event for a
   * legacy event) and resolves once every observer it reaches is done;
   * rejects with the first observer's error.
   */
  event(event: RuntimeEvent | LegacyEvent): Promise<void> {
    const legacy = Object.hasOwn(event, "Kind");
    return this.session.notify(legacy ? "hook.event" : "hook.runtime_event", JSON.parse(JSON.stringify(event)));
  }

  /** Stops the hook as a closed stdin would: resolves once its onClose functions are done. */
  close(): Promise<void> {
    return this.session.close();
  }

  /** @internal */
  protected override async result<R>(method: string, params: unknown): Promise<R> {
    const response = await this.request(method, params);
    if (response.error !== undefined)
      throw new RpcError(response.error.code, response.error.message, response.error.data);
    return response.result as R;
  }
}

/** A client that calls the hook's handlers in-process; see TestClient. */
export function testHook(hook: Hook, options?: TestOptions): TestClient {
  return new TestClient(hook, options);
}
