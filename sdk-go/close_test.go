package hookwire

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestOnCloseRunsInOrderOnceTheHandlersInFlightAreDoneWhenInputEnds(t *testing.T) {
	h, logs := newTestHook("h")
	var mu sync.Mutex
	var happened []string
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		happened = append(happened, s)
	}
	started, finish := make(chan struct{}), make(chan struct{})
	h.OnBeforeTool(func(ctx context.Context, call BeforeToolParams) (BeforeToolResult, error) {
		close(started)
		<-finish
		note("handler done")
		return Continue{}, nil
	})
	h.OnClose(func(ctx context.Context) { note("first closer") })
	h.OnClose(func(ctx context.Context) { panic("closer broke") })
	h.OnClose(func(ctx context.Context) { note("third closer") })

	p := servePipe(t, ctx, h)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{"tool":"t","arguments":{}}}`)
	<-started
	p.in.Close()
	time.Sleep(20 * time.Millisecond) // room for a closer that would not wait
	close(finish)
	if err, rest := p.end(); err != nil || len(rest) != 1 {
		t.Fatalf("Serve returned %v with replies %q", err, rest)
	}
	if want := []string{"handler done", "first closer", "third closer"}; !slices.Equal(happened, want) {
		t.Errorf("happened %q, want %q", happened, want)
	}
	if !strings.Contains(logs.String(), "closer broke") {
		t.Errorf("the panic is not in the log:\n%s", logs)
	}
}

// After a signal the handlers' context is cancelled; the closers' is not,
// so that they can still write what they keep.
func TestOnCloseRunsWhenServeIsCancelledWithAContextThatIsNot(t *testing.T) {
	h := New("h")
	type key struct{}
	closed := make(chan context.Context, 1)
	h.OnClose(func(ctx context.Context) { closed <- ctx })
	cctx, cancel := context.WithCancel(context.WithValue(ctx, key{}, "kept"))
	p := servePipe(t, cctx, h)
	cancel()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return")
	}
	got := <-closed
	if got.Err() != nil || got.Value(key{}) != "kept" {
		t.Errorf("the closer's context: err %v, value %v", got.Err(), got.Value(key{}))
	}
}

func TestHostExtensionsAreThoseOfTheLastHello(t *testing.T) {
	h := New("h")
	if got := h.HostExtensions(); got != nil {
		t.Errorf("before hello: %q", got)
	}
	hello := func(params string) {
		t.Helper()
		if _, err := h.Call(ctx, MethodHello, []byte(params)); err != nil {
			t.Fatal(err)
		}
	}
	hello(`{"name":"h","version":1,"modes":["approve"],"extensions":["approve_tool.abstain","approve_tool.arguments"]}`)
	got := h.HostExtensions()
	if want := []string{"approve_tool.abstain", "approve_tool.arguments"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	got[0] = "changed by the caller"
	if h.HostExtensions()[0] != "approve_tool.abstain" {
		t.Error("the caller changed the hook's list")
	}
	hello(`{"name":"h","version":1,"modes":["approve"]}`)
	if got := h.HostExtensions(); len(got) != 0 {
		t.Errorf("after a hello without extensions: %q", got)
	}
}
