// A result cache: the result of a tool call is kept after it runs, and a
// later call to the same tool with the same arguments, in the same session,
// is answered from the cache with respond: the tool does not run again.
// Only the tools CACHE_TOOLS lists (comma-separated; read_file by default)
// are cached: a tool with side effects must run every time.

import { Hook, pass, type JsonValue, type Meta, type ToolResult } from "hookwire";

/** The cache key of a call: its session, its tool, and its arguments with their keys sorted. */
export function key(meta: Meta | undefined, tool: string, args: { [name: string]: JsonValue } | undefined): string {
  return JSON.stringify([meta?.SessionKey ?? "", tool, sorted(args ?? {})]);
}

function sorted(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted(v[k])]),
  );
}

export function resultCache(tools: string[]): Hook {
  const cacheable = new Set(tools);
  const cache = new Map<string, ToolResult>();
  return new Hook("result-cache")
    .beforeTool((call) => {
      const hit = cacheable.has(call.tool) ? cache.get(key(call.meta, call.tool, call.arguments)) : undefined;
      return hit === undefined ? pass() : { action: "respond", reason: "answered from the cache", result: hit };
    })
    .afterTool((ran) => {
      // A failure is not cached: the next call may succeed. Nor is a call
      // the host sent without a result.
      if (cacheable.has(ran.tool) && ran.result !== undefined && !ran.result.is_error) {
        cache.set(key(ran.meta, ran.tool, ran.arguments), ran.result);
      }
      return pass();
    });
}
