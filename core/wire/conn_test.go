package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/internal/benchdata"

	"github.com/hookwire/hookwire/core/protocol"
)

// The wire types are encoded without json.Marshal's second pass: the line
// must still be one line of valid JSON that reads back the same.
func TestEncodeMessageWritesOneLineOfTheSameJSON(t *testing.T) {
	call := benchdata.BeforeTool()
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
	if err := protocol.Unmarshal(line.b, &got); err != nil {
		t.Fatalf("%v: %s", err, line.b)
	}
	want, err := protocol.Marshal(protocol.Request{JSONRPC: protocol.JSONRPCVersion, ID: id, Method: protocol.MethodBeforeTool, Params: mustMarshal(t, call)})
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
	b, err := protocol.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// countingWriter records each write, as a pipe would see its syscalls.
type countingWriter struct {
	mu     sync.Mutex
	writes [][]byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

// A burst of notifications goes out in few writes, each of whole lines and
// no longer than a pipe takes at once, in order; a line longer than that
// goes alone.
func TestNotifyAllWritesWholeLinesTogether(t *testing.T) {
	idle, _ := io.Pipe()
	w := &countingWriter{}
	c := NewConn(idle, w, ConnOptions{Logger: slog.New(slog.DiscardHandler)})
	defer c.Close()
	var evs []protocol.RuntimeEvent
	for i := range 100 {
		payload := `{"n":` + strconv.Itoa(i) + `}`
		if i == 50 {
			payload = `{"n":50,"long":"` + strings.Repeat("x", 2*pipeBuf) + `"}`
		}
		evs = append(evs, protocol.RuntimeEvent{Kind: protocol.KindTurnStart, Payload: json.RawMessage(payload)})
	}
	sent, err := notifyAll(context.Background(), c, protocol.MethodRuntimeEvent, evs)
	if err != nil || sent != len(evs) {
		t.Fatalf("sent %d of %d, err %v", sent, len(evs), err)
	}
	if len(w.writes) >= len(evs)/2 {
		t.Errorf("%d writes for %d events", len(w.writes), len(evs))
	}
	next := 0
	for _, b := range w.writes {
		if len(b) > pipeBuf && bytes.Count(b, []byte("\n")) != 1 {
			t.Errorf("a write of %d bytes holds more than one line", len(b))
		}
		if b[len(b)-1] != '\n' {
			t.Fatalf("a write ends in the middle of a line: %q", b)
		}
		for line := range bytes.Lines(b) {
			var n protocol.Notification
			if err := protocol.Unmarshal(line, &n); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			var ev protocol.RuntimeEvent
			var p struct{ N int }
			if err := protocol.Unmarshal(n.Params, &ev); err != nil || json.Unmarshal(ev.Payload, &p) != nil || p.N != next {
				t.Fatalf("line %d is %s", next, line)
			}
			next++
		}
	}
	if next != len(evs) {
		t.Errorf("%d events written, want %d", next, len(evs))
	}
}

// batchRecorder is an observer of batches whose first delivery waits for
