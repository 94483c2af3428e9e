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

	"github.com/hookwire/hookwire/core/internal/testbin"

	"github.com/hookwire/hookwire/core/protocol"
)

// A hook that prints any of the hostile lines before its reply is still
// heard: each next call is answered, no goroutine of the runtime spins
// on a line it cannot read, and none outlives Close.
func TestHostileLinesBeforeARealReplyLeaveTheNextCallAnsweredAndTheRuntimeIdle(t *testing.T) {
	lines := testbin.HostileLines()
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
// this package or of the wire below it, other than tests.
func goroutines() map[string]string {
	buf := make([]byte, 1<<22)
	buf = buf[:goruntime.Stack(buf, true)]
	found := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		ours := strings.Contains(g, "core/runtime.") || strings.Contains(g, "core/wire.")
		if !ours || strings.Contains(g, "core/runtime.Test") || strings.Contains(g, "testing.(*F)") {
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
