package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/format"
	"slices"
	"strings"
	"text/template"
)

// lifecycleFile is the lifecycle table, relative to the repository root.
const lifecycleFile = "schema/lifecycle.json"

// lifecycleTable is schema/lifecycle.json: data only. What its members mean
// is written in the runners' doc comments (sdk-go/lifecycle/rows.go and its
// Python and TypeScript twins), which interpret the rows generated from it.
type lifecycleTable struct {
	SessionKey struct {
		Call  string   `json:"call"`
		Event []string `json:"event"`
	} `json:"session_key"`
	Fields map[string]struct {
		Type string `json:"type"`
		Doc  string `json:"doc"`
	} `json:"fields"`
	Events []lifecycleEvent `json:"events"`
}

type lifecycleEvent struct {
	Name      string           `json:"name"`
	Doc       string           `json:"doc"`
	Method    string           `json:"method"`
	When      string           `json:"when"`
	Unless    string           `json:"unless"`
	EventKind string           `json:"event_kind"`
	Session   string           `json:"session"`
	Input     []lifecycleInput `json:"input"`
	Modify    *struct {
		With  string `json:"with"`
		Field string `json:"field"`
	} `json:"modify"`
	Skip  *outcome `json:"skip"`
	Abort *outcome `json:"abort"`

	// Set by loadLifecycle, for the templates: the member the modified
	// field is read from, and the type of that field.
	ModifyFrom, ModifyType string
}

// lifecycleInput is an input field, the member it is read from and, set by
// loadLifecycle, the field's type.
type lifecycleInput struct {
	Field string `json:"field"`
	From  string `json:"from"`
	Type  string `json:"-"`
}

type outcome struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

// fieldTypes are the types an input field may have, in Go, Python and
// TypeScript; each runner reads a member as each of them.
var fieldTypes = map[string]struct{ goType, py, ts string }{
	"string":      {"string", "str", "string"},
	"arguments":   {"map[string]any", "ToolInput", "ToolInput"},
	"tool_result": {"hookwire.ToolResult", "ToolResult", "ToolResult"},
	"tool_error":  {"error", "ToolError", "Error"},
	"tool_kind":   {"hookwire.ToolKind", "ToolKind | None", "ToolKind | undefined"},
	"paths":       {"[]string", "list[str]", "string[]"},
	"json":        {"json.RawMessage", "JSON", "JsonValue"},
}

// The names each runner knows: the predicates of when and unless, the
// actions of an outcome, the session steps, and the sources that are not
// a member.
var (
	predicates     = []string{"first_of_turn", "is_error"}
	outcomeActions = []string{"none", "deny_tool", "abort_turn", "refuse"}
	sessionSteps   = []string{"start", "end"}
	lastUser       = "last_user_message"
)

// loadLifecycle reads and checks the table against the method table.
func loadLifecycle(m *Model, raw []byte) (*lifecycleTable, error) {
	var t lifecycleTable
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", lifecycleFile, err)
	}
	if t.SessionKey.Call == "" || len(t.SessionKey.Event) == 0 || slices.Contains(t.SessionKey.Event, "") {
		return nil, fmt.Errorf("%s: session_key needs the member path of a call's, and of a runtime event's", lifecycleFile)
	}
	for _, path := range t.SessionKey.Event {
		if !hasMember(m.Type("RuntimeEvent"), path) {
			return nil, fmt.Errorf("%s: session_key: a runtime event has no member %s", lifecycleFile, path)
		}
	}
	for name, f := range t.Fields {
		if _, ok := fieldTypes[f.Type]; !ok {
			return nil, fmt.Errorf("%s: field %s has type %q, none of the known ones", lifecycleFile, name, f.Type)
		}
	}
	for i := range t.Events {
		e := &t.Events[i]
		if err := t.check(m, e, t.Events[:i]); err != nil {
			return nil, fmt.Errorf("%s: event %s: %w", lifecycleFile, e.Name, err)
		}
	}
	return &t, nil
}

// check checks an event's row, and sets what the templates read of it.
func (t *lifecycleTable) check(m *Model, e *lifecycleEvent, before []lifecycleEvent) error {
	if e.Name == "" || slices.ContainsFunc(before, func(o lifecycleEvent) bool { return o.Name == e.Name }) {
		return fmt.Errorf("a name is needed, once")
	}
	meth := m.method(e.Method)
	if e.Method != "" && (meth == nil || meth.Result == nil || meth.Mode == "") {
		return fmt.Errorf("method %s is no request a hook handles", e.Method)
	}
	if e.EventKind != "" && !slices.Contains(m.EventKinds, e.EventKind) {
		return fmt.Errorf("event kind %s is no runtime event kind", e.EventKind)
	}
	if (e.Method == "") == (e.EventKind == "" && e.Session == "") || (e.Session != "" && !slices.Contains(sessionSteps, e.Session)) {
		return fmt.Errorf("comes from a method, an event kind or a session step (start, end)")
	}
	for _, p := range []string{e.When, e.Unless} {
		if p != "" && (meth == nil || !slices.Contains(predicates, p)) {
			return fmt.Errorf("the condition %q is none of %s, on a method", p, strings.Join(predicates, ", "))
		}
	}
	from := m.Type("RuntimeEvent")
	if meth != nil {
		from = meth.Params
	}
	for i, in := range e.Input {
		f, ok := t.Fields[in.Field]
		if !ok || in.From == "" {
			return fmt.Errorf("input field %q is not in fields, or has no from", in.Field)
		}
		if path := strings.Replace(in.From, lastUser, "messages", 1); !hasMember(from, path) {
			return fmt.Errorf("input field %s: %s has no member %s", in.Field, from.Name, path)
		}
		e.Input[i].Type = f.Type
	}
	if meth != nil && !hasMember(meth.Params, t.SessionKey.Call) {
		return fmt.Errorf("session_key: %s has no member %s", meth.Params.Name, t.SessionKey.Call)
	}
	if e.Modify != nil {
		i := slices.IndexFunc(e.Input, func(in lifecycleInput) bool { return in.Field == e.Modify.Field })
		if e.Modify.With != "modified_input" && e.Modify.With != "modified_output" || i < 0 || meth == nil {
			return fmt.Errorf("modify is with modified_input or modified_output, of one of its input fields")
		}
		e.ModifyFrom, e.ModifyType = e.Input[i].From, e.Input[i].Type
		if strings.Contains(e.ModifyFrom, ".") || e.ModifyType == "tool_kind" || e.ModifyType == "paths" || e.ModifyType == "json" {
			return fmt.Errorf("modify of %s: only a member of the params themselves, of a string, arguments or a tool result, can be replaced", e.ModifyFrom)
		}
	}
	for _, o := range []*outcome{e.Skip, e.Abort} {
		if o == nil || o.Action == "none" {
			continue
		}
		if !slices.Contains(outcomeActions, o.Action) {
			return fmt.Errorf("outcome %q is none of %s", o.Action, strings.Join(outcomeActions, ", "))
		}
		// An outcome is an answer its method allows: refuse that of an
		// approval, the others an action of the method's result.
		if meth == nil || (o.Action == "refuse") != (meth.Result.Kind != Union) || o.Action != "refuse" && !slices.Contains(meth.Actions, o.Action) {
			return fmt.Errorf("outcome %q is no answer of %s", o.Action, cmp.Or(e.Method, "a runtime event or session"))
		}
	}
	return nil
}

// hasMember tells whether a value of typ has a member at a dotted path:
// declared, or within a member that is any JSON (a runtime event's payload).
func hasMember(typ *Type, path string) bool {
	for _, name := range strings.Split(path, ".") {
		if typ == nil {
			return false
		}
		i := slices.IndexFunc(typ.Fields, func(f *Field) bool { return f.Name == name })
		if i < 0 {
			return false
		}
		if goType, _ := goFieldType(typ.Fields[i]); goType == "json.RawMessage" {
			return true
		}
		typ = typ.Fields[i].Type.Type
	}
	return true
}

// method is the method of that name, nil when there is none.
func (m *Model) method(name string) *Method {
	if i := slices.IndexFunc(m.Methods, func(meth *Method) bool { return meth.Name == name }); i >= 0 {
		return m.Methods[i]
	}
	return nil
}

// lifecycleMethod is a request method that events come from, with its rows
// in the table's order.
type lifecycleMethod struct {
	// Go is the name of its handler in the Go SDK: On{Go}.
	Name, Go, Params, Result string
	// Modified is the member of its modify result that holds the params.
	Modified string
	// Approval: its result is an approval, which CanUseTool decides after
	// the rows.
	Approval bool
	Rows     []lifecycleEvent
}

// lifecycleField is an input field, with the events whose input has it.
type lifecycleField struct {
	Name, Type, Doc string
	Events          []string
}

// lifecycleView is what the templates render: the table, its rows grouped
// by what they come from.
type lifecycleView struct {
	*lifecycleTable
	Header                          string
	Fields                          []lifecycleField
	Methods                         []lifecycleMethod
	EventRows, Start, End, Observed []lifecycleEvent
	EndKinds                        []string
	// JSON: an input field is any JSON.
	JSON bool
}

func (t *lifecycleTable) view(m *Model, header string) lifecycleView {
	v := lifecycleView{lifecycleTable: t, Header: header}
	for _, meth := range m.Methods {
		var rows []lifecycleEvent
		for _, e := range t.Events {
			if e.Method == meth.Name {
				rows = append(rows, e)
			}
		}
		if len(rows) == 0 {
			continue
		}
		r := lifecycleMethod{Name: meth.Name, Go: pascal(methodName(meth.Name)), Params: meth.Params.Name, Result: meth.Result.Name, Approval: meth.Result.Kind != Union, Rows: rows}
		for _, variant := range meth.Result.Variants {
			for _, f := range variant.Type.Fields {
				if slices.Contains(variant.Tags, "modify") && f.Type.Kind == Named && f.Type.Type == meth.Params {
					r.Modified = f.Name
				}
			}
		}
		v.Methods = append(v.Methods, r)
	}
	for _, e := range t.Events {
		for _, in := range e.Input {
			i := slices.IndexFunc(v.Fields, func(f lifecycleField) bool { return f.Name == in.Field })
			if i < 0 {
				i = len(v.Fields)
				v.Fields = append(v.Fields, lifecycleField{Name: in.Field, Type: in.Type, Doc: t.Fields[in.Field].Doc})
				v.JSON = v.JSON || in.Type == "json"
			}
			v.Fields[i].Events = append(v.Fields[i].Events, e.Name)
		}
		if e.Method != "" {
			continue
		}
		v.Observed = append(v.Observed, e)
		switch e.Session {
		case "start":
			v.Start = append(v.Start, e)
		case "end":
			v.End = append(v.End, e)
			if e.EventKind != "" {
				v.EndKinds = append(v.EndKinds, e.EventKind)
			}
		default:
			v.EventRows = append(v.EventRows, e)
		}
	}
	return v
}

// lifecycleFuncs are the template functions of the lifecycle templates.
var lifecycleFuncs = template.FuncMap{
	"pascal": pascal, "camel": tsCamel, "quote": quote, "join": strings.Join,
	"goType": func(typ string) string { return fieldTypes[typ].goType },
	"pyType": func(typ string) string { return fieldTypes[typ].py },
	"tsType": func(typ string) string { return fieldTypes[typ].ts },
	"lowerFirst": func(s string) string {
		return strings.ToLower(s[:1]) + s[1:]
	},
	"trimDot":  func(s string) string { return strings.TrimSuffix(s, ".") },
	"optional": func(typ string) bool { return strings.HasSuffix(fieldTypes[typ].ts, " | undefined") },
	"tsRequired": func(typ string) string {
		return strings.TrimSuffix(fieldTypes[typ].ts, " | undefined")
	},
	"quoteAll": func(items []string) string { return quoteAll(items, ", ") },
	"events": func(events []lifecycleEvent) []string {
		var names []string
		for _, e := range events {
			names = append(names, e.Name)
		}
		return names
	},
}

// renderLifecycle renders the table into each SDK's lifecycle events, input
// types and rows, and into docs/lifecycle.md.
func renderLifecycle(m *Model, raw []byte) ([]Output, error) {
	t, err := loadLifecycle(m, raw)
	if err != nil {
		return nil, err
	}
	v := t.view(m, "Code generated by hookwire/codegen from "+lifecycleFile+" and "+methodsPath+"; DO NOT EDIT.")
	var out []Output
	for _, f := range []struct{ path, tmpl string }{
		{"sdk-go/lifecycle/lifecycle_gen.go", "lifecycle_go.tmpl"},
		{"sdk-python/src/hookwire/_lifecycle_gen.py", "lifecycle_py.tmpl"},
		{"sdk-node/src/lifecycle.gen.ts", "lifecycle_ts.tmpl"},
		{"docs/lifecycle.md", "lifecycle_docs.tmpl"},
	} {
		tmpl, err := template.New(f.tmpl).Funcs(lifecycleFuncs).ParseFS(templates, "templates/"+f.tmpl)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := tmpl.Execute(&b, v); err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		data := b.Bytes()
		if strings.HasSuffix(f.path, ".go") {
			if data, err = format.Source(data); err != nil {
				return nil, fmt.Errorf("%s: the rendered Go does not parse: %w", f.path, err)
			}
		}
		out = append(out, Output{f.path, data})
	}
	return out, nil
}

// Doc is an input field's doc.
func (v lifecycleView) Doc(field string) string { return v.lifecycleTable.Fields[field].Doc }
