package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// The golden Go is only text to the test above; this compiles and vets it.
func TestTheFixturesGoCompilesAndVets(t *testing.T) {
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, o := range outs {
		if name, ok := strings.CutPrefix(o.Path, "sdk-go/"); ok {
			if err := os.WriteFile(filepath.Join(dir, name), o.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The codec the generated methods call is hand-written, in the SDK.
	codec, err := os.ReadFile(filepath.Join("..", "sdk-go", "codec.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "codec.go"), codec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sdk.go"), []byte(sdkStub), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fixture\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}

// sdkStub stands for the hand-written part of the Go SDK that the
// generated hook surface calls, with the same signatures: the real one
// speaks the real protocol, not the fixture's.
const sdkStub = `package hookwire

import (
	"context"
	"encoding/json"
)

type Hook struct {
	user, sdk handlers
	observers []func(context.Context, Tick)
}

type RPCError struct {
	Code    int64
	Message string
}

func (e *RPCError) Error() string { return e.Message }

const CodeMethodNotFound = -32601

func register(isNil, taken bool, method string) {}

func invoke[P any, PP interface {
	*P
	json.Unmarshaler
}, R json.Marshaler](ctx context.Context, method string, raw json.RawMessage, fn func(context.Context, P) (R, error)) ([]byte, error) {
	var p P
	if err := PP(&p).UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	r, err := fn(ctx, p)
	if err != nil {
		return nil, err
	}
	return r.MarshalJSON()
}

func orFallback[P any, R any](fn func(context.Context, P) (R, error)) func(context.Context, P) (R, error) {
	return fn
}

func (h *Hook) echo(json.RawMessage) Paint { return Paint{} }

var _, _, _, _ = (*Hook).route, (*Hook).decodes, mustDecide, isNotification
var _ = unhandledMode
`

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
// constant a hook uses, and leaves the SDK's tables and decoders.
func TestThePythonAllListsWhatThePackageReExportsOfTheModule(t *testing.T) {
	src := fixturePython(t)
	// Top-level statements start at column 0: NAME = ..., NAME: T = ...,
	// class NAME(...), def NAME(...). The types are among them: they are
	// defined at run time, not under if TYPE_CHECKING.
	statement := `(?:class |def )?([A-Za-z]\w*)\b(?:\s*[=:(])`
	var defined []string
	for _, m := range regexp.MustCompile(`(?m)^`+statement).FindAllStringSubmatch(src, -1) {
		defined = append(defined, m[1])
	}
	if strings.Contains(src, "TYPE_CHECKING") {
		t.Error("the module defines names under TYPE_CHECKING: its types are for run time too")
	}
	_, list, ok := strings.Cut(src, "\n__all__ = [\n")
	if !ok {
		t.Fatal("no __all__")
	}
	list, _, _ = strings.Cut(list, "\n]\n")
	var all []string
	for _, line := range strings.Split(list, "\n") {
		all = append(all, strings.Trim(line, ` ",`))
	}
	for _, want := range []string{"CODE_STILL_WET", "ERROR_CODES", "EXT_PAINT_LAYER_UNDO", "HOST_EXTENSIONS", "Paint", "MixReply"} {
		if !slices.Contains(all, want) {
			t.Errorf("__all__ does not list %s", want)
		}
	}
	for _, name := range all {
		if !slices.Contains(defined, name) {
			t.Errorf("__all__ lists %s, which the module does not define", name)
		}
	}
	sdkOnly := func(name string) bool {
		if strings.HasPrefix(name, "decode_") || name == "MethodInfo" {
			return true
		}
		// The constants of each enum value, method and event kind, and the
		// SDK's tables; error codes and host extensions are for hooks too.
		return strings.ToUpper(name) == name && !strings.HasPrefix(name, "CODE_") && !strings.HasPrefix(name, "EXT_")
	}
	for _, name := range defined {
		if !slices.Contains(all, name) && !sdkOnly(name) {
			t.Errorf("the module defines %s, which __all__ does not list", name)
		}
	}
}

// Each method a hook handles (a request with a hello mode) gets its
// decorator, its test client's call and its row in the dispatch tables,
// from the method table alone: paint.mix was added with no other change.
func TestThePythonSurfaceHasEveryMethodAHookHandles(t *testing.T) {
	src := fixtureMethods(t)
	for _, want := range []string{
		"    def mix(self, fn: _MixHandler) -> _MixHandler:\n",
		"        self._register(METHOD_MIX, fn)\n",
		"    def mix(self, params: Paint) -> MixReply:\n",
		"        return cast(\"MixReply\", self.call(METHOD_MIX, params))\n",
		"        METHOD_MIX,\n", // in NEEDS_HANDLER: it allows no continue
		"    def apply(self, fn: _ApplyHandler)",
		"    def peek(self, fn: _PeekHandler)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the module has no %q", want)
		}
	}
	// paint.echo has no hello mode and paint.tick is a notification:
	// neither has a handler of its own.
	for _, unwanted := range []string{"def echo(", "def tick("} {
		if strings.Contains(src, unwanted) {
			t.Errorf("the module has %q", unwanted)
		}
	}
}

// fixturePython is the fixture's Python module.
func fixturePython(t *testing.T) string {
	return fixtureFile(t, "_protocol_gen.py")
}

// fixtureMethods is the fixture's Python method surface.
func fixtureMethods(t *testing.T) string {
	return fixtureFile(t, "_methods_gen.py")
}

func fixtureFile(t *testing.T, name string) string {
	t.Helper()
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(outs, func(o Output) bool { return strings.HasSuffix(o.Path, "/"+name) })
	return string(outs[i].Data)
}

func TestPythonRejectsAReplyTypeNamedLikeAType(t *testing.T) {
	m, err := Load([]byte(`{"$defs": {
		"Mode": {"type": "string", "enum": ["m"]},
		"Action": {"type": "string", "enum": ["continue"]},
		"P": {"type": "object"},
		"Continue": {"type": "object", "properties": {"action": {"type": "string", "const": "continue"}}, "required": ["action"]},
		"R": {"oneOf": [{"$ref": "#/$defs/Continue"}], "discriminator": {"propertyName": "action", "mapping": {"continue": "#/$defs/Continue"}}},
		"StepReply": {"type": "object"}}}`),
		[]byte(`{"version": 1, "methods": [{"method": "x.step", "kind": "request", "mode": "m", "params": "P", "result": "R", "actions": ["continue"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(m); err == nil || !strings.Contains(err.Error(), "StepReply, is also the name of a type") {
		t.Fatalf("got %v", err)
	}
}

func TestGoRejectsAMemberThatIsOptionalAndNullable(t *testing.T) {
	m, err := Load([]byte(`{"$defs": {"A": {"type": "object", "properties": {"b": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}}`), []byte(`{"version": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(m); err == nil || !strings.Contains(err.Error(), `member "b" is optional and nullable`) {
		t.Fatalf("got %v", err)
	}
}

func TestGoKeepsAnOptionalNullableObjectAsItsRawJSON(t *testing.T) {
	m, err := Load([]byte(`{"$defs": {"A": {"type": "object", "properties": {"b": {"anyOf": [{"type": "object"}, {"type": "null"}]}}}}}`), []byte(`{"version": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Render(m)
	if err != nil {
		t.Fatal(err)
	}
	var goSource string
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".go") {
			goSource += string(f.Data)
		}
	}
	if !strings.Contains(goSource, "B json.RawMessage") {
		t.Fatalf("b is not json.RawMessage in:\n%s", goSource)
	}
}

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

// A request whose result has no variant that goes without a tag (no
// continue) gets an error from a hook without its handler, and from one
// whose reply is too long for the host: the fixture has none, so this adds
// one to its table.
func TestARequestWithoutAPassThroughAnswerIsAnErrorWithoutAHandlerInGo(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(fixture, "hookwire.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(schema, []byte(`{"version": 7, "methods": [
		{"method": "paint.apply", "kind": "request", "mode": "steer", "params": "Paint", "result": "PaintReply", "actions": ["go", "stop", "retry_later"]},
		{"method": "paint.judge", "kind": "request", "mode": "steer", "params": "Paint", "result": "Layer"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	outs, err := Render(m)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(outs, func(o Output) bool { return o.Path == "sdk-go/hook_gen.go" })
	src := string(outs[i].Data)
	for _, want := range []string{
		"\tcase MethodJudge:\n\t\tfn := h.sdk.judge\n\t\tif fn == nil {\n\t\t\tfn = h.user.judge\n\t\t}\n\t\tif fn == nil {\n\t\t\treturn nil, &RPCError{Code: CodeMethodNotFound, Message: \"this hook does not handle \" + method}\n\t\t}\n",
		"func mustDecide(method string) bool {\n\treturn method == MethodJudge\n}\n",
		"\tcase MethodJudge:\n\t\treturn h.sdk.judge != nil || h.user.judge != nil\n",
		"\tcase MethodApply:\n\t\treturn true\n",
		`ModeSteer: "paint.apply is answered with go; paint.judge is answered with an error, which a host may take as a denial",`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("hook_gen.go lacks\n%s\nin\n%s", want, src)
		}
	}
}

// The golden TypeScript is only text to the golden test; this type-checks
// the fixture's with the SDK's compiler and options, against a stand-in for
// the SDK's hand-written Handler, and checks that a hook gets paint.mix's
// registration and test client call, typed by the method table alone.
func TestTheFixturesTypeScriptTypeChecks(t *testing.T) {
	tsc, err := filepath.Abs(filepath.Join("..", "sdk-node", "node_modules", "typescript", "bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("the SDK's TypeScript compiler is not installed (run go tool mage deps): %v", err)
	}
	outs, err := generate(fixture, "hookwire.schema.json", "methods.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "lib": ["ES2022"], "module": "NodeNext",
  "moduleResolution": "NodeNext", "strict": true, "noUncheckedIndexedAccess": true,
  "noImplicitOverride": true, "noEmit": true, "types": []}}`,
		"package.json": `{"type": "module"}`,
		// The SDK's Handler takes a context too; its shape is all that matters here.
		"handlers.ts": `import type { Intercepted } from "./exports.gen.js";
import type { Requests } from "./protocol.gen.js";
export type Handler<M extends Intercepted> = (params: Requests[M]["params"]) => Requests[M]["result"];
`,
		"use.ts": `import type { Intercepted, MixReply, Paint } from "./exports.gen.js";
import type { Handler } from "./handlers.js";
import { HookMethods, TestClientMethods, routes } from "./methods.gen.js";

class Hook extends HookMethods {
  override handle<M extends Intercepted>(_method: M, _handler: Handler<M>): this {
    return this;
  }
}
new Hook().mix((paint) => ({ action: "stop", paint }));
// @ts-expect-error paint.mix does not allow retry_later
new Hook().mix(() => ({ action: "retry_later" }));

class Client extends TestClientMethods {
  protected override result<R>(_method: string, _params: unknown): Promise<R> {
    return new Promise(() => {});
  }
}
const reply: Promise<MixReply> = new Client().mix({} as Paint);
void reply;
const unhandled: MixReply | undefined = routes["paint.mix"].unhandled;
void unhandled;
`,
	}
	for _, o := range outs {
		if name, ok := strings.CutPrefix(o.Path, "sdk-node/src/"); ok {
			files[name] = string(o.Data)
		}
	}
	// The SDK's hand-written modules that the generated ones import, and
	// that no stand-in above replaces.
	for _, o := range outs {
		if !strings.HasPrefix(o.Path, "sdk-node/src/") {
			continue
		}
		for _, m := range regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^;]*?\bfrom "\./([\w.]+)\.js"`).FindAllStringSubmatch(string(o.Data), -1) {
			name := m[1] + ".ts"
			if _, ok := files[name]; ok {
				continue
			}
			src, err := os.ReadFile(filepath.Join("..", "sdk-node", "src", name))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = string(src)
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", tsc, "-p", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// The golden Python is only text to the golden test; this type-checks the
// fixture's module with the SDK's mypy, strict, on the oldest Python the
// SDK supports, and runs it: a hook gets paint.mix's decorator, typed by
// the method table alone, and the test client its call.
func TestTheFixturesPythonTypeChecksAndRuns(t *testing.T) {
	bin, err := filepath.Abs(filepath.Join("..", ".venv", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "mypy")); err != nil {
		t.Fatalf("the SDK's dev tools are not installed (run go tool mage deps): %v", err)
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "hookwire")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(pkg, "__init__.py"):      "",
		filepath.Join(pkg, "_protocol_gen.py"): fixturePython(t),
		filepath.Join(pkg, "_methods_gen.py"):  fixtureMethods(t),
		filepath.Join(dir, "use.py"): `from typing import Callable

from hookwire._methods_gen import NEEDS_HANDLER, _Handlers, _TestCalls
from hookwire._protocol_gen import METHOD_APPLY, METHOD_MIX, MixReply, Paint


class Hook(_Handlers):
    def __init__(self) -> None:
        self.handlers: dict[str, Callable[..., object]] = {}

    def _register(self, method: str, fn: Callable[..., object]) -> None:
        self.handlers[method] = fn


hook = Hook()


@hook.mix
def mix(paint: Paint) -> MixReply:
    return {"action": "stop", "paint": paint}


@hook.apply  # type: ignore[type-var]
def wrong(paint: Paint) -> int:
    return 1


class Client(_TestCalls):
    def call(self, method: str, params: object) -> object:
        return hook.handlers[method](params)


paint: Paint = {"color": "red", "layers": [{"depth": 1}], "labels": {}}
reply: MixReply = Client().mix(paint)
assert reply == {"action": "stop", "paint": paint}, reply
assert sorted(hook.handlers) == [METHOD_APPLY, METHOD_MIX]
assert METHOD_MIX in NEEDS_HANDLER
`,
	}
	// The SDK's hand-written modules that the generated ones import.
	generated := files[filepath.Join(pkg, "_protocol_gen.py")] + files[filepath.Join(pkg, "_methods_gen.py")]
	for _, m := range regexp.MustCompile(`(?m)^\s*from \.(\w+) import`).FindAllStringSubmatch(generated, -1) {
		if _, ok := files[filepath.Join(pkg, m[1]+".py")]; ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", "sdk-python", "src", "hookwire", m[1]+".py"))
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Join(pkg, m[1]+".py")] = string(src)
	}
	for path, src := range files {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// --strict warns of an unused ignore: the wrong handler must be refused.
	mypy := exec.Command(filepath.Join(bin, "mypy"), "--strict", "--python-version", "3.9", "--no-incremental", "--cache-dir", os.DevNull, "use.py", "hookwire")
	mypy.Dir = dir
	if out, err := mypy.CombinedOutput(); err != nil {
		t.Errorf("mypy: %v\n%s", err, out)
	}
	python := exec.Command(filepath.Join(bin, "python"), "use.py")
	python.Dir = dir
	if out, err := python.CombinedOutput(); err != nil {
		t.Errorf("python: %v\n%s", err, out)
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
