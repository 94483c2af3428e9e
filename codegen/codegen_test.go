package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the fixture")

const fixture = "testdata/fixture"

func TestRenderingTheFixtureGivesTheGoldenFiles(t *testing.T) {
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, o := range outs {
		golden := filepath.Join("testdata", "golden", filepath.FromSlash(o.Path)+".golden")
		want = append(want, golden)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, o.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run go test -update)", o.Path, err)
			continue
		}
		if !bytes.Equal(data, o.Data) {
			t.Errorf("%s differs from %s at line %d (run go test -update, then read the diff)", o.Path, golden, firstDiffLine(data, o.Data))
		}
	}
	// A golden file that no output matches is left over from a renamed output.
	_ = filepath.WalkDir(filepath.Join("testdata", "golden"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !slices.Contains(want, path) {
			t.Errorf("%s is not an output any more", path)
		}
		return err
	})
}

func firstDiffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

func TestTheReferenceListsEveryExtension(t *testing.T) {
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(outs, func(o Output) bool { return o.Path == "docs/protocol.md" })
	_, section, ok := strings.Cut(string(outs[i].Data), "\n## Extensions\n")
	if !ok {
		t.Fatal("no Extensions section")
	}
	for _, row := range []string{
		"| [`Color`](#color) |  | Paint is ours. |",
		"| [`Paint`](#paint) | `content-type` | Typed \"paints\" need it. |",
	} {
		if !strings.Contains(section, row) {
			t.Errorf("the Extensions section lacks %q:\n%s", row, section)
		}
	}
}

func TestLoadRejectsWhatItCannotRenderFaithfully(t *testing.T) {
	const methods = `{"version": 1, "methods": []}`
	for _, c := range []struct{ name, defs, want string }{
		{"union without discriminator", `"U": {"oneOf": [{"$ref": "#/$defs/A"}]}, "A": {"type": "object"}`, "needs a discriminator"},
		{"inline object", `"A": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {}}}}}`, "must be a named type"},
		{"union as a member", `"A": {"type": "object", "properties": {"u": {"$ref": "#/$defs/U"}}}, "U": {"oneOf": [{"$ref": "#/$defs/V"}], "discriminator": {"propertyName": "t"}}, "V": {"type": "object", "properties": {"t": {"const": "v"}}, "required": ["t"]}`, "as a member type is not supported"},
		{"variant without tag", `"U": {"oneOf": [{"$ref": "#/$defs/V"}], "discriminator": {"propertyName": "t"}}, "V": {"type": "object"}`, "its t must be a string const or enum"},
		{"tag value twice", `"U": {"oneOf": [{"$ref": "#/$defs/V"}, {"$ref": "#/$defs/W"}], "discriminator": {"propertyName": "t"}}, "V": {"type": "object", "properties": {"t": {"const": "x"}}}, "W": {"type": "object", "properties": {"t": {"const": "x"}}}`, `t "x" selects both V and W`},
		{"dangling ref", `"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/Nope"}}}`, "no such type"},
		{"anyOf of two types", `"A": {"type": "object", "properties": {"b": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, "anyOf is only supported as {T, null}"},
		{"false schema", `"A": {"type": "object", "properties": {"b": false}}`, "the schema false is not supported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load([]byte(`{"$defs": {`+c.defs+`}}`), []byte(methods))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestLoadHoldsTheMethodTableToTheSchema(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(fixture, "hookwire.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ row, want string }{
		{`{"method": "m", "kind": "request", "params": "Paint", "result": "PaintReply", "actions": ["go", "stop"]}`, "differ from the action values"},
		{`{"method": "m", "kind": "request", "params": "Paint", "result": "Paint", "actions": ["go"]}`, "the result is not a union"},
		{`{"method": "m", "kind": "request", "mode": "fly", "params": "Paint", "result": "Paint"}`, `mode "fly" is not a value of $defs/Mode`},
		{`{"method": "m", "kind": "notification", "params": "Tick", "result": "Paint"}`, "a notification has none"},
		{`{"method": "m", "kind": "call", "params": "Tick"}`, "neither request nor notification"},
		{`{"method": "m", "kind": "notification", "params": "Nope"}`, "no such type"},
	} {
		_, err := Load(schema, []byte(`{"version": 1, "methods": [`+c.row+`]}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.row, err, c.want)
		}
	}
}

func TestLoadRefusesHostExtensionsAndErrorCodesThatNameNoConstant(t *testing.T) {
	for _, c := range []struct{ table, want string }{
		{`"hostExtensions": [{"name": "tick.fast"}, {"name": "tick.fast"}]`, `hostExtensions: "tick.fast" is listed twice`},
		{`"hostExtensions": [{"name": "tick.fast"}, {"name": "tick_fast"}]`, `hostExtensions: "tick.fast" and "tick_fast" are both TickFast in Go`},
		{`"hostExtensions": [{"name": "ABC"}, {"name": "abc"}]`, `hostExtensions: "ABC" and "abc" are both ABC in Python`},
		{`"hostExtensions": [{"name": "2fast"}]`, `hostExtensions: "2fast" does not start with a letter`},
		{`"hostExtensions": [{"name": ""}]`, `hostExtensions: "" does not start with a letter`},
		{`"errorCodes": [{"name": "Wet", "code": -1}, {"name": "Wet", "code": -2}]`, `errorCodes: "Wet" is listed twice`},
		{`"errorCodes": [{"name": "Wet", "code": -31000.5}]`, "errorCodes: Wet: code -31000.5 is not an integer"},
		{`"errorCodes": [{"name": "Wet", "code": "-31000"}]`, `errorCodes: Wet: code "-31000" is not an integer`},
		{`"errorCodes": [{"name": "Wet"}]`, "errorCodes: Wet: code (absent) is not an integer"},
		{`"errorCodes": [{"name": "Wet", "code": -1}, {"name": "Damp", "code": -1}]`, "errorCodes: Wet and Damp are both -1"},
	} {
		_, err := Load([]byte(`{}`), []byte(`{"version": 1, `+c.table+`}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.table, err, c.want)
		}
	}
}

// __all__ is built from the model, not from the rendered module; this holds
// it to what the module defines: the package re-exports every type and

func TestTypesThatReferToEachOtherInACycleAreAnError(t *testing.T) {
	m, err := Load([]byte(`{"$defs": {
		"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
		"B": {"type": "object", "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/A"}}}}}}`), []byte(`{"version": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Ordered(); err == nil || !strings.Contains(err.Error(), "A -> B -> A") {
		t.Fatalf("got %v", err)
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ wire, pascal, snake string }{
		{"chat_id", "ChatID", "chat_id"},
		{"AgentID", "AgentID", "agent_id"},
		{"ParentTurnID", "ParentTurnID", "parent_turn_id"},
		{"LLMResponse", "LLMResponse", "llm_response"},
		{"BeforeLLMParams", "BeforeLLMParams", "before_llm_params"},
		{"for_llm", "ForLLM", "for_llm"},
		{"jsonrpc", "JSONRPC", "jsonrpc"},
		{"ok", "OK", "ok"},
		{"agent.tool.exec_start", "AgentToolExecStart", "agent_tool_exec_start"},
		{"content-type", "ContentType", "content_type"},
	} {
		if got := pascal(c.wire); got != c.pascal {
			t.Errorf("pascal(%q) = %q, want %q", c.wire, got, c.pascal)
		}
		if got := snake(c.wire); got != c.snake {
			t.Errorf("snake(%q) = %q, want %q", c.wire, got, c.snake)
		}
	}
	for in, want := range map[string]string{"Action": "Actions", "Status": "Statuses", "Policy": "Policies", "Day": "Days"} {
		if got := plural(in); got != want {
			t.Errorf("plural(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAToolNameHasOneKindUnderEveryAgent(t *testing.T) {
	var v vocabulary
	if err := json.Unmarshal([]byte(`{"kinds": {"read": "", "write": ""}, "agents": [
		{"name": "a", "tools": {"read_file": {"kind": "read", "path": "path"}}},
		{"name": "b", "tools": {"read_file": {"kind": "write", "path": "file_path"}}}]}`), &v); err != nil {
		t.Fatal(err)
	}
	if _, err := v.merged(); err == nil || !strings.Contains(err.Error(), "tool read_file is read under one agent and write under b") {
		t.Errorf("got %v", err)
	}
	v.Agents[1].Tools["read_file"] = toolShape{Kind: "read", Path: "file_path"}
	merged, err := v.merged()
	if err != nil || !slices.Equal(merged["read_file"].members["path"], []string{"path", "file_path"}) {
		t.Errorf("merged %+v, %v: want both agents' argument names, in the agents' order", merged["read_file"], err)
	}
}

// Each action of the real method table has its helper in every SDK, under
// the name docs/actions.md gives it: generated for the actions that carry
// only a reason, written by hand for the others.
func TestEveryActionHasItsHelperInEverySDK(t *testing.T) {
	read := func(pattern string) string {
		var all strings.Builder
		for _, f := range glob(t, pattern) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			all.Write(b)
		}
		return all.String()
	}
	python, ts, gosrc := read("../sdk-python/src/hookwire/*.py"), read("../sdk-node/src/*.ts"), read("../sdk-go/*.go")
	m, err := Load(readFile(t, "../schema/hookwire.schema.json"), readFile(t, "../schema/methods.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := actions(m)
	if len(got) < 6 {
		t.Fatalf("actions: %v", got)
	}
	for _, a := range got {
		if !strings.Contains(python, "\ndef "+a.Python()+"(") {
			t.Errorf("sdk-python has no %s()", a.Python())
		}
		if !strings.Contains(ts, "export function "+a.TypeScript()+"(") {
			t.Errorf("sdk-node has no %s()", a.TypeScript())
		}
		goName := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(a.Go(), "params."), "{}"), "()")
		if !strings.Contains(gosrc, "type "+goName+" struct") && !strings.Contains(gosrc, ") "+goName+"() ") {
			t.Errorf("sdk-go has no %s", a.Go())
		}
	}
	names := map[string][3]string{}
	for _, a := range got {
		names[a.Name] = [3]string{a.Go(), a.Python(), a.TypeScript()}
	}
	if names["continue"] != [3]string{"Continue{}", "continue_", "continue_"} || names["deny_tool"] != [3]string{"DenyTool{}", "deny_tool", "denyTool"} || names["modify"][0] != "params.Modify()" {
		t.Errorf("names: %v", names)
	}
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %v %v", pattern, files, err)
	}
	return files
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
