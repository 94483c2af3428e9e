package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
)

// startHost runs a runtime that behaves as host, with the given process
// hooks and in-process hooks, and closes it when the test ends.
func startHost(t *testing.T, hst *host.Host, timeoutMS int, procs map[string]ProcessConfig, inproc ...InProcess) harness {
	t.Helper()
	log, logs := testLogger()
	c := &calls{}
	cfg := Config{Hooks: HooksConfig{Enabled: true, Processes: procs, Defaults: DefaultsConfig{InterceptorTimeoutMS: timeoutMS}}}
	r, err := New(cfg, Options{Logger: log, OnCall: c.add, Host: hst, StopTimeout: 300 * time.Millisecond, HelloTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range inproc {
		if err := r.Use(h); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheck(t, r) })
	return harness{r, c, logs}
}

// injector adds a tool and rewrites the system message in before_llm, as
// plugin hooks and skill prompts do; it abstains or approves with new
// arguments, with a reason every time.
type injector struct{ abstain bool }

func (injector) BeforeLLM(_ context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	req.Tools = append(req.Tools, protocol.ToolDefinition{Type: "function", Function: protocol.FunctionDefinition{Name: "get_weather"}})
	req.Messages = append([]protocol.Message{{Role: "system", Content: ptr("You are a weather bot.")}}, req.Messages...)
	req.Messages = append(req.Messages, protocol.Message{Role: "user", Content: ptr("and tomorrow?")})
	return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: req}, nil
}

func (injector) AfterLLM(context.Context, protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	return protocol.AbortTurn{Action: protocol.ActionAbortTurn, Reason: ptr("over budget")}, nil
}

func (i injector) ApproveTool(context.Context, protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	if i.abstain {
		return protocol.ApproveToolResult{Abstain: ptr(true), Reason: ptr("no opinion")}, nil
	}
	return protocol.ApproveToolResult{Approved: true, Arguments: map[string]any{"text": "changed"}}, nil
}

func TestUnderPicoClawToolsAndSystemMessagesChangedInBeforeLLMAreRevertedAndSaidSo(t *testing.T) {
	for _, hst := range []*host.Host{host.Reference, host.PicoClaw} {
		r := startHost(t, hst, 0, nil, InProcess{Name: "inject", Hook: injector{}})
		req, d := r.BeforeLLM(context.Background(), llmReq)
		if !d.Continue() {
			t.Fatalf("%s: %+v", hst, d)
		}
		last := *req.Messages[len(req.Messages)-1].Content
		discarded := r.calls.last(t).Discarded
		switch hst {
		case host.Reference:
			if len(req.Tools) != 1 || req.Messages[0].Role != "system" || discarded != nil {
				t.Errorf("reference: the hook's request stands; got tools %v, messages %d, discarded %v", req.Tools, len(req.Messages), discarded)
			}
		case host.PicoClaw:
			// The system message changed: the whole list goes back, the
			// added user message too.
			if len(req.Tools) != 0 || len(req.Messages) != len(llmReq.Messages) || req.Messages[0].Role != "user" || last == "and tomorrow?" {
				t.Errorf("picoclaw: the tools and the whole message list go back; got tools %v, messages %+v", req.Tools, req.Messages)
			}
			if len(discarded) != 2 || !strings.Contains(discarded[0], "(added get_weather) reverted") || !strings.Contains(discarded[1], "restores the whole message list") {
				t.Errorf("picoclaw: discarded %q", discarded)
			}
		}
	}
}

func TestUnderPicoClawReasonsAreDroppedExceptOnDenials(t *testing.T) {
	r := startHost(t, host.PicoClaw, 0, nil, InProcess{Name: "inject", Hook: injector{abstain: true}})
	if _, d := r.AfterLLM(context.Background(), llmResp); d.Action != protocol.ActionAbortTurn || d.Reason != "" {
		t.Errorf("abort_turn: %+v, want no reason", d)
	}
	// An abstention is a denial there, and its reason is not read.
	if d := r.ApproveTool(context.Background(), apprReq); d.Action != protocol.ActionDenyTool || d.ByDefault || d.Reason != "" {
		t.Errorf("abstain: %+v, want a denial by the hook, with no reason", d)
	}
	if got := r.calls.last(t).Discarded; len(got) != 1 || !strings.HasPrefix(got[0], "abstain ignored") {
		t.Errorf("discarded %q", got)
	}
}

func TestUnderPicoClawAnApprovalsArgumentsAreIgnored(t *testing.T) {
	r := startHost(t, host.PicoClaw, 0, nil, InProcess{Name: "inject", Hook: injector{}})
	if d := r.ApproveTool(context.Background(), apprReq); !d.Continue() || d.Arguments != nil {
		t.Errorf("%+v, want approved with the call's own arguments", d)
	}
}

func TestUnderPicoClawAReplyLineOverOneMiBStopsTheHooksReaderForGood(t *testing.T) {
	for _, hst := range []*host.Host{host.Reference, host.PicoClaw} {
		// Under the reference host, a deadline long enough for a 2 MiB reply
		// on a slow machine; under PicoClaw every call waits for all of it.
		timeout := map[*host.Host]int{host.Reference: 20000, host.PicoClaw: 5000}[hst]
		r := startHost(t, hst, timeout, map[string]ProcessConfig{"echo": proc(1, []string{"before_tool"}, "-echo")})
		big := toolReq
		big.Arguments = map[string]any{"size": 2 << 20}
		_, d := r.BeforeTool(context.Background(), big)
		if want := map[*host.Host]protocol.Action{host.Reference: protocol.ActionRespond, host.PicoClaw: protocol.ActionContinue}[hst]; d.Action != want {
			t.Errorf("%s: a 2 MiB reply: %+v, want %s", hst, d, want)
		}
		_, d = r.BeforeTool(context.Background(), toolReq)
		next := r.calls.last(t)
		switch hst {
		case host.Reference:
			if d.Action != protocol.ActionRespond || next.Err != nil {
				t.Errorf("reference: the next call is answered, got %+v (%v)", d, next.Err)
			}
		case host.PicoClaw:
			if d.Action != protocol.ActionContinue || !errors.Is(next.Err, context.DeadlineExceeded) {
				t.Errorf("picoclaw: the next call gets no reply, got %+v (%v)", d, next.Err)
			}
		}
	}
}

// PicoClaw reads the hello reply: an error or a result that is not an
// object fails the hook's start, and with it the agent's, in PicoClaw's
// words; null and any object, ok: false included, are fine. A hello that
// never comes is reported, after a bound, as one PicoClaw would wait for
// forever.
func TestUnderPicoClawTheHelloReplyIsReadAsPicoClawReadsIt(t *testing.T) {
	for _, c := range []struct {
		hello string
		fails string // a part of the start's error; "" when the hook starts
	}{
		{"ok", ""},
		{"refuse", ""},
		{"null", ""},
		{"error", `start process hook "h": hook h: hook.hello: json-rpc error -32000: not today`},
		{"string", `start process hook "h": hook h: hook.hello: the result is not a JSON object: "ready"`},
		{"hang", `start process hook "h": hook h: no hook.hello reply: PicoClaw would wait here forever`},
	} {
		procs := map[string]ProcessConfig{"h": proc(1, []string{"before_tool"}, "-hello", c.hello, "-echo")}
		r, err := New(Config{Hooks: HooksConfig{Enabled: true, Processes: procs}}, Options{Host: host.PicoClaw, StopTimeout: 300 * time.Millisecond, HelloTimeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		err = r.Start(context.Background())
		if c.fails == "" {
			if err != nil {
				t.Errorf("hello %s: %v, want the hook started", c.hello, err)
			} else if _, d := r.BeforeTool(context.Background(), toolReq); d.Action != protocol.ActionRespond {
				t.Errorf("hello %s: the hook does not run: %+v", c.hello, d)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.fails) {
			t.Errorf("hello %s: the start says %v, want %q", c.hello, err, c.fails)
		}
		r.Close()
	}
}

func TestTheReferenceRuntimeAnnouncesItsReplyLineLimitInHelloAndPicoClawNothing(t *testing.T) {
	for _, hst := range []*host.Host{host.Reference, host.PicoClaw} {
		file := filepath.Join(t.TempDir(), "received")
		startHost(t, hst, 0, map[string]ProcessConfig{"rec": proc(1, []string{"before_tool"}, "-record", file)}).Close()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		hello, _, _ := strings.Cut(string(data), "\n")
		announces := strings.Contains(hello, `"max_line_bytes":67108864`) && strings.Contains(hello, `"extensions":[`)
		if announces != (hst == host.Reference) {
			t.Errorf("%s: hello %s", hst, hello)
		}
	}
}

func TestUnderPicoClawACrashedHookIsNeverRestarted(t *testing.T) {
	once := filepath.Join(t.TempDir(), "crashed")
	r := startHost(t, host.PicoClaw, 1000, map[string]ProcessConfig{"crash": proc(1, []string{"before_tool"}, "-echo", "-crash", "hook.before_tool", "-once", once)})
	r.BeforeTool(context.Background(), toolReq) // crashes it
	time.Sleep(300 * time.Millisecond)          // a restart would be done by now (100 ms backoff)
	if _, d := r.BeforeTool(context.Background(), toolReq); d.Action != protocol.ActionContinue || r.calls.last(t).Err == nil {
		t.Errorf("the crashed hook answered: %+v", d)
	}
}

type sessionWatcher chan string

func (w sessionWatcher) OnEvent(_ context.Context, ev protocol.RuntimeEvent) error {
	w <- ev.Kind
	return nil
}

func TestUnderPicoClawObserversGetNoSessionEvents(t *testing.T) {
	seen := sessionWatcher(make(chan string, 4))
	r := startHost(t, host.PicoClaw, 0, nil, InProcess{Name: "watch", Hook: seen, Observe: []string{"*"}})
	r.Emit(protocol.RuntimeEvent{Kind: protocol.KindSessionStart})
	r.Emit(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	r.Close() // delivers what is queued
	close(seen)
	var kinds []string
	for k := range seen {
		kinds = append(kinds, k)
	}
	if len(kinds) != 1 || kinds[0] != protocol.KindTurnStart {
		t.Errorf("the observer saw %v, want only %s", kinds, protocol.KindTurnStart)
	}
}

// Under a host whose reader stops at a reply line over its limit (as
// PicoClaw's line scanner does), the call that met the line and every later
// call to that hook get no reply, until their deadlines, and the log says
// why; under a host that skips such a line, only that call fails.
func TestAReplyLineOverTheLimitStopsTheReaderOnlyUnderAHostThatStopsReading(t *testing.T) {
	long := protocol.BeforeToolParams{Meta: meta, Tool: "echo_text", Arguments: map[string]any{"size": 8192}}
	for _, stops := range []bool{false, true} {
		hst := &host.Host{Name: "scanner", Title: "Scanner", MaxLineSize: 4096, StopsReadingAfterLongLine: stops}
		r := startHost(t, hst, 300, map[string]ProcessConfig{"echo": proc(0, []string{"before_tool"}, "-echo")})
		r.BeforeTool(context.Background(), long)
		var tooLong *LineTooLongError
		err := r.calls.last(t).Err
		switch {
		case stops && (err == nil || errors.As(err, &tooLong) || !strings.Contains(err.Error(), "no reply within 300ms")):
			t.Errorf("stops: the long reply's call failed with %v, want no reply by its deadline", err)
		case !stops && !errors.As(err, &tooLong):
			t.Errorf("the long reply's call failed with %v, want the line over the limit", err)
		}
		_, d := r.BeforeTool(context.Background(), toolReq)
		err = r.calls.last(t).Err
		switch {
		case stops && (err == nil || !strings.Contains(err.Error(), "no reply within 300ms")):
			t.Errorf("stops: the next call failed with %v (decided %+v), want no reply by its deadline", err, d)
		case !stops && (d.Action != protocol.ActionRespond || d.Result.ForLLM != "hi"):
			t.Errorf("the next call decided %+v, want the hook's respond", d)
		}
		if said := strings.Contains(r.logs.String(), "its reader of the hook stops for good"); said != stops {
			t.Errorf("stops %v: the log says the reader stopped: %v\n%s", stops, said, r.logs)
		}
	}
}
