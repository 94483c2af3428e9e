package runtime

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// hostileLines are lines a broken hook may print: none is a reply the
// runtime may accept, and none may keep it from reading the next line.
func hostileLines() [][]byte {
	lines := []string{
		`{"jsonrpc":"2.0","id":2]}`, // a closing bracket of the other kind
		`{"jsonrpc":"2.0","id":2,"result":[}`,
		`]`, `}`, `[`, `{`, `]]]]`, `}}}}`, `[}`, `{]`, `:`, `,`, `"`,
		`{"jsonrpc":"2.0","id":2,"result":{"action":"continue"`, // truncated
		`{"jsonrpc":"2.0","id":2,"result":`,
		`{"jsonrpc":"2.0","id"`,
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"unterminated}}`,
		`"unterminated`,
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"\x"}}`, // invalid escapes
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"\u12"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"\`,
		"{\"jsonrpc\":\"2.0\",\"reason\":\"\xff\xfe\"}", // invalid UTF-8
		"\xc3\x28",
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"reason\":\"a\x00b\"}}", // a NUL byte
		"\x00",
		`{"jsonrpc":"2.0","id":1e999,"result":{}}`, `1e999`,
		`{"jsonrpc":"2.0","id":-,"result":{}}`, `-`,
		`{"jsonrpc":"2.0","id":2,"id":3,"result":{"action":"continue"}}`, // duplicate keys
		`{"jsonrpc":"2.0","id":2,"result":{"action":"continue","action":"abort_turn"}}`,
		strings.Repeat("[", 100000),
		strings.Repeat(`{"a":`, 100000),
		strings.Repeat("[", 100000) + strings.Repeat("}", 100000),
	}
	// A bracket of the other kind at every depth, both ways.
	for depth := 1; depth <= 12; depth++ {
		for _, wrong := range []struct{ open, close string }{{`{"a":`, "]"}, {"[", "}"}} {
			head := `{"jsonrpc":"2.0","id":2,"result":` + strings.Repeat(wrong.open, depth) + `1`
			lines = append(lines, head+strings.Repeat(wrong.close, depth)+"}")
			lines = append(lines, head+wrong.close+`,"x":2}`)
		}
	}
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = []byte(l)
	}
	return out
}

// A hook that prints any of the hostile lines before its reply is still
// heard: each next call is answered, no goroutine of the runtime spins
// on a line it cannot read, and none outlives Close.
func TestHostileLinesBeforeARealReplyLeaveTheNextCallAnsweredAndTheRuntimeIdle(t *testing.T) {
	lines := hostileLines()
	file := filepath.Join(t.TempDir(), "before")
	if err := os.WriteFile(file, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	log, logs := testLogger()
	var last CallRecord
	r, err := New(Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
		"hostile": proc(0, []string{"before_tool"}, "-before", file),
	}}}, Options{Logger: log, StopTimeout: 300 * time.Millisecond, HelloTimeout: 5 * time.Second, OnCall: func(c CallRecord) { last = c }})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil { // hello's reply comes after the first line
		t.Fatal(err)
	}
	for i, line := range lines[1:] {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, d := r.BeforeTool(ctx, protocol.BeforeToolParams{Tool: "t", Arguments: map[string]any{}})
		cancel()
		if !d.Continue() || last.Err != nil || last.Result == nil {
			t.Fatalf("call %d, after %.60q: %+v, %v; want the hook's continue", i+2, line, d, last.Err)
		}
	}
	if spinning := busyGoroutines(); len(spinning) > 0 {
		t.Errorf("goroutines of the runtime kept running while it waited:\n%s", strings.Join(spinning, "\n\n"))
	}
	closeAndCheck(t, r)
	if left := runtimeGoroutines(3 * time.Second); len(left) > 0 {
		t.Errorf("goroutines of the runtime outlived Close:\n%s", strings.Join(left, "\n\n"))
	}
	if strings.Contains(logs.String(), "unknown id") {
		t.Errorf("a hostile line was taken for a reply:\n%s", logs)
	}
}

// goroutines are the stacks of this process's goroutines that run code of
// this package, other than tests.
func goroutines() map[string]string {
	buf := make([]byte, 1<<22)
	buf = buf[:goruntime.Stack(buf, true)]
	found := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "core/runtime.") || strings.Contains(g, "core/runtime.Test") || strings.Contains(g, "testing.(*F)") {
			continue
		}
		head, _, _ := strings.Cut(g, "\n")
		found[strings.TrimSuffix(strings.SplitN(head, " [", 2)[0], ":")] = g
	}
	return found
}

// busyGoroutines are goroutines of the runtime that are running or ready
// to run in each of several looks: an idle runtime waits.
func busyGoroutines() []string {
	var busy map[string]string
	for look := range 10 {
		now := map[string]string{}
		for id, g := range goroutines() {
			head, _, _ := strings.Cut(g, "\n")
			if (busy == nil || busy[id] != "") && (strings.Contains(head, "[running") || strings.Contains(head, "[runnable")) {
				now[id] = g
			}
		}
		busy = now
		if len(busy) == 0 || look == 9 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var out []string
	for _, g := range busy {
		out = append(out, g)
	}
	return out
}

// runtimeGoroutines waits up to limit for the runtime's goroutines to end,
// and lists those that did not.
func runtimeGoroutines(limit time.Duration) []string {
	deadline := time.Now().Add(limit)
	for {
		left := goroutines()
		if len(left) == 0 || time.Now().After(deadline) {
			var out []string
			for _, g := range left {
				out = append(out, g)
			}
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}
