// Observe notifications: kind patterns, and the legacy hook.event of older
// hosts seen as a runtime event, so that one observer serves both.

import { type EventScope, type LegacyEvent, LegacyEventKinds, type RuntimeEvent } from "./protocol.gen.js";

/**
 * Compiles a kind pattern: `*` stands for any run of characters (dots
 * included, so `agent.*` is every agent event), `?` for one character,
 * anything else for itself.
 */
export function kindMatcher(pattern: string): (kind: string) => boolean {
  if (!/[*?]/.test(pattern)) return (kind) => kind === pattern;
  if (/^\**$/.test(pattern)) return () => true; // every kind, the common case, without a regular expression
  const source = pattern
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/, "\\$&")))
    .join("");
  const re = new RegExp(`^${source}$`, "s");
  return (kind) => re.test(kind);
}

/**
 * The runtime event a legacy hook.event stands for: its kind mapped through
 * the protocol's table (a kind the table lacks is kept as it is), its Meta as
 * the scope, its Payload as the payload.
 */
export function fromLegacy(event: LegacyEvent): RuntimeEvent {
  const meta = event.Meta ?? {};
  const scope: EventScope = {};
  if (meta.AgentID !== undefined) scope.agent_id = meta.AgentID;
  if (meta.SessionKey !== undefined) scope.session_key = meta.SessionKey;
  if (meta.TurnID !== undefined) scope.turn_id = meta.TurnID;
  const kind = Object.hasOwn(LegacyEventKinds, event.Kind) ? LegacyEventKinds[event.Kind] : undefined;
  return { kind: kind ?? event.Kind, source: {}, scope, payload: event.Payload ?? null };
}
