package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// lifecycleFile is the lifecycle table, relative to the repository root.
const lifecycleFile = "schema/lifecycle.json"

// lifecycleTable is schema/lifecycle.json: the input fields callbacks may
// receive, and the events, each with where it comes from, its input, what
// its modified input or output replaces and what skip and abort become.
type lifecycleTable struct {
	// SessionKey is where the session key is read: a member path of a
	// call's params, and those of a runtime event's, the first not empty.
	SessionKey struct {
		Call  string   `json:"call"`
		Event []string `json:"event"`
	} `json:"session_key"`
	Fields map[string]struct {
		Type string `json:"type"`
		Doc  string `json:"doc"`
	} `json:"fields"`
	Events     []lifecycleEvent    `json:"events"`
	Vocabulary lifecycleVocabulary `json:"vocabulary"`
}

type lifecycleEvent struct {
	Name      string           `json:"name"`
	Doc       string           `json:"doc"`
	Method    string           `json:"method"`
	When      string           `json:"when"`
	EventKind string           `json:"event_kind"`
	Session   string           `json:"session"`
	Input     []lifecycleInput `json:"input"`
	Modify    *struct {
		With  string `json:"with"`
		Field string `json:"field"`
		Doc   string `json:"doc"`
	} `json:"modify"`
	Skip  *outcome `json:"skip"`
	Abort *outcome `json:"abort"`
}

// lifecycleInput is an input field and the member it is read from.
type lifecycleInput struct {
	Field string `json:"field"`
	From  string `json:"from"`
}

type outcome struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

// fieldTypes are the types an input field may have: in each language, and,
// in Python and TypeScript, how a field is read from its member v, which
// may be absent (Go's are typed).
var fieldTypes = map[string]struct{ goType, py, ts, pyRead, tsRead string }{
	"string":      {"string", "str", "string", `v if isinstance(v, str) else ""`, `typeof v === "string" ? v : ""`},
	"arguments":   {"map[string]any", "ToolInput", "ToolInput", `v if isinstance(v, dict) else {}`, `isObject(v) ? (v as ToolInput) : {}`},
	"tool_result": {"hookwire.ToolResult", "ToolResult", "ToolResult", `v if isinstance(v, dict) else {"for_llm": ""}`, `isObject(v) ? (v as unknown as ToolResult) : { for_llm: "" }`},
	"tool_error":  {"error", "ToolError", "Error", `ToolError(v if isinstance(v, dict) else {"for_llm": ""})`, `new Error(isObject(v) ? String(v["for_llm"]) : "")`},
	"tool_kind":   {"hookwire.ToolKind", "ToolKind | None", "ToolKind | undefined", `v`, `v as ToolKind | undefined`},
	"paths":       {"[]string", "list[str]", "string[]", `list(v or [])`, `Array.isArray(v) ? v : []`},
	"json":        {"json.RawMessage", "JSON", "JsonValue", `v`, `(v ?? null) as JsonValue`},
}

var outcomeActions = []string{"none", "deny_tool", "abort_turn", "refuse"}

// loadLifecycle reads and checks the table against the method table.
func loadLifecycle(m *Model, raw []byte) (*lifecycleTable, error) {
	var t lifecycleTable
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", lifecycleFile, err)
	}
	fail := func(e lifecycleEvent, format string, args ...any) error {
		return fmt.Errorf("%s: event %s: %s", lifecycleFile, e.Name, fmt.Sprintf(format, args...))
	}
	if t.SessionKey.Call == "" || len(t.SessionKey.Event) == 0 || slices.Contains(t.SessionKey.Event, "") {
		return nil, fmt.Errorf("%s: session_key needs the member path of a call's, and of a runtime event's", lifecycleFile)
	}
	for name, f := range t.Fields {
		if _, ok := fieldTypes[f.Type]; !ok {
			return nil, fmt.Errorf("%s: field %s has type %q, none of the known ones", lifecycleFile, name, f.Type)
		}
	}
	for i, e := range t.Events {
		if e.Name == "" || slices.IndexFunc(t.Events[:i], func(o lifecycleEvent) bool { return o.Name == e.Name }) >= 0 {
			return nil, fail(e, "a name is needed, once")
		}
		if e.Method != "" && !slices.ContainsFunc(m.Methods, func(meth *Method) bool { return meth.Name == e.Method && meth.Result != nil && meth.Mode != "" }) {
			return nil, fail(e, "method %s is no request a hook handles", e.Method)
		}
		if e.EventKind != "" && !slices.Contains(m.EventKinds, e.EventKind) {
			return nil, fail(e, "event kind %s is no runtime event kind", e.EventKind)
		}
		if (e.Method == "") == (e.EventKind == "" && e.Session == "") || (e.Session != "" && e.Session != "start" && e.Session != "end") {
			return nil, fail(e, "comes from a method, an event kind or a session step (start, end)")
		}
		for _, in := range e.Input {
			if _, ok := t.Fields[in.Field]; !ok || in.From == "" {
				return nil, fail(e, "input field %q is not in fields, or has no from", in.Field)
			}
		}
		if e.Modify != nil && (e.Modify.With != "modified_input" && e.Modify.With != "modified_output" ||
			!slices.ContainsFunc(e.Input, func(in lifecycleInput) bool { return in.Field == e.Modify.Field })) {
			return nil, fail(e, "modify is with modified_input or modified_output, of one of its input fields")
		}
		for _, o := range []*outcome{e.Skip, e.Abort} {
			if o == nil || o.Action == "none" {
				continue
			}
			if !slices.Contains(outcomeActions, o.Action) {
				return nil, fail(e, "outcome %q is none of %s", o.Action, strings.Join(outcomeActions, ", "))
			}
			// An outcome is an answer its method allows: refuse that of an
			// approval, the others an action of the method's result.
			i := slices.IndexFunc(m.Methods, func(meth *Method) bool { return meth.Name == e.Method })
			if i < 0 || (o.Action == "refuse") != (m.Methods[i].Result.Kind != Union) || o.Action != "refuse" && !slices.Contains(m.Methods[i].Actions, o.Action) {
				return nil, fail(e, "outcome %q is no answer of %s", o.Action, cmp.Or(e.Method, "a runtime event or session"))
			}
		}
	}
	v := t.Vocabulary
	for _, vt := range []vocabType{v.Output, v.PermissionResult, v.Options, v.HookOptions} {
		for _, m := range vt.Members {
			_, inGo := goVocabTypes[m.Type]
			_, inTS := tsVocabTypes[m.Type]
			if !inGo && !inTS {
				return nil, fmt.Errorf("%s: vocabulary member %s has type %q, none of the known ones", lifecycleFile, m.Name, m.Type)
			}
		}
	}
	return &t, nil
}

// renderLifecycle renders the table into each SDK's lifecycle events,
// input types and rows, and into docs/lifecycle.md.
func renderLifecycle(m *Model, raw []byte) ([]Output, error) {
	t, err := loadLifecycle(m, raw)
	if err != nil {
		return nil, err
	}
	header := "Code generated by hookwire/codegen from " + lifecycleFile + " and " + methodsPath + "; DO NOT EDIT."
	goCode, err := t.goCode(m, header)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lifecycleFile, err)
	}
	goSrc, err := format.Source([]byte(goCode))
	if err != nil {
		return nil, fmt.Errorf("the rendered Go lifecycle does not parse: %w", err)
	}
	return []Output{
		{"sdk-go/lifecycle/lifecycle_gen.go", goSrc},
		{"sdk-python/src/hookwire/_lifecycle_gen.py", []byte(t.python(m, header))},
		{"sdk-node/src/lifecycle.gen.ts", []byte(t.typescript(m, header))},
		{"docs/lifecycle.md", []byte(t.docs(header))},
	}, nil
}

// methodRows is a request method that events come from, with its events.
type methodRows struct {
	meth   *Method
	events []lifecycleEvent
}

// byMethod are the request methods that events come from, in the method
// table's order, each with its events in the table's order.
func (t *lifecycleTable) byMethod(m *Model) []methodRows {
	var out []methodRows
	for _, meth := range m.Methods {
		r := methodRows{meth: meth}
		for _, e := range t.Events {
			if e.Method == meth.Name {
				r.events = append(r.events, e)
			}
		}
		if len(r.events) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// eventNames are the names of events.
func eventNames(events []lifecycleEvent, name func(string) string) []string {
	var out []string
	for _, e := range events {
		out = append(out, name(e.Name))
	}
	return out
}

// modifiedFrom is the member that an event's modified input or output
// replaces: the one its modified field is read from.
func (e lifecycleEvent) modifiedFrom() string {
	return e.Input[slices.IndexFunc(e.Input, func(in lifecycleInput) bool { return in.Field == e.Modify.Field })].From
}

// fieldType is an input field's type.
func (t *lifecycleTable) fieldType(name string) string { return t.Fields[name].Type }

// fieldOrder is every input field, in the order the events first name them.
func (t *lifecycleTable) fieldOrder() []string {
	var out []string
	for _, e := range t.Events {
		for _, in := range e.Input {
			if !slices.Contains(out, in.Field) {
				out = append(out, in.Field)
			}
		}
	}
	return out
}

// eventsWith are the events whose input has a field.
func (t *lifecycleTable) eventsWith(field string) []string {
	var out []string
	for _, e := range t.Events {
		if slices.ContainsFunc(e.Input, func(in lifecycleInput) bool { return in.Field == field }) {
			out = append(out, e.Name)
		}
	}
	return out
}

// memberCall is the expression, in Python or TypeScript alike, of the
// member of x at a dotted path, read with the support module's get, or of
// the last user message, with its function named lastUser.
func memberCall(x, path, lastUser string) string {
	if path == "last_user_message" {
		return lastUser + "(" + x + ")"
	}
	return "get(" + x + ", " + quoteAll(strings.Split(path, "."), ", ") + ")"
}

// firstOf is the Python or TypeScript expression of the first of the members
// of x at paths that is not empty, joined by or (or ||).
func firstOf(x string, paths []string, member func(x, path string) string, or string) string {
	var exprs []string
	for _, path := range paths {
		exprs = append(exprs, member(x, path))
	}
	return strings.Join(exprs, " "+or+" ")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (t *lifecycleTable) python(m *Model, header string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n\"\"\"%s\n\n%s\n\"\"\"\n\nfrom __future__ import annotations\n\n", header, wrap(t.Vocabulary.Doc.text("python"), 79), comment("    ", t.Vocabulary.Example["python"], ""))
	b.WriteString("from collections.abc import Awaitable, Sequence\nfrom dataclasses import dataclass, field\nfrom typing import Any, Callable, Final, Literal, TypedDict, Union\n\nfrom ._errors import ToolError\n")
	var rows strings.Builder
	t.pyTranslation(&rows, m)
	fmt.Fprintf(&b, "from ._lifecycle_support import %s\n", strings.Join(used(rows.String(), "ARGUMENTS", "answer", "as_json", "as_result", "get", "last_user_message", "set_last_user_message"), ", "))
	b.WriteString("from ._protocol_gen import JSON, ToolKind, ToolResult\nfrom ._results import modify\n\n")
	public := []string{"CanUseTool", "CanUseToolOptions", "HookEvent", "HookInput", "HookOutput", "LifecycleHooks", "PermissionResult", "ToolInput"}
	for _, behavior := range t.Vocabulary.Behavior.Values {
		public = append(public, "Permission"+pascal(behavior.Name))
	}
	for _, e := range t.Events {
		public = append(public, e.Name+"Input")
	}
	slices.Sort(public)
	fmt.Fprintf(&b, "__all__ = [\n%s]\n\n", pyLines(quoteAll(public, "\n")))
	b.WriteString("ToolInput = dict[str, JSON]\n\"\"\"A tool's arguments.\"\"\"\n\n\nclass HookEvent:\n    \"\"\"The lifecycle events: the keys of LifecycleHook's hooks.\"\"\"\n\n")
	for _, e := range t.Events {
		fmt.Fprintf(&b, "    %s: Final = %q\n    \"\"\"%s.\"\"\"\n", e.Name, e.Name, e.Doc)
	}
	var names []string
	for _, e := range t.Events {
		names = append(names, "HookEvent."+e.Name)
	}
	fmt.Fprintf(&b, "\n\n# In the order a session meets them.\nEVENTS: Final = (%s)\n", pyWrap(names))
	b.WriteString("\n# What each event's callbacks receive. Frozen: a callback changes what\n# comes next by answering modified_input or modified_output.\n")
	var inputs []string
	for _, e := range t.Events {
		fmt.Fprintf(&b, "\n\n@dataclass(frozen=True)\nclass %sInput:\n    \"\"\"%s: %s.\"\"\"\n\n    session_id: str\n", e.Name, e.Name, e.Doc)
		for _, in := range e.Input {
			fmt.Fprintf(&b, "    %s: %s\n", in.Field, fieldTypes[t.fieldType(in.Field)].py)
			fmt.Fprintf(&b, "    \"\"\"%s\"\"\"\n", t.Fields[in.Field].Doc)
		}
		fmt.Fprintf(&b, "    event: Literal[%q] = field(default=%q, init=False)\n", e.Name, e.Name)
		inputs = append(inputs, e.Name+"Input")
	}
	fmt.Fprintf(&b, "\n\nHookInput = Union[\n%s]\n\"\"\"What a lifecycle callback receives; input.event tells which.\"\"\"\n", pyLines(inputs))
	t.pyVocabulary(&b)
	var readers []string
	for _, name := range slices.Sorted(maps.Keys(fieldTypes)) {
		readers = append(readers, quote(name)+": lambda v: "+fieldTypes[name].pyRead)
	}
	fmt.Fprintf(&b, "\n\n# How an input field of each type is read from its member, absent or not.\nREAD: Final[dict[str, Callable[[Any], Any]]] = {\n%s}\n", pyLines(readers))
	b.WriteString(rows.String())
	return b.String()
}

// used are the names, of those given, that code calls, indexes, reads a
// member of or passes.
func used(code string, names ...string) []string {
	var out []string
	for _, name := range names {
		if regexp.MustCompile(`(^|[^.\w])` + name + `[(\[.,)]`).MatchString(code) {
			out = append(out, name)
		}
	}
	return out
}

// modifiedTypes are the types (in python or typescript) a callback's
// modified_input or modified_output may have, by the fields the events let
// it replace.
func (t *lifecycleTable) modifiedTypes(with, lang string) []string {
	accepted := map[string][]string{"string": {"str"}, "arguments": {"ToolInput"}, "tool_result": {"str", "ToolResult"}, "tool_error": {"str", "ToolResult"}}
	var out []string
	for _, e := range t.Events {
		if e.Modify == nil || e.Modify.With != with {
			continue
		}
		for _, typ := range accepted[t.fieldType(e.Modify.Field)] {
			if typ == "str" && lang == "typescript" {
				typ = "string"
			}
			if !slices.Contains(out, typ) {
				out = append(out, typ)
			}
		}
	}
	return out
}

// pyWrap is items as ruff formats the inside of a tuple that does not fit
// on one line: one per line, with a trailing comma.
func pyWrap(items []string) string { return "\n" + pyLines(items) }

func pyLines(items any) string {
	if s, ok := items.(string); ok {
		items = strings.Split(s, "\n")
	}
	return pyLinesIndent(items.([]string), "    ")
}

func pyLinesIndent(items []string, indent string) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(indent + it + ",\n")
	}
	return b.String()
}

func (t *lifecycleTable) typescript(m *Model, header string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n\n%s//\n%s\nimport { isDeepStrictEqual } from \"node:util\";\n\nimport type { Awaitable, Context } from \"./handlers.js\";\n", header, comment("// ", wrap(t.Vocabulary.Doc.text("typescript"), 77), ""), comment("//   ", t.Vocabulary.Example["typescript"], ""))
	var rows strings.Builder
	t.tsTranslation(&rows, m)
	fmt.Fprintf(&b, "import { %s, type Params, type Runner, type Stop } from \"./lifecycle-support.js\";\n", strings.Join(used(rows.String(), "answer", "get", "input", "isObject", "lastUserMessage", "setLastUserMessage"), ", "))
	b.WriteString("import { continue_, type JsonValue, type ToolKind, type ToolResult } from \"./protocol.gen.js\";\nimport { modify } from \"./results.js\";\n\n")
	b.WriteString("/** A tool's arguments. */\nexport type ToolInput = { [key: string]: JsonValue };\n\n/** The lifecycle events. */\nexport const HookEvent = {\n")
	for _, e := range t.Events {
		fmt.Fprintf(&b, "  /** %s. */\n  %s: %q,\n", e.Doc, e.Name, e.Name)
	}
	b.WriteString("} as const;\n/** One of the lifecycle events. */\nexport type HookEvent = (typeof HookEvent)[keyof typeof HookEvent];\n\n/** What a callback of each event receives. */\nexport interface HookInputs {\n")
	for _, e := range t.Events {
		fmt.Fprintf(&b, "  /** %s: %s. */\n  %s: {\n    event: %q;\n    sessionId: string;\n", e.Name, e.Doc, e.Name, e.Name)
		for _, in := range e.Input {
			typ := fieldTypes[t.fieldType(in.Field)].ts
			opt := ""
			if strings.HasSuffix(typ, " | undefined") {
				typ, opt = strings.TrimSuffix(typ, " | undefined"), "?"
			}
			fmt.Fprintf(&b, "    /** %s */\n    %s%s: %s;\n", t.Fields[in.Field].Doc, tsCamel(in.Field), opt, typ)
		}
		b.WriteString("  };\n")
	}
	b.WriteString("}\n\n/** What a lifecycle callback receives, told apart by `event`. */\nexport type HookInput = HookInputs[HookEvent];\n\n")
	t.tsVocabulary(&b)
	var readers []string
	for _, name := range slices.Sorted(maps.Keys(fieldTypes)) {
		readers = append(readers, fmt.Sprintf("%s: (v: unknown): %s => %s", name, fieldTypes[name].ts, fieldTypes[name].tsRead))
	}
	fmt.Fprintf(&b, "\n/** How an input field of each type is read from its member, absent or not. */\nconst read = {\n%s};\n", pyLinesIndent(readers, "  "))
	b.WriteString(rows.String())
	return b.String()
}

func (t *lifecycleTable) docs(header string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n# Lifecycle events\n\n", header)
	b.WriteString("The lifecycle layer of each SDK (`sdk-go/lifecycle`, Python's `LifecycleHook`,\nTypeScript's `lifecycle()`) runs callbacks written for in-process agent SDKs'\nlifecycle hooks on the protocol's calls and events. This table is\n`schema/lifecycle.json`, from which each SDK's events, inputs, vocabulary and\ntranslation are generated. Field names are snake_case here and in Python, PascalCase in Go\nand camelCase in TypeScript; every input also has the event and the session\nid (the host's session key, empty when it sends none).\n\n")
	fmt.Fprintf(&b, "The session key of a call is its `%s`; that of a runtime event, the first\nof %s that is not empty. A runtime event without one is in no session.\n\n", t.SessionKey.Call, "`"+strings.Join(t.SessionKey.Event, "`, `")+"`")
	b.WriteString("| event | fires on | input | modified input or output | skip | abort |\n| --- | --- | --- | --- | --- | --- |\n")
	outcomeText := func(o *outcome) string {
		if o == nil {
			return "not offered; stops the callbacks"
		}
		var s string
		switch o.Action {
		case "none":
			s = "stops the callbacks; nothing else"
		case "refuse":
			s = "`hook.approve_tool` refused"
		default:
			s = "`" + o.Action + "`"
		}
		if o.Reason != "" {
			s += fmt.Sprintf(", with the reason or %q", o.Reason)
		} else if o.Action != "none" {
			s += " with the reason"
		}
		return s
	}
	for _, e := range t.Events {
		var in []string
		for _, f := range e.Input {
			in = append(in, fmt.Sprintf("`%s` (`%s`)", f.Field, f.From))
		}
		mod := ""
		if e.Modify != nil {
			mod = fmt.Sprintf("`%s`: %s, replaces `%s`", e.Modify.With, e.Modify.Doc, e.modifiedFrom())
		}
		if len(in) == 0 {
			in = []string{"the session id only"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", e.Name, e.Doc, strings.Join(in, ", "), mod, outcomeText(e.Skip), outcomeText(e.Abort))
	}
	b.WriteString("\nAn input field is read from the member of the call or event named in brackets; `last_user_message` is the text of the request's last user message. A callback's failure, or an answer that is none of continue, skip and abort, is logged and counts as continue.\n\n| field | type | what it is |\n| --- | --- | --- |\n")
	for _, f := range t.fieldOrder() {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f, t.fieldType(f), t.Fields[f].Doc)
	}
	b.WriteString("\nTo add an event, add its row to `schema/lifecycle.json` and run `go tool mage\ngen`: each SDK gets the code that reads an event's input and maps its\noutcomes, and its runner registers the handler or observer an event needs\nonce it has callbacks. A new field type, source condition or outcome action\nneeds the generator taught it.\n")
	return b.String()
}
