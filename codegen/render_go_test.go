package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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
	for _, name := range []string{"codec.go", "codec_scan.go", "codec_write.go"} {
		codec, err := os.ReadFile(filepath.Join("..", "sdk-go", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), codec, 0o644); err != nil {
			t.Fatal(err)
		}
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

type overLimitAnswer struct {
	err    int64
	cut    Action
	cutAt  []string
	keep   []Action
	result map[string]any
}

var _, _, _, _ = (*Hook).route, (*Hook).decodes, mustDecide, isNotification
var _, _, _, _, _ = unhandledMode, defaultMaxLine, tooLongReason, cutMarker, overLimit
`

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
		{"method": "paint.apply", "kind": "request", "mode": "steer", "params": "Paint", "result": "PaintReply", "actions": ["go", "stop", "retry_later"],
			"overLimit": {"result": {"action": "retry_later"}}},
		{"method": "paint.judge", "kind": "request", "mode": "steer", "params": "Paint", "result": "Layer",
			"overLimit": {"error": -32000}}],
		"errorCodes": [{"name": "HandlerError", "code": -32000}],
		"lineLimit": {"defaultBytes": 100, "reason": "{limit}", "cutMarker": "{cut}"}}`))
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
