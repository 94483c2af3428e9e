package main

import (
	"fmt"
	"strconv"
	"strings"
)

// pyMember is the Python expression of the member of x at a dotted path.
func pyMember(x, path string) string { return memberCall(x, path, "last_user_message") }

// pyRead is the Python expression of an event's input, read from x.
func (t *lifecycleTable) pyRead(e lifecycleEvent, x string) string {
	args := []string{"key"}
	for _, in := range e.Input {
		args = append(args, fmt.Sprintf("%s=READ[%q](%s)", in.Field, t.fieldType(in.Field), pyMember(x, in.From)))
	}
	return e.Name + "Input(" + strings.Join(args, ", ") + ")"
}

// pyCoerce is the Python expression of a callback's modified value (value)
// as what it replaces, whose current value is current.
func (t *lifecycleTable) pyCoerce(e lifecycleEvent, current string) string {
	switch t.fieldType(e.Modify.Field) {
	case "string":
		return fmt.Sprintf("as_json(value, str, %q, \"the %s's new text (a str)\")", e.Modify.With, strings.ReplaceAll(e.Modify.Field, "_", " "))
	case "arguments":
		return fmt.Sprintf("as_json(value, dict, %q, ARGUMENTS)", e.Modify.With)
	}
	return fmt.Sprintf("as_result(value, READ[\"tool_result\"](%s), %q)", current, e.Modify.With)
}

// pyReason is the Python expression of an outcome's default reason, its
// {member}s read from params.
func pyReason(o *outcome) string {
	if o.Reason == "" {
		return `""`
	}
	return "f" + strconv.Quote(placeholder.ReplaceAllString(o.Reason, `{get(params, '$1')}`))
}

// pyTranslation renders, for each request method that events come from, its
// handler: it starts the call's session, runs its rows on a copy of the
// params (which the callbacks' changes go into) and answers what an outcome
// maps to, or the call as the callbacks left it (can_use_tool decides an
// approval); and a function that runs the rows of a runtime event. run is
// the runner.
func (t *lifecycleTable) pyTranslation(b *strings.Builder, m *Model) {
	var methods []string
	for _, r := range t.byMethod(m) {
		meth := r.meth
		var body strings.Builder
		for _, e := range r.events {
			cond := ""
			switch path, negated := strings.CutPrefix(e.When, "!"); {
			case e.When == "first_of_turn":
				cond = ` and run.first_of_turn(key, get(params, "meta", "TurnID"), params.get("messages"))`
			case e.When != "":
				cond = " and (" + pyMember("params", path) + " is " + map[bool]string{true: "not True)", false: "True)"}[negated]
			}
			name := snake(e.Name)
			fmt.Fprintf(&body, "    if stop is None and run.has(%q)%s:\n\n        def read_%s() -> %sInput:\n            return %s\n\n", e.Name, cond, name, e.Name, t.pyRead(e, "params"))
			apply, with := "None", `""`
			if e.Modify != nil {
				from := e.modifiedFrom()
				coerce := t.pyCoerce(e, pyMember("params", from))
				set := fmt.Sprintf("params[%q] = %s", from, coerce)
				if from == "last_user_message" {
					set = "set_last_user_message(params, " + coerce + ")"
				}
				fmt.Fprintf(&body, "        def apply_%s(value: object) -> None:\n            %s\n\n", name, set)
				apply, with = "apply_"+name, quote(e.Modify.With)
			}
			fmt.Fprintf(&body, "        stop = await run.chain(%q, read_%s, %s, %s)\n", e.Name, name, with, apply)
			for _, o := range []struct {
				action string
				o      *outcome
			}{{"skip", e.Skip}, {"abort", e.Abort}} {
				if o.o != nil && o.o.Action != "none" {
					fmt.Fprintf(&body, "        if stop is not None and stop[\"action\"] == %q:\n            return answer(%q, stop, %s)\n", o.action, o.o.Action, pyReason(o.o))
				}
			}
		}
		tail := "None if params == received else modify(params)"
		if meth.Result.Kind != Union {
			tail = "await run.approve(params)"
		}
		fn := "_" + snake(methodName(meth.Name))
		fmt.Fprintf(b, "\n\nasync def %s(run: Any, received: dict[str, Any]) -> Any:\n    \"\"\"Run the rows of %s on a call; answer what their outcomes map to.\"\"\"\n"+
			"    key = %s or \"\"\n    await run.start(key)\n"+
			"    params = dict(received)  # the callbacks' changes replace its members\n    stop: Any = None\n%s    return %s\n", fn, meth.Name, pyMember("received", t.SessionKey.Call), body.String(), tail)
		methods = append(methods, fmt.Sprintf("%q: ((%s,), %s)", meth.Name, strings.Join(eventNames(r.events, quote), ", "), fn))
	}
	fmt.Fprintf(b, "\n\n# The request methods that events come from: their events, and their handler.\nMETHODS: Final = {\n%s}\n", pyLines(methods))
	var observed, start, end, endKinds, kinds []string
	for _, e := range t.Events {
		if e.Method != "" {
			continue
		}
		observed = append(observed, quote(e.Name))
		step := fmt.Sprintf("(%q, %sInput)", e.Name, e.Name)
		switch {
		case e.Session == "start":
			start = append(start, step)
		case e.Session == "end":
			end = append(end, step)
			if e.EventKind != "" {
				endKinds = append(endKinds, quote(e.EventKind))
			}
		default:
			kinds = append(kinds, fmt.Sprintf("    if kind == %q and run.has(%q):\n        await run.chain(%q, lambda: %s, \"\", None)\n", e.EventKind, e.Name, e.Name, t.pyRead(e, "event")))
		}
	}
	fmt.Fprintf(b, "\n# The events of runtime events and session steps; the events of a session's\n# start and end, with their inputs; the runtime event kinds that end a session.\nOBSERVED: Final = %s\nSTART: Final = %s\nEND: Final = %s\nEND_KINDS: Final = %s\n", pyTupleOf(observed), pyTupleOf(start), pyTupleOf(end), pyTupleOf(endKinds))
	fmt.Fprintf(b, "\n\nasync def on_event(run: Any, event: dict[str, Any]) -> None:\n    \"\"\"Run a runtime event in its session: end the session, or start it and run\n    the event's rows.\"\"\"\n"+
		"    key = %s\n    if not key or not isinstance(key, str):\n        return  # in no session\n"+
		"    kind = event.get(\"kind\")\n    if kind in END_KINDS:\n        await run.end(key)\n        return\n    await run.start(key)\n%s",
		firstOf("event", t.SessionKey.Event, pyMember, "or"), strings.Join(kinds, ""))
}

// pyTupleOf is a Python tuple of items.
func pyTupleOf(items []string) string {
	if len(items) == 1 {
		return "(" + items[0] + ",)"
	}
	return "(" + strings.Join(items, ", ") + ")"
}
