package main

import (
	"fmt"
	"strconv"
	"strings"
)

// tsMember is the TypeScript expression of the member of x at a dotted path.
func tsMember(x, path string) string { return memberCall(x, path, "lastUserMessage") }

// tsRead is the TypeScript function that reads an event's input from x.
func (t *lifecycleTable) tsRead(e lifecycleEvent, x string) string {
	fields := []string{"event: " + strconv.Quote(e.Name), "sessionId"}
	for _, in := range e.Input {
		fields = append(fields, fmt.Sprintf("%s: read.%s(%s)", tsCamel(in.Field), t.fieldType(in.Field), tsMember(x, in.From)))
	}
	return fmt.Sprintf("(): HookInputs[%q] => input({ %s })", e.Name, strings.Join(fields, ", "))
}

// tsCoerce is the TypeScript statement that throws when a callback's
// modified value (value) cannot replace the field it modifies, and the
// expression of what replaces it, whose current value is current.
func (t *lifecycleTable) tsCoerce(e lifecycleEvent, current string) (check, value string) {
	what := tsCamel(e.Modify.With)
	switch t.fieldType(e.Modify.Field) {
	case "string":
		return fmt.Sprintf(`if (typeof value !== "string") throw new Error("%s is not a string, ignored");`, what), "value"
	case "arguments":
		return fmt.Sprintf(`if (!isObject(value)) throw new Error("%s is not an object of arguments, ignored");`, what), "value"
	}
	return fmt.Sprintf(`if (typeof value !== "string" && typeof get(value, "for_llm") !== "string")`+"\n        "+`throw new Error("%s is neither a string nor a ToolResult, ignored");`, what),
		fmt.Sprintf(`typeof value === "string" ? { ...read.tool_result(%s), for_llm: value } : value`, current)
}

// tsTranslation renders, for each request method that events come from, its
// handler: it starts the call's session, runs its rows on a copy of the
// params (which the callbacks' changes go into) and answers what an outcome
// maps to, or the call as the callbacks left it (canUseTool decides an
// approval); and a function that runs the rows of a runtime event.
func (t *lifecycleTable) tsTranslation(b *strings.Builder, m *Model) {
	var methods []string
	for _, r := range t.byMethod(m) {
		meth := r.meth
		var body strings.Builder
		for _, e := range r.events {
			cond := ""
			switch path, negated := strings.CutPrefix(e.When, "!"); {
			case e.When == "first_of_turn":
				cond = ` && run.firstOfTurn(sessionId, get(params, "meta", "TurnID"), params["messages"])`
			case e.When != "":
				cond = " && " + tsMember("params", path) + map[bool]string{true: " !== true", false: " === true"}[negated]
			}
			fmt.Fprintf(&body, "  if (stop === undefined && run.has(%q)%s) {\n", e.Name, cond)
			apply, with := "", `""`
			if e.Modify != nil {
				from := e.modifiedFrom()
				check, value := t.tsCoerce(e, tsMember("params", from))
				set := fmt.Sprintf("params[%q] = %s", from, value)
				if from == "last_user_message" {
					set = "setLastUserMessage(params, " + value + ")"
				}
				apply, with = ", (value) => {\n      "+check+"\n      "+set+";\n    }", strconv.Quote(tsCamel(e.Modify.With))
			}
			fmt.Fprintf(&body, "    stop = await run.chain(%q, ctx, %s, %s%s);\n", e.Name, t.tsRead(e, "params"), with, apply)
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
			body.WriteString("  }\n")
		}
		tail := "isDeepStrictEqual(params, received) ? continue_() : modify(received as never, params)"
		if meth.Result.Kind != Union {
			tail = "run.approve(params, ctx)"
		}
		fn := tsCamel(methodName(meth.Name))
		fmt.Fprintf(b, "\n/** Runs the rows of %s on a call, and answers what their outcomes map to. */\nasync function %s(run: Runner, received: Params, ctx: Context): Promise<unknown> {\n"+
			"  const key = %s;\n  const sessionId = typeof key === \"string\" ? key : \"\";\n  await run.start(sessionId, ctx);\n"+
			"  const params = { ...received }; // the callbacks' changes replace its members\n  let stop: Stop | undefined;\n%s  return %s;\n}\n", meth.Name, fn, tsMember("received", t.SessionKey.Call), body.String(), tail)
		methods = append(methods, fmt.Sprintf("  %q: { events: [%s], handle: %s },\n", meth.Name, strings.Join(eventNames(r.events, strconv.Quote), ", "), fn))
	}
	fmt.Fprintf(b, "\n/** The request methods that events come from: their events, and their handler. */\nexport const methods: {\n  [method: string]: { events: readonly HookEvent[]; handle: (run: Runner, params: Params, ctx: Context) => Promise<unknown> };\n} = {\n%s};\n", strings.Join(methods, ""))
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
	fmt.Fprintf(b, "\n/** The events of runtime events and session steps. */\nexport const observed: readonly HookEvent[] = [%s];\n/** The events of a session's start and end; the runtime event kinds that end a session. */\nexport const sessionStart: readonly HookEvent[] = [%s];\nexport const sessionEnd: readonly HookEvent[] = [%s];\nconst endKinds: readonly string[] = [%s];\n", strings.Join(observed, ", "), strings.Join(start, ", "), strings.Join(end, ", "), strings.Join(endKinds, ", "))
	fmt.Fprintf(b, "\n/** Runs a runtime event in its session: ends the session, or starts it and runs the event's rows. */\n"+
		"export async function onEvent(run: Runner, ctx: Context, event: Params): Promise<void> {\n  const sessionId = %s;\n"+
		"  if (typeof sessionId !== \"string\" || sessionId === \"\") return; // in no session\n"+
		"  if (endKinds.includes(event[\"kind\"] as string)) return run.end(sessionId, ctx);\n  await run.start(sessionId, ctx);\n%s}\n",
		firstOf("event", t.SessionKey.Event, tsMember, "||"), strings.Join(kinds, ""))
}
