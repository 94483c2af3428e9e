package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// goMember is the Go expression of the member of a value of type typ (the
// expression x) at a dotted path, read through its pointers with deref, and
// its Go type.
func goMember(typ *Type, x, path string) (expr, goTyp string, err error) {
	expr = x
	for i, name := range strings.Split(path, ".") {
		if typ == nil {
			return "", "", fmt.Errorf("%s: %s is not an object", path, strings.Join(strings.Split(path, ".")[:i], "."))
		}
		j := slices.IndexFunc(typ.Fields, func(f *Field) bool { return f.Name == name })
		if j < 0 {
			return "", "", fmt.Errorf("%s: %s has no member %s", path, typ.Name, name)
		}
		f := typ.Fields[j]
		goName, err := goFieldName(f)
		if err != nil {
			return "", "", err
		}
		if goTyp, err = goFieldType(f); err != nil {
			return "", "", err
		}
		expr += "." + goName
		if strings.HasPrefix(goTyp, "*") {
			expr, goTyp = "deref("+expr+")", goTyp[1:]
		}
		typ = nil
		if f.Type.Kind == Named {
			typ = f.Type.Type
		}
	}
	return expr, goTyp, nil
}

// goInput is the Go expression of an input field read from the params p
// (or the event ev) of type typ.
func (t *lifecycleTable) goInput(typ *Type, x string, in lifecycleInput) (string, error) {
	want := fieldTypes[t.fieldType(in.Field)].goType
	if in.From == "last_user_message" {
		if _, _, err := goMember(typ, x, "messages"); err != nil {
			return "", err
		}
		return "lastUserMessage(" + x + ".Messages)", nil
	}
	expr, got, err := goMember(typ, x, in.From)
	if err != nil {
		return "", err
	}
	switch {
	case t.fieldType(in.Field) == "arguments" && got == want:
		return "arguments(" + expr + ")", nil
	case t.fieldType(in.Field) == "tool_error" && got == "ToolResult":
		return "errors.New(" + expr + ".ForLLM)", nil
	case strings.TrimPrefix(want, "hookwire.") == got || want == got:
		return expr, nil
	}
	return "", fmt.Errorf("%s is a %s, not the %s of field %s", in.From, got, want, in.Field)
}

// goModify is the Go statement that takes x, a callback's modified value
// coerced to the field's type, into p: a member of the params themselves or
// the last user message.
func (t *lifecycleTable) goModify(typ *Type, e lifecycleEvent) (coerce, assign string, err error) {
	from := e.modifiedFrom()
	switch t.fieldType(e.Modify.Field) {
	case "string":
		coerce = fmt.Sprintf("as[string](v, %q, \"the %s's new text (a string)\")", pascal(e.Modify.With), strings.ReplaceAll(e.Modify.Field, "_", " "))
	case "arguments":
		coerce = fmt.Sprintf("as[map[string]any](v, %q, \"the tool's arguments (a JSON object)\")", pascal(e.Modify.With))
	case "tool_result", "tool_error":
		current, _, err := goMember(typ, "p", from)
		if err != nil {
			return "", "", err
		}
		coerce = "asResult(v, " + current + ")"
	default:
		return "", "", fmt.Errorf("a %s field cannot be modified", t.fieldType(e.Modify.Field))
	}
	if from == "last_user_message" {
		return coerce, "p.Messages, err = setLastUserMessage(p.Messages, x)", nil
	}
	if strings.Contains(from, ".") {
		return "", "", fmt.Errorf("modify of %s: only a member of the params themselves can be replaced", from)
	}
	_, goTyp, err := goMember(typ, "p", from)
	if err != nil {
		return "", "", err
	}
	i := slices.IndexFunc(typ.Fields, func(f *Field) bool { return f.Name == from })
	name, _ := goFieldName(typ.Fields[i])
	if ptr, _ := goFieldType(typ.Fields[i]); strings.HasPrefix(ptr, "*") && ptr[1:] == goTyp {
		return coerce, "p." + name + " = &x", nil
	}
	return coerce, "p." + name + " = x", nil
}

// goEventKey are the Go statements that set key to the first of the members
// of a runtime event ev at paths that is not empty: a string member, or a
// string in a member that is raw JSON (the payload).
func goEventKey(event *Type, paths []string) (string, error) {
	var b strings.Builder
	for i, path := range paths {
		set := ":="
		if i > 0 {
			set = "="
			b.WriteString("\tif key == \"\" {\n")
		}
		expr, typ, err := goMember(event, "ev", path)
		raw, member, _ := strings.Cut(path, ".")
		rawExpr, rawTyp, _ := goMember(event, "ev", raw)
		switch {
		case err == nil && typ == "string":
			fmt.Fprintf(&b, "\tkey %s %s\n", set, expr)
		case rawTyp == "json.RawMessage" && member != "" && !strings.Contains(member, "."):
			// A map: its keys match exactly, as in Python and TypeScript.
			fmt.Fprintf(&b, "\tvar %s map[string]any\n\t_ = json.Unmarshal(%s, &%s)\n\tkey, _ %s %s[%q].(string)\n", raw, rawExpr, raw, set, raw, member)
		default:
			return "", fmt.Errorf("session_key: %s is no string member of a runtime event", path)
		}
		if i > 0 {
			b.WriteString("\t}\n")
		}
	}
	return b.String(), nil
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// goReason is the Go expression of an outcome's reason: the callback's, or
// the row's default with its {member}s read from p.
func goReason(typ *Type, o *outcome) (string, error) {
	if o.Reason == "" {
		return "stop.Reason", nil
	}
	var parts []string
	rest := o.Reason
	for rest != "" {
		loc := placeholder.FindStringSubmatchIndex(rest)
		if loc == nil {
			parts = append(parts, strconv.Quote(rest))
			break
		}
		if loc[0] > 0 {
			parts = append(parts, strconv.Quote(rest[:loc[0]]))
		}
		expr, goTyp, err := goMember(typ, "p", rest[loc[2]:loc[3]])
		if err != nil || goTyp != "string" {
			return "", fmt.Errorf("reason %q: {%s} is no string member", o.Reason, rest[loc[2]:loc[3]])
		}
		parts = append(parts, expr)
		rest = rest[loc[1]:]
	}
	return "cmp.Or(stop.Reason, " + strings.Join(parts, "+") + ")", nil
}

// goOutcome is the Go result of meth that an outcome maps to.
func goOutcome(meth *Method, o *outcome) (string, error) {
	reason, err := goReason(meth.Params, o)
	if err != nil {
		return "", err
	}
	if o.Action == "refuse" {
		return "deny(" + reason + ")", nil
	}
	i := slices.IndexFunc(meth.Result.Variants, func(v *Variant) bool { return slices.Contains(v.Tags, o.Action) })
	v := meth.Result.Variants[i].Type
	j := slices.IndexFunc(v.Fields, func(f *Field) bool { return f.Name == "reason" })
	if j < 0 {
		return fmt.Sprintf("hookwire.%s{Action: %q}", v.Name, o.Action), nil
	}
	if typ, _ := goFieldType(v.Fields[j]); strings.HasPrefix(typ, "*") {
		reason = "nonEmpty(" + reason + ")"
	}
	return fmt.Sprintf("hookwire.%s{Action: %q, Reason: %s}", v.Name, o.Action, reason), nil
}

// goMethod is the handler of a request method: it reads the input of each
// of its rows from the typed params, checks the row's condition, runs the
// callbacks, takes their change into the params and answers what the
// outcome maps to.
func (t *lifecycleTable) goMethod(b *strings.Builder, meth *Method, events []lifecycleEvent) error {
	fn := "on" + pascal(methodName(meth.Name))
	fmt.Fprintf(b, "// %s runs the rows of %s.\nfunc (l *layer) %s(ctx context.Context, p hookwire.%s) (hookwire.%s, error) {\n", fn, meth.Name, fn, meth.Params.Name, meth.Result.Name)
	start := "l.start(ctx, key)"
	if slices.ContainsFunc(events, func(e lifecycleEvent) bool { return e.When == "first_of_turn" }) {
		start = "s := " + start // the session keeps its turns
	}
	key, typ, err := goMember(meth.Params, "p", t.SessionKey.Call)
	if err != nil || typ != "string" {
		return fmt.Errorf("session_key: %s is no string member of %s", t.SessionKey.Call, meth.Params.Name)
	}
	fmt.Fprintf(b, "\tkey := %s\n\t%s\n\tvar stop *Output\n", key, start)
	modifies := slices.Contains(meth.Actions, "modify")
	if modifies {
		b.WriteString("\treceived := p // the callbacks' changes replace members of p, never change them\n")
	}
	for _, e := range events {
		cond := ""
		switch path, negated := strings.CutPrefix(e.When, "!"); {
		case e.When == "first_of_turn":
			if _, _, err := goMember(meth.Params, "p", "messages"); err != nil {
				return fmt.Errorf("event %s: first_of_turn: %w", e.Name, err)
			}
			cond = " && l.firstOfTurn(s, deref(deref(p.Meta).TurnID), p.Messages)"
		case e.When != "":
			expr, typ, err := goMember(meth.Params, "p", path)
			if err != nil || typ != "bool" {
				return fmt.Errorf("event %s: when %s is no boolean member", e.Name, e.When)
			}
			cond = " && " + map[bool]string{true: "!", false: ""}[negated] + expr
		}
		fields := []string{"Event: " + e.Name, "SessionID: key"}
		for _, in := range e.Input {
			expr, err := t.goInput(meth.Params, "p", in)
			if err != nil {
				return fmt.Errorf("event %s: %w", e.Name, err)
			}
			fields = append(fields, pascal(in.Field)+": "+expr)
		}
		fmt.Fprintf(b, "\tif stop == nil && l.has(%s)%s {\n", e.Name, cond)
		fmt.Fprintf(b, "\t\tread := func() Input { return Input{%s} }\n", strings.Join(fields, ", "))
		if e.Modify != nil {
			coerce, assign, err := t.goModify(meth.Params, e)
			if err != nil {
				return fmt.Errorf("event %s: %w", e.Name, err)
			}
			fmt.Fprintf(b, "\t\tstop = l.chain(ctx, %s, read(), %q, func(v any) (Input, error) {\n\t\t\tx, err := %s\n\t\t\tif err == nil {\n\t\t\t\t%s\n\t\t\t}\n\t\t\treturn read(), err\n\t\t})\n", e.Name, pascal(e.Modify.With), coerce, assign)
		} else {
			fmt.Fprintf(b, "\t\tstop = l.chain(ctx, %s, read(), \"\", nil)\n", e.Name)
		}
		var cases []string
		for _, o := range []struct {
			action string
			o      *outcome
		}{{"Skip", e.Skip}, {"Abort", e.Abort}} {
			if o.o == nil || o.o.Action == "none" {
				continue
			}
			result, err := goOutcome(meth, o.o)
			if err != nil {
				return fmt.Errorf("event %s: %w", e.Name, err)
			}
			cases = append(cases, fmt.Sprintf("\t\tcase %s:\n\t\t\treturn %s, nil\n", o.action, result))
		}
		if len(cases) > 0 {
			fmt.Fprintf(b, "\t\tswitch deref(stop).Action {\n%s\t\t}\n", strings.Join(cases, ""))
		}
		b.WriteString("\t}\n")
	}
	switch {
	case meth.Result.Kind != Union:
		b.WriteString("\treturn l.approve(ctx, p), nil\n")
	case modifies:
		b.WriteString("\tif !reflect.DeepEqual(p, received) {\n\t\treturn p.Modify(), nil\n\t}\n\treturn hookwire.Continue{Action: hookwire.Ptr(\"continue\")}, nil\n")
	default:
		b.WriteString("\treturn hookwire.Continue{Action: hookwire.Ptr(\"continue\")}, nil\n")
	}
	b.WriteString("}\n\n")
	return nil
}

func (t *lifecycleTable) goCode(m *Model, header string) (string, error) {
	var b strings.Builder
	t.goVocabulary(&b)
	b.WriteString("// Event is one of the lifecycle events.\ntype Event string\n\n// The events, and the protocol calls and events they come from.\nconst (\n")
	var names []string
	for _, e := range t.Events {
		fmt.Fprintf(&b, "\t// %s: %s.\n\t%s Event = %q\n", e.Name, e.Doc, e.Name, e.Name)
		names = append(names, e.Name)
	}
	fmt.Fprintf(&b, ")\n\n// Events are the events, in the order a session meets them.\nvar Events = []Event{%s}\n\n", strings.Join(names, ", "))
	b.WriteString("// Input is what a callback receives. Event and SessionID are always set (the\n// session is the host's session key, \"\" when it sends none); the other\n// fields are those of the event, zero otherwise.\ntype Input struct {\n\tEvent     Event\n\tSessionID string\n")
	for _, f := range t.fieldOrder() {
		fmt.Fprintf(&b, "\t// %s is %s (%s).\n\t%s %s\n", pascal(f), lowerFirst(strings.TrimSuffix(t.Fields[f].Doc, ".")), strings.Join(t.eventsWith(f), ", "), pascal(f), fieldTypes[t.fieldType(f)].goType)
	}
	b.WriteString("}\n\n")

	methods := t.byMethod(m)
	b.WriteString("// methods are the request methods that events come from, with their events\n// and how the runner registers its handler of each.\nvar methods = []struct {\n\tname     string\n\tevents   []Event\n\tregister func(l *layer)\n}{\n")
	for _, r := range methods {
		name := pascal(methodName(r.meth.Name))
		fmt.Fprintf(&b, "\t{%q, []Event{%s}, func(l *layer) { l.h.On%s(l.on%s) }},\n", r.meth.Name, strings.Join(eventNames(r.events, func(n string) string { return n }), ", "), name, name)
	}
	b.WriteString("}\n\n")
	var observed, starts, ends, endKinds []string
	for _, e := range t.Events {
		if e.Method == "" {
			observed = append(observed, e.Name)
		}
		switch e.Session {
		case "start":
			starts = append(starts, e.Name)
		case "end":
			ends = append(ends, e.Name)
			if e.EventKind != "" {
				endKinds = append(endKinds, strconv.Quote(e.EventKind))
			}
		}
	}
	fmt.Fprintf(&b, "// observed are the events of runtime events and session steps.\nvar observed = []Event{%s}\n\n", strings.Join(observed, ", "))
	fmt.Fprintf(&b, "// startEvents and endEvents are those of a session's start and end;\n// endKinds the runtime event kinds that end a session.\nvar (\n\tstartEvents = []Event{%s}\n\tendEvents   = []Event{%s}\n\tendKinds    = []string{%s}\n)\n\n", strings.Join(starts, ", "), strings.Join(ends, ", "), strings.Join(endKinds, ", "))
	for _, r := range methods {
		if err := t.goMethod(&b, r.meth, r.events); err != nil {
			return "", err
		}
	}
	event := m.Type("RuntimeEvent")
	key, err := goEventKey(event, t.SessionKey.Event)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "// observe runs a runtime event in its session: it ends the session, or\n// starts it and runs the event's rows.\nfunc (l *layer) observe(ctx context.Context, ev hookwire.RuntimeEvent) {\n%s"+
		"\tif key == \"\" {\n\t\treturn // in no session\n\t}\n\tif slices.Contains(endKinds, ev.Kind) {\n\t\tl.end(ctx, key)\n\t\treturn\n\t}\n\tl.start(ctx, key)\n\tswitch ev.Kind {\n", key)
	kinds := map[string][]lifecycleEvent{}
	var order []string
	for _, e := range t.Events {
		if e.EventKind != "" && e.Session == "" {
			if kinds[e.EventKind] == nil {
				order = append(order, e.EventKind)
			}
			kinds[e.EventKind] = append(kinds[e.EventKind], e)
		}
	}
	for _, kind := range order {
		fmt.Fprintf(&b, "\tcase %q:\n", kind)
		for _, e := range kinds[kind] {
			fields := []string{"Event: " + e.Name, "SessionID: key"}
			for _, in := range e.Input {
				expr, err := t.goInput(event, "ev", in)
				if err != nil {
					return "", fmt.Errorf("event %s: %w", e.Name, err)
				}
				fields = append(fields, pascal(in.Field)+": "+expr)
			}
			fmt.Fprintf(&b, "\t\tif l.has(%s) {\n\t\t\tl.chain(ctx, %s, Input{%s}, \"\", nil)\n\t\t}\n", e.Name, e.Name, strings.Join(fields, ", "))
		}
	}
	b.WriteString("\t}\n}\n")
	body := b.String()
	var imports []string
	for _, pkg := range []string{"cmp", "context", "encoding/json", "errors", "reflect", "slices"} {
		if strings.Contains(body, pkg[strings.LastIndex(pkg, "/")+1:]+".") {
			imports = append(imports, strconv.Quote(pkg))
		}
	}
	return fmt.Sprintf("// %s\n\n%spackage lifecycle\n\nimport (\n\t%s\n\n\thookwire \"github.com/hookwire/hookwire/sdk-go\"\n)\n\n%s", header, t.goPackageDoc(), strings.Join(imports, "\n\t"), body), nil
}
