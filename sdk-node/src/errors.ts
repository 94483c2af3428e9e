// The SDK's errors. They share one base class, so that code around a hook
// can tell what the SDK threw from anything else with one instanceof.
// This module imports nothing: every other module may depend on it.

/** The base class of every error the SDK defines. */
export class HookwireError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "HookwireError";
  }
}

// Marks a HookError whichever copy of the package made it: a project that
// loads both the ES module and the CommonJS build has two HookError
// classes, and instanceof only knows its own.
const HOOK_ERROR = Symbol.for("hookwire.HookError");

/**
 * Thrown by a handler to choose the JSON-RPC error of its reply: the host
 * gets `{"code": code, "message": message, "data": data}` (data left out
 * when undefined). Any other error a handler throws is answered -32000 with
 * its message.
 */
export class HookError extends HookwireError {
  /** The JSON-RPC error code: an integer, such as -32010. */
  readonly code: number;
  /** Details that go with the error: any JSON value, or undefined for none. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    // JSON has no NaN or Infinity, and JSON-RPC wants an integer: better
    // to fail where the error is made than to send a reply the host rejects.
    if (!Number.isSafeInteger(code))
      throw new TypeError(`hookwire: a HookError code is an integer, not ${String(code)}`);
    this.name = "HookError";
    this.code = code;
    this.data = data;
  }
}
Object.defineProperty(HookError.prototype, HOOK_ERROR, { value: true });

/** Whether err is a HookError, from this copy of the package or another. @internal */
export function isHookError(err: unknown): err is HookError {
  return (
    err instanceof HookError ||
    (typeof err === "object" &&
      err !== null &&
      (err as { [HOOK_ERROR]?: unknown })[HOOK_ERROR] === true &&
      typeof (err as HookError).code === "number")
  );
}
