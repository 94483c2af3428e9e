package runtime

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/wire"

	"github.com/hookwire/hookwire/core/protocol"
)

// A reader of a hook's output that stops while the hook runs (here: a
// trace that panics on a line) fails the call in flight, saying why, and
// the hook is stopped and restarted under its restart policy.
func TestAReaderThatStopsMakesTheHookBrokenAndRestarted(t *testing.T) {
	log, logs := testLogger()
	c := &calls{}
	cfg := Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
		"fx": proc(0, []string{"before_tool"}, "-echo"),
	}}}
	trace := func(hook string, out bool, line []byte) {
		if !out && bytes.Contains(line, []byte("stop reading")) {
			panic("a reader bug")
		}
	}
	downs := make(chan string, 1)
	onDown := func(hook string, why error) { downs <- hook + ": " + why.Error() }
	r, err := New(cfg, Options{Logger: log, OnCall: c.add, Trace: trace, OnHookDown: onDown, StopTimeout: 300 * time.Millisecond, HelloTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheck(t, r) })
	first := r.hooks[0].proc.proc.Pid()

	echo := func(text string) (Decision, CallRecord) {
		_, d := r.BeforeTool(context.Background(), protocol.BeforeToolParams{Tool: "t", Arguments: map[string]any{"text": text}})
		return d, c.last(t)
	}
	_, rec := echo("stop reading")
	if rec.Err == nil || !strings.Contains(rec.Err.Error(), "the hook's stdout reader stopped: a reader bug") {
		t.Fatalf("the call failed with %v, want why the reader stopped", rec.Err)
	}
	logs.WaitFor(t, "hook is broken: stopping it")
	if got, want := <-downs, "fx: hook is broken, stopping it: the hook's stdout reader stopped: a reader bug"; got != want {
		t.Errorf("OnHookDown was told %q, want %q", got, want)
	}
	d, rec := echo("still here")
	if rec.Err != nil || d.Action != protocol.ActionRespond || d.Result.ForLLM != "still here" {
		t.Fatalf("the next call: %+v, %v", d, rec.Err)
	}
	if r.hooks[0].proc.proc.Pid() == first || len(wire.GroupMembers(first)) > 0 {
		t.Errorf("the broken hook (pid %d) was not stopped and replaced", first)
	}
}

// A hook that closes its stdout but goes on running is stopped, and the
// call in flight fails saying so.
func TestAHookThatClosesItsStdoutButRunsIsStopped(t *testing.T) {
	script := `read hello; echo '{"jsonrpc":"2.0","id":1,"result":{"ok":true}}'; exec 1>&-; read call; sleep 60`
	p := ProcessConfig{Enabled: true, Command: []string{"sh", "-c", script}, Intercept: []string{"before_tool"}}
	p.Restart = RestartConfig{Enabled: ptr(false)}
	h := startRuntime(t, map[string]ProcessConfig{"mute": p})
	pid := h.hooks[0].proc.proc.Pid()
	h.BeforeTool(context.Background(), toolReq)
	if err := h.calls.last(t).Err; err == nil || !strings.Contains(err.Error(), "hook closed its stdout but is still running") {
		t.Fatalf("the call failed with %v", err)
	}
	h.logs.WaitFor(t, "hook is broken: stopping it")
	deadline := time.Now().Add(10 * time.Second)
	for len(wire.GroupMembers(pid)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the hook's processes still run: %v", wire.GroupMembers(pid))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
