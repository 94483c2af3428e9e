package main

import (
	"fmt"
	"strconv"
	"strings"
)

// tsHelpers reach members and the last user message, read an input field
// of each type from its member, absent or not, and map an outcome to a
// result.
const tsHelpers = `
/** A call's params or a runtime event, member by member. */
export type Params = { [key: string]: unknown };

/** What the rows need of the runner. */
export interface Runner {
  has(event: HookEvent): boolean;
  firstOfTurn(sessionId: string, turn: unknown, messages: unknown): boolean;
  chain(event: HookEvent, ctx: Context, read: () => object, used: string, apply?: (value: unknown) => void): Promise<HookSkip | HookAbort | undefined>;
  coerce(type: string, field: string, what: string, value: unknown, current: unknown): unknown;
}

export const isObject = (v: unknown): v is Params => typeof v === "object" && v !== null && !Array.isArray(v);

const get = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, name) => (isObject(v) ? v[name] : undefined), value);

/** The index of the request's last user message, -1 when it has none. */
function lastUser(params: Params): number {
  const messages = (params["messages"] ?? []) as Params[]; // a host leaves an empty history out
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!["role"] !== "user") at--;
  return at;
}

const lastUserMessage = (params: Params): unknown => (params["messages"] as Params[] | undefined)?.[lastUser(params)]?.["content"];

function setLastUserMessage(params: Params, value: unknown): void {
  const at = lastUser(params);
  if (at < 0) throw new Error("the request has no user message to replace");
  const messages = [...(params["messages"] as Params[])];
  messages[at] = { ...messages[at], content: value };
  params["messages"] = messages;
}

/** How an input field of each type is read from its member, absent or not. */
export const read = {
  string: (v: unknown): string => (typeof v === "string" ? v : ""),
  arguments: (v: unknown): ToolInput => (isObject(v) ? (v as ToolInput) : {}),
  tool_result: (v: unknown): ToolResult => (isObject(v) ? (v as unknown as ToolResult) : { for_llm: "" }),
  tool_error: (v: unknown): Error => new Error(isObject(v) ? String(v["for_llm"]) : ""),
  tool_kind: (v: unknown): ToolKind | undefined => v as ToolKind | undefined,
  paths: (v: unknown): string[] => (Array.isArray(v) ? v : []),
  json: (v: unknown): JsonValue => (v ?? null) as JsonValue,
};

/** An input, without the fields the call does not have. */
const input = <T extends object>(fields: T): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

/** The result an outcome maps to, with the callback's reason or the default. */
function answer(action: string, stop: HookSkip | HookAbort, fallback: string): unknown {
  const reason = stop.reason ?? (fallback === "" ? undefined : fallback);
  if (action === "refuse") return { approved: false, reason };
  return reason === undefined ? { action } : { action, reason };
}
`

// tsMember is the TypeScript expression of the member of x at a dotted path.
func tsMember(x, path string) string {
	if path == "last_user_message" {
		return "lastUserMessage(" + x + ")"
	}
	return "get(" + x + ", " + quoteAll(strings.Split(path, "."), ", ") + ")"
}

// tsRead is the TypeScript function that reads an event's input from x.
func (t *lifecycleTable) tsRead(e lifecycleEvent, x string) string {
	fields := []string{"event: " + strconv.Quote(e.Name), "sessionId"}
	for _, in := range e.Input {
		fields = append(fields, fmt.Sprintf("%s: read.%s(%s)", tsCamel(in.Field), t.fieldType(in.Field), tsMember(x, in.From)))
	}
	return fmt.Sprintf("(): HookInputs[%q] => input({ %s })", e.Name, strings.Join(fields, ", "))
}

// tsTranslation renders, for each request method that events come from, a
// function that runs its rows on a call's params (which the callbacks'
// changes go into) and returns the result an outcome maps to, or
// undefined; and one that runs the rows of a runtime event.
func (t *lifecycleTable) tsTranslation(b *strings.Builder, m *Model) {
	b.WriteString(tsHelpers)
	var methods []string
	for _, meth := range m.Methods {
		var events []string
		var body strings.Builder
		for _, e := range t.Events {
			if e.Method != meth.Name {
				continue
			}
			events = append(events, strconv.Quote(e.Name))
			cond := ""
			switch path, negated := strings.CutPrefix(e.When, "!"); {
			case e.When == "first_of_turn":
				cond = ` && run.firstOfTurn(sessionId, get(params, "meta", "TurnID"), params["messages"])`
			case e.When != "":
				cond = " && " + tsMember("params", path) + map[bool]string{true: " !== true", false: " === true"}[negated]
			}
			fmt.Fprintf(&body, "  if (run.has(%q)%s) {\n", e.Name, cond)
			apply, with := "", `""`
			if e.Modify != nil {
				var from string
				for _, in := range e.Input {
					if in.Field == e.Modify.Field {
						from = in.From
					}
				}
				coerce := fmt.Sprintf("run.coerce(%q, %q, %q, value, %s)", t.fieldType(e.Modify.Field), tsCamel(e.Modify.Field), tsCamel(e.Modify.With), tsMember("params", from))
				set := fmt.Sprintf("params[%q] = %s", from, coerce)
				if from == "last_user_message" {
					set = "setLastUserMessage(params, " + coerce + ")"
				}
				apply, with = ", (value) => {\n      "+set+";\n    }", strconv.Quote(tsCamel(e.Modify.With))
			}
			fmt.Fprintf(&body, "    const stop = await run.chain(%q, ctx, %s, %s%s);\n", e.Name, t.tsRead(e, "params"), with, apply)
			for _, o := range []struct {
				action string
				o      *outcome
			}{{"skip", e.Skip}, {"abort", e.Abort}} {
				if o.o != nil && o.o.Action != "none" {
					reason := strconv.Quote(o.o.Reason)
					if o.o.Reason != "" {
						reason = "`" + placeholder.ReplaceAllString(o.o.Reason, `${String(params["$1"])}`) + "`"
					}
					fmt.Fprintf(&body, "    if (stop?.action === %q) return answer(%q, stop, %s);\n", o.action, o.o.Action, reason)
				}
			}
			body.WriteString("    if (stop !== undefined) return undefined;\n  }\n")
		}
		if len(events) == 0 {
			continue
		}
		fn := tsCamel(methodName(meth.Name))
		fmt.Fprintf(b, "\n/** Runs the rows of %s. */\nasync function %s(run: Runner, ctx: Context, sessionId: string, params: Params): Promise<unknown> {\n%s  return undefined;\n}\n", meth.Name, fn, body.String())
		methods = append(methods, fmt.Sprintf("  %q: { events: [%s], run: %s },\n", meth.Name, strings.Join(events, ", "), fn))
	}
	fmt.Fprintf(b, "\n/** The request methods that events come from: their events, and the function that runs their rows. */\nexport const methods: {\n  [method: string]: { events: readonly HookEvent[]; run: (run: Runner, ctx: Context, sessionId: string, params: Params) => Promise<unknown> };\n} = {\n%s};\n", strings.Join(methods, ""))
	var observed, start, end, endKinds, kinds []string
	for _, e := range t.Events {
		if e.Method != "" {
			continue
		}
		observed = append(observed, strconv.Quote(e.Name))
		switch {
		case e.Session == "start":
			start = append(start, strconv.Quote(e.Name))
		case e.Session == "end":
			end = append(end, strconv.Quote(e.Name))
			if e.EventKind != "" {
				endKinds = append(endKinds, strconv.Quote(e.EventKind))
			}
		default:
			kinds = append(kinds, fmt.Sprintf("  if (event[\"kind\"] === %q && run.has(%q)) await run.chain(%q, ctx, %s, \"\");\n", e.EventKind, e.Name, e.Name, t.tsRead(e, "event")))
		}
	}
	fmt.Fprintf(b, "\n/** The events of runtime events and session steps. */\nexport const observed: readonly HookEvent[] = [%s];\n/** The events of a session's start and end; the runtime event kinds that end a session. */\nexport const sessionStart: readonly HookEvent[] = [%s];\nexport const sessionEnd: readonly HookEvent[] = [%s];\nexport const endKinds: readonly string[] = [%s];\n", strings.Join(observed, ", "), strings.Join(start, ", "), strings.Join(end, ", "), strings.Join(endKinds, ", "))
	fmt.Fprintf(b, "\n/** Runs the rows of a runtime event. */\nexport async function onEvent(run: Runner, ctx: Context, sessionId: string, event: Params): Promise<void> {\n%s}\n", strings.Join(kinds, ""))
}
