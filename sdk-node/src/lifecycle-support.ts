// What the generated rows (lifecycle.gen.ts) read a call with: its members
// and the last user message; and the result an outcome maps to.

import type { Context } from "./handlers.js";

/** A call's params or a runtime event, member by member. */
export type Params = { [key: string]: unknown };

/** What a callback that stops the others answered. */
export interface Stop {
  action: string;
  reason?: string | undefined;
}

/** What the rows need of the runner. */
export interface Runner {
  has(event: string): boolean;
  start(sessionId: string, ctx: Context): Promise<void>;
  end(sessionId: string, ctx: Context): Promise<void>;
  approve(params: Params, ctx: Context): Promise<unknown>;
  firstOfTurn(sessionId: string, turn: unknown, messages: unknown): boolean;
  chain(
    event: string,
    ctx: Context,
    read: () => object,
    used: string,
    apply?: (value: unknown) => void,
  ): Promise<Stop | undefined>;
}

export const isObject = (v: unknown): v is Params => typeof v === "object" && v !== null && !Array.isArray(v);

export const get = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, name) => (isObject(v) ? v[name] : undefined), value);

/** The index of the request's last user message, -1 when it has none. */
function lastUser(params: Params): number {
  const messages = (params["messages"] ?? []) as Params[]; // a host leaves an empty history out
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!["role"] !== "user") at--;
  return at;
}

export const lastUserMessage = (params: Params): unknown =>
  (params["messages"] as Params[] | undefined)?.[lastUser(params)]?.["content"];

export function setLastUserMessage(params: Params, value: unknown): void {
  const at = lastUser(params);
  if (at < 0) throw new Error("the request has no user message to replace");
  const messages = [...(params["messages"] as Params[])];
  messages[at] = { ...messages[at], content: value };
  params["messages"] = messages;
}

/** An input, without the fields the call does not have. */
export const input = <T extends object>(fields: T): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

/** The result an outcome maps to, with the callback's reason or the default. */
export function answer(action: string, stop: Stop, fallback: string): unknown {
  const reason = stop.reason ?? (fallback === "" ? undefined : fallback);
  if (action === "refuse") return { approved: false, reason };
  return reason === undefined ? { action } : { action, reason };
}
