// The hook a program writes and runs: a registry of handlers, served on
// stdin and stdout by run().

import { Registry } from "./registry.js";
import { run } from "./run.js";

/**
 * A hook: the handlers, observers and plugin tools it registers, and the
 * loop that serves them on stdin and stdout (`run`). Its registration method
 * of each request (beforeLLM and the others) comes from HookMethods.
 */
export class Hook extends Registry {
  /**
   * Serves the hook on stdin and stdout until stdin closes, then exits 0
   * once the calls in flight are answered and the onClose functions are
   * done. SIGTERM and SIGINT abort `ctx.signal`, run the onClose functions
   * and exit 0 without waiting for the calls in flight. While it runs,
   * whatever else is written to stdout goes to stderr.
   */
  run(): void {
    run(this);
  }
}
