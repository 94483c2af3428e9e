package runtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

// The wire types are encoded without json.Marshal's second pass: the line
// must still be one line of valid JSON that reads back the same.
func TestEncodeMessageWritesOneLineOfTheSameJSON(t *testing.T) {
	call := benchCall()
	call.Arguments = map[string]any{"text": "two\nlines & <tags>\u2028", "raw": json.RawMessage("{\n  \"a\": [1,\n 2]\n}")}
	call.Extra = protocol.Extra{"x_note": json.RawMessage("{\r\n\"b\": true}")}
	id := uint64(7)
	line, err := encodeMessage(&id, protocol.MethodBeforeTool, call)
	if err != nil {
		t.Fatal(err)
	}
	defer line.free()
	if n := bytes.Count(line.b, []byte("\n")); n != 1 || line.b[len(line.b)-1] != '\n' || bytes.ContainsRune(line.b, '\r') {
		t.Fatalf("not one line: %q", line.b)
	}
	var got protocol.Request
	if err := json.Unmarshal(line.b, &got); err != nil {
		t.Fatalf("%v: %s", err, line.b)
	}
	want, err := json.Marshal(protocol.Request{JSONRPC: protocol.JSONRPCVersion, ID: id, Method: protocol.MethodBeforeTool, Params: mustMarshal(t, call)})
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(line.b, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("line %s\nreads differently from %s", line.b, want)
	}
}

// A value of another package is encoded by json.Marshal, and a method
// name that needs escaping is escaped.
func TestEncodeMessageOfOtherValues(t *testing.T) {
	line, err := encodeMessage(nil, `x."quoted"`, map[string]any{"k": []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer line.free()
	want := `{"jsonrpc":"2.0","method":"x.\"quoted\"","params":{"k":[1,2]}}` + "\n"
	if string(line.b) != want {
		t.Errorf("line %q, want %q", line.b, want)
	}
}

func mustMarshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
