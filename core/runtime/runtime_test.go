package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/internal/testbin"
	"github.com/hookwire/hookwire/core/internal/testlog"
	"github.com/hookwire/hookwire/core/wire"

	"github.com/hookwire/hookwire/core/protocol"
)

// calls collects the runtime's call records.
type calls struct {
	mu   sync.Mutex
	list []CallRecord
}

func (c *calls) add(r CallRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, r)
}

func (c *calls) last(t *testing.T) CallRecord {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.list) == 0 {
		t.Fatal("no hook was called")
	}
	return c.list[len(c.list)-1]
}

type harness struct {
	*Runtime
	calls *calls
	logs  *testlog.Buffer
}

// proc is an enabled process hook running the fixture with flags.
func proc(priority int, intercept []string, flags ...string) ProcessConfig {
	return ProcessConfig{Enabled: true, Priority: priority, Command: fixture(flags...), Intercept: intercept}
}

// startRuntime runs a runtime with the given process hooks and in-process hooks,
// and closes it when the test ends, checking that no hook process is left.
func startRuntime(t *testing.T, procs map[string]ProcessConfig, inproc ...InProcess) harness {
	t.Helper()
	return startHost(t, host.Reference, 0, procs, inproc...)
}

func closeAndCheck(t *testing.T, r *Runtime) {
	var pids []int
	for _, h := range r.hooks {
		if h.proc != nil {
			if p, err := h.proc.current(canceled(), time.Time{}); err == nil {
				pids = append(pids, p.Pid())
			}
		}
	}
	r.Close()
	for _, pid := range pids {
		if left := wire.GroupMembers(pid); len(left) > 0 {
			t.Errorf("processes left behind in group %d: %v", pid, left)
		}
	}
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func ptr[T any](v T) *T { return &v }

var (
	meta    = &protocol.Meta{AgentID: ptr("agent-1"), TurnID: ptr("turn-1")}
	llmReq  = protocol.BeforeLLMParams{Meta: meta, Model: "m", Messages: []protocol.Message{{Role: "user", Content: ptr("hi")}}, Options: map[string]any{"temperature": 0.5}}
	llmResp = protocol.AfterLLMParams{Meta: meta, Model: "m", Response: protocol.LLMResponse{Content: ptr("hello")}}
	toolReq = protocol.BeforeToolParams{Meta: meta, Tool: "echo_text", Arguments: map[string]any{"text": "hi"}}
	apprReq = protocol.ApproveToolParams{Meta: meta, Tool: "echo_text", Arguments: map[string]any{"text": "hi"}}
	toolRes = protocol.AfterToolParams{Meta: meta, Tool: "echo_text", Arguments: map[string]any{"text": "hi"}, Result: protocol.ToolResult{ForLLM: "hi"}, Duration: ptr(int64(1500))}
)

// ask runs one stage with its sample object and returns what came out.
func ask(r *Runtime, s Stage) (any, Decision) {
	ctx := context.Background()
	switch s {
	case StageBeforeLLM:
		return r.BeforeLLM(ctx, llmReq)
	case StageAfterLLM:
		return r.AfterLLM(ctx, llmResp)
	case StageBeforeTool:
		return r.BeforeTool(ctx, toolReq)
	case StageAfterTool:
		return r.AfterTool(ctx, toolRes)
	}
	return apprReq, r.ApproveTool(ctx, apprReq)
}

func TestEveryActionOfEveryMethod(t *testing.T) {
	type check func(t *testing.T, out any, d Decision)
	decided := func(action protocol.Action, reason string) check {
		return func(t *testing.T, _ any, d Decision) {
			if d.Action != action || d.Reason != reason || (action != protocol.ActionContinue && d.Hook != "h") {
				t.Errorf("decision = %+v, want %s by h, reason %q", d, action, reason)
			}
		}
	}
	unchanged := func(t *testing.T, out any, d Decision) {
		if d.Action != protocol.ActionContinue {
			t.Errorf("decision = %+v, want continue", d)
		}
		switch o := out.(type) {
		case protocol.BeforeLLMParams:
			same(t, o, llmReq)
		case protocol.AfterLLMParams:
			same(t, o, llmResp)
		case protocol.BeforeToolParams:
			same(t, o, toolReq)
		case protocol.AfterToolParams:
			same(t, o, toolRes)
		}
	}
	for _, tc := range []struct {
		stage  Stage
		result string
		check  check
	}{
		{StageBeforeLLM, `{"action":"continue"}`, unchanged},
		{StageBeforeLLM, `{}`, unchanged},
		{StageBeforeLLM, `{"action":""}`, unchanged},
		{StageBeforeLLM, `{"action":"modify","request":{"model":"other","messages":[{"role":"user","content":"bye"}]}}`,
			func(t *testing.T, out any, d Decision) {
				req := out.(protocol.BeforeLLMParams)
				if d.Action != protocol.ActionContinue || req.Model != "other" || *req.Messages[0].Content != "bye" {
					t.Errorf("got %+v, %+v", req, d)
				}
				if req.Options != nil {
					t.Errorf("options survived a modify that left them out: %v (modify replaces, it does not merge)", req.Options)
				}
				if req.Meta != meta {
					t.Errorf("meta = %v, want the host's", req.Meta)
				}
			}},
		{StageBeforeLLM, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageBeforeLLM, `{"action":"hard_abort","reason":"stop"}`, decided(protocol.ActionHardAbort, "stop")},
		{StageAfterLLM, `{"action":"continue"}`, unchanged},
		{StageAfterLLM, `{"action":"modify","response":{"model":"m","response":{"content":"changed"}}}`,
			func(t *testing.T, out any, d Decision) {
				resp := out.(protocol.AfterLLMParams)
				if d.Action != protocol.ActionContinue || *resp.Response.Content != "changed" || resp.Meta != meta {
					t.Errorf("got %+v, %+v", resp, d)
				}
			}},
		{StageAfterLLM, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageAfterLLM, `{"action":"hard_abort"}`, decided(protocol.ActionHardAbort, "")},
		{StageBeforeTool, `{"action":"continue"}`, unchanged},
		{StageBeforeTool, `{"action":"modify","call":{"tool":"read_file","arguments":{"path":"a"}}}`,
			func(t *testing.T, out any, d Decision) {
				call := out.(protocol.BeforeToolParams)
				if d.Action != protocol.ActionContinue || call.Tool != "read_file" || call.Arguments["path"] != "a" || call.Meta != meta {
					t.Errorf("got %+v, %+v", call, d)
				}
			}},
		{StageBeforeTool, `{"action":"modify","call":{"arguments":{}}}`,
			func(t *testing.T, out any, d Decision) {
				if call := out.(protocol.BeforeToolParams); call.Tool != "" {
					t.Errorf("tool = %q: a call without tool renames the tool to \"\"", call.Tool)
				}
			}},
		{StageBeforeTool, `{"action":"respond","result":{"for_llm":"sunny","is_error":false}}`,
			func(t *testing.T, out any, d Decision) {
				if d.Action != protocol.ActionRespond || d.Hook != "h" || d.Result == nil || d.Result.ForLLM != "sunny" {
					t.Errorf("decision = %+v", d)
				}
				same(t, out, toolReq)
			}},
		{StageBeforeTool, `{"action":"respond","call":{"tool":"my_plugin_tool","arguments":{"query":"q"}},"result":{"for_llm":"ok"}}`,
			func(t *testing.T, out any, d Decision) {
				if call := out.(protocol.BeforeToolParams); d.Action != protocol.ActionRespond || call.Tool != "my_plugin_tool" {
					t.Errorf("got %+v, %+v", call, d)
				}
			}},
		{StageBeforeTool, `{"action":"deny_tool","reason":"Invalid arguments"}`, decided(protocol.ActionDenyTool, "Invalid arguments")},
		{StageBeforeTool, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageBeforeTool, `{"action":"hard_abort","reason":"stop"}`, decided(protocol.ActionHardAbort, "stop")},
		{StageAfterTool, `{"action":"continue"}`, unchanged},
		{StageAfterTool, `{"action":"modify","result":{"tool":"echo_text","result":{"for_llm":"redacted"}}}`,
			func(t *testing.T, out any, d Decision) {
				res := out.(protocol.AfterToolParams)
				if d.Action != protocol.ActionContinue || res.Result.ForLLM != "redacted" || res.Meta != meta {
					t.Errorf("got %+v, %+v", res, d)
				}
			}},
		{StageAfterTool, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageAfterTool, `{"action":"hard_abort"}`, decided(protocol.ActionHardAbort, "")},
		{StageApproveTool, `{"approved":true}`, decided(protocol.ActionContinue, "")},
		{StageApproveTool, `{"approved":false,"reason":"Dangerous command"}`, decided(protocol.ActionDenyTool, "Dangerous command")},
		{StageApproveTool, `{"approved":false}`, decided(protocol.ActionDenyTool, "")},
	} {
		t.Run(string(tc.stage)+" "+tc.result, func(t *testing.T) {
			h := startRuntime(t, map[string]ProcessConfig{"h": proc(0, []string{string(tc.stage)}, "-result", tc.stage.Method()+"="+tc.result)})
			out, d := ask(h.Runtime, tc.stage)
			tc.check(t, out, d)
			if rec := h.calls.last(t); rec.Err != nil || rec.Hook != "h" || rec.Method != tc.stage.Method() {
				t.Errorf("call record = %+v", rec)
			}
		})
	}
}

func TestActionTheStageDoesNotAllowIsAnErrorAndTheChainGoesOn(t *testing.T) {
	for _, tc := range []struct {
		stage  Stage
		result string
	}{
		{StageBeforeLLM, `{"action":"respond","result":{"for_llm":"x"}}`},
		{StageAfterLLM, `{"action":"deny_tool","reason":"x"}`},
		{StageAfterTool, `{"action":"respond","result":{"for_llm":"x"}}`},
		{StageBeforeTool, `{"action":"explode"}`},
	} {
		t.Run(string(tc.stage), func(t *testing.T) {
			h := startRuntime(t, map[string]ProcessConfig{
				"bad":  proc(1, []string{string(tc.stage)}, "-result", tc.stage.Method()+"="+tc.result),
				"good": proc(2, []string{string(tc.stage)}, "-tag", "G"),
			})
			out, d := ask(h.Runtime, tc.stage)
			if d.Action != protocol.ActionContinue {
				t.Errorf("decision = %+v, want continue", d)
			}
			if b, _ := json.Marshal(out); !strings.Contains(string(b), "G") {
				t.Errorf("the next hook did not run: %+v", out)
			}
			bad := h.calls.list[0]
			if bad.Hook != "bad" || bad.Err == nil || !strings.Contains(bad.Err.Error(), "is not allowed") {
				t.Errorf("record of the bad hook = %+v", bad)
			}
			h.logs.WaitFor(t, "hook call failed")
		})
	}
}

// tagger is an in-process hook that leaves its tag in every object.
type tagger string

func (g tagger) BeforeLLM(_ context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	req.Messages = append(req.Messages, protocol.Message{Role: "system", Content: ptr(string(g))})
	return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: req}, nil
}

func (g tagger) AfterLLM(_ context.Context, resp protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	resp.Response.Content = ptr(*resp.Response.Content + string(g))
	return protocol.AfterLLMModify{Action: protocol.ActionModify, Response: resp}, nil
}

func (g tagger) BeforeTool(_ context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	args := map[string]any{}
	for k, v := range call.Arguments {
		args[k] = v
	}
	tags, _ := args["tags"].([]any)
	args["tags"] = append(slices.Clip(tags), string(g))
	call.Arguments = args
	return protocol.BeforeToolModify{Action: protocol.ActionModify, Call: call}, nil
}

func (g tagger) AfterTool(_ context.Context, res protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	res.Result.ForLLM += string(g)
	return protocol.AfterToolModify{Action: protocol.ActionModify, Result: res}, nil
}

func TestChainOfTwoProcessHooksAndOneInProcessHook(t *testing.T) {
	all := []string{"before_llm", "after_llm", "before_tool", "after_tool"}
	h := startRuntime(t, map[string]ProcessConfig{
		"a": proc(2, all, "-tag", "A"),
		"b": proc(1, all, "-tag", "B"),
	}, InProcess{Name: "c", Priority: 100, Hook: tagger("C")})
	ctx := context.Background()

	// In-process first whatever its priority, then lower priority first;
	// each hook sees what the one before it returned.
	req, d := h.BeforeLLM(ctx, llmReq)
	var tags []string
	for _, m := range req.Messages[1:] {
		tags = append(tags, *m.Content)
	}
	if !d.Continue() || strings.Join(tags, "") != "CBA" {
		t.Errorf("before_llm: tags %v, decision %+v; want C, B, A", tags, d)
	}
	if len(llmReq.Messages) != 1 {
		t.Errorf("a hook changed the caller's request: %v", llmReq.Messages)
	}
	resp, _ := h.AfterLLM(ctx, llmResp)
	if got := *resp.Response.Content; got != "helloCBA" {
		t.Errorf("after_llm: content %q, want helloCBA", got)
	}
	call, _ := h.BeforeTool(ctx, toolReq)
	if got := fmt.Sprint(call.Arguments["tags"]); got != "[C B A]" {
		t.Errorf("before_tool: tags %s, want [C B A]", got)
	}
	res, _ := h.AfterTool(ctx, toolRes)
	if res.Result.ForLLM != "hiCBA" {
		t.Errorf("after_tool: for_llm %q, want hiCBA", res.Result.ForLLM)
	}
	var order []string
	for _, c := range h.calls.list {
		order = append(order, c.Hook)
	}
	if got := strings.Join(order, ""); got != "cbacbacbacba" {
		t.Errorf("call order %q", got)
	}
}

func TestPriorityThenName(t *testing.T) {
	h := startRuntime(t, map[string]ProcessConfig{
		"zeta":  proc(1, []string{"before_llm"}, "-tag", "z"),
		"bravo": proc(5, []string{"before_llm"}, "-tag", "b"),
		"alpha": proc(5, []string{"before_llm"}, "-tag", "a"),
		"omega": proc(-3, []string{"before_llm"}, "-tag", "o"),
	})
	req, _ := h.BeforeLLM(context.Background(), llmReq)
	var tags string
	for _, m := range req.Messages[1:] {
		tags += *m.Content
	}
	if tags != "ozab" {
		t.Errorf("order %q, want ozab (priority -3, 1, then 5 by name)", tags)
	}
	var names []string
	for _, info := range h.Hooks() {
		names = append(names, info.Name)
	}
	if got := strings.Join(names, ","); got != "omega,zeta,alpha,bravo" {
		t.Errorf("Hooks() order %s", got)
	}
}

func TestTheFirstEndingActionEndsTheChain(t *testing.T) {
	for _, tc := range []struct {
		stage  Stage
		result string
		want   protocol.Action
	}{
		{StageBeforeTool, `{"action":"respond","result":{"for_llm":"x"}}`, protocol.ActionRespond},
		{StageBeforeTool, `{"action":"deny_tool","reason":"no"}`, protocol.ActionDenyTool},
		{StageBeforeTool, `{"action":"abort_turn"}`, protocol.ActionAbortTurn},
		{StageBeforeLLM, `{"action":"hard_abort"}`, protocol.ActionHardAbort},
		{StageAfterTool, `{"action":"abort_turn"}`, protocol.ActionAbortTurn},
		{StageApproveTool, `{"approved":false}`, protocol.ActionDenyTool},
	} {
		t.Run(string(tc.stage)+" "+string(tc.want), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "second")
			h := startRuntime(t, map[string]ProcessConfig{
				"first":  proc(1, []string{string(tc.stage)}, "-result", tc.stage.Method()+"="+tc.result),
				"second": proc(2, []string{string(tc.stage)}, "-record", rec),
			})
			if _, d := ask(h.Runtime, tc.stage); d.Action != tc.want || d.Hook != "first" {
				t.Errorf("decision = %+v", d)
			}
			h.Close()
			if lines := testbin.Lines(t, rec); len(lines) != 1 || !strings.Contains(lines[0], "hook.hello") {
				t.Errorf("the second hook was called after the chain ended: %q", lines)
			}
		})
	}
}

func TestAHookReceivesOnlyWhatItInterceptsAndObserves(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "received")
	h := startRuntime(t, map[string]ProcessConfig{"gate": {
		Enabled: true, Command: fixture("-record", rec),
		Intercept: []string{"before_tool"}, Observe: []string{"tool_exec_end", "agent.turn.*"},
	}})
	for _, s := range Stages {
		ask(h.Runtime, s)
	}
	for _, kind := range []string{protocol.KindTurnStart, protocol.KindLLMRequest, protocol.KindToolExecStart, protocol.KindToolExecEnd, protocol.KindTurnEnd} {
		h.Emit(protocol.RuntimeEvent{Kind: kind, Payload: json.RawMessage(`{}`)})
	}
	h.Close()
	var got []string
	for _, line := range testbin.Lines(t, rec) {
		var m struct {
			Method string
			Params struct {
				Kind  string
				Modes []string
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimSpace(m.Method+" "+m.Params.Kind+strings.Join(m.Params.Modes, ",")))
	}
	want := []string{
		"hook.hello observe,tool",
		"hook.before_tool",
		"hook.runtime_event agent.turn.start",
		"hook.runtime_event agent.tool.exec_end",
		"hook.runtime_event agent.turn.end",
	}
	// Events travel on their own queue, so they may pass the call.
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the hook received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// stuckObserver blocks on its first event until released.
type stuckObserver struct {
	entered, release chan struct{}
	mu               sync.Mutex
	got              []string
}

func (o *stuckObserver) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	o.mu.Lock()
	first := len(o.got) == 0
	o.got = append(o.got, ev.Kind)
	o.mu.Unlock()
	if first {
		close(o.entered)
		<-o.release
	}
	return nil
}

func TestObserveFanOutNeverBlocksAndCountsDrops(t *testing.T) {
	log, logs := testLogger()
	obs := &stuckObserver{entered: make(chan struct{}), release: make(chan struct{})}
	r, err := New(Config{}, Options{Logger: log, ObserveQueue: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Use(InProcess{Name: "slow", Hook: obs, Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Emit(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	<-obs.entered
	for range 5 {
		r.Emit(protocol.RuntimeEvent{Kind: protocol.KindLLMRequest}) // returns at once: the observer is stuck
	}
	if got := r.Dropped()["slow"]; got != 3 {
		t.Errorf("dropped %d events, want 3 (a queue of 2 took the first two)", got)
	}
	logs.WaitFor(t, "observe queue full: dropping events")
	close(obs.release)
	r.Close()
	if len(obs.got) != 3 {
		t.Errorf("the observer got %v, want the first event and the two queued", obs.got)
	}
}

func TestCrashMidCallFailsTheCallThenTheHookIsRestarted(t *testing.T) {
	once := filepath.Join(t.TempDir(), "crashed")
	h := startRuntime(t, map[string]ProcessConfig{"flaky": proc(0, []string{"before_tool"},
		"-crash", protocol.MethodBeforeTool, "-once", once,
		"-result", protocol.MethodBeforeTool+`={"action":"respond","result":{"for_llm":"back"}}`)})
	_, d := h.BeforeTool(context.Background(), toolReq)
	rec := h.calls.last(t)
	if rec.Err == nil || !strings.Contains(rec.Err.Error(), "hook exited with status 3") || !strings.Contains(rec.Err.Error(), "crashing on hook.before_tool") {
		t.Fatalf("the call failed with %v, want the exit status and the hook's last words", rec.Err)
	}
	if d.Action != protocol.ActionContinue || rec.Policy != FailOpen {
		t.Errorf("decision = %+v under %s, want continue (before_tool fails open)", d, rec.Policy)
	}
	_, d = h.BeforeTool(context.Background(), toolReq)
	if d.Action != protocol.ActionRespond || d.Result.ForLLM != "back" {
		t.Errorf("the next call decided %+v, want the restarted hook's respond", d)
	}
	h.logs.WaitFor(t, "restarting hook")
}

func TestHungCallMeetsItsDeadlineThenItsStagePolicy(t *testing.T) {
	for _, tc := range []struct {
		stage  Stage
		policy string
		want   protocol.Action
	}{
		{StageBeforeTool, "", protocol.ActionContinue},
		{StageBeforeTool, "closed", protocol.ActionDenyTool},
		{StageBeforeLLM, "closed", protocol.ActionAbortTurn},
		{StageAfterTool, "open", protocol.ActionContinue},
		{StageApproveTool, "", protocol.ActionDenyTool},
		{StageApproveTool, "open", protocol.ActionContinue},
	} {
		t.Run(string(tc.stage)+" "+tc.policy, func(t *testing.T) {
			p := proc(0, []string{string(tc.stage)}, "-hang", tc.stage.Method())
			p.TimeoutMS = 200
			if tc.policy != "" {
				p.FailurePolicy = map[string]string{string(tc.stage): tc.policy}
			}
			h := startRuntime(t, map[string]ProcessConfig{"stuck": p})
			_, d := ask(h.Runtime, tc.stage)
			rec := h.calls.last(t)
			if !errors.Is(rec.Err, context.DeadlineExceeded) || !strings.Contains(rec.Err.Error(), "no reply within 200ms") {
				t.Errorf("the call failed with %v, want its deadline", rec.Err)
			}
			if d.Action != tc.want {
				t.Errorf("decision = %+v, want %s", d, tc.want)
			}
			if tc.want != protocol.ActionContinue && (d.Hook != "stuck" || !strings.Contains(d.Reason, "hook stuck failed: no reply within 200ms")) {
				t.Errorf("decision = %+v, want the hook and its failure named", d)
			}
		})
	}
}

func TestApprovalFailsClosedWhenTheApproverCrashes(t *testing.T) {
	h := startRuntime(t, map[string]ProcessConfig{"gate": proc(0, []string{"approve_tool"}, "-crash", protocol.MethodApproveTool)})
	d := h.ApproveTool(context.Background(), apprReq)
	if d.Action != protocol.ActionDenyTool || !strings.Contains(d.Reason, "hook gate failed: hook exited with status 3") {
		t.Errorf("decision = %+v, want a denial naming the crash", d)
	}
}

func TestEveryApproverMustApprove(t *testing.T) {
	h := startRuntime(t, map[string]ProcessConfig{
		"yes": proc(1, []string{"approve_tool"}),
		"no":  proc(2, []string{"approve_tool"}, "-result", protocol.MethodApproveTool+`={"approved":false,"reason":"not on weekends"}`),
	})
	d := h.ApproveTool(context.Background(), apprReq)
	if d.Action != protocol.ActionDenyTool || d.Hook != "no" || d.Reason != "not on weekends" {
		t.Errorf("decision = %+v", d)
	}
}

func TestRestartGivesUpAfterMaxRestarts(t *testing.T) {
	p := proc(0, []string{"before_tool"}, "-crash", protocol.MethodBeforeTool)
	p.Restart = RestartConfig{MaxRestarts: 1, BackoffMS: 10}
	h := startRuntime(t, map[string]ProcessConfig{"doomed": p})
	h.BeforeTool(context.Background(), toolReq) // crash, restart 1
	h.BeforeTool(context.Background(), toolReq) // crash, no restart left
	h.BeforeTool(context.Background(), toolReq)
	if err := h.calls.last(t).Err; err == nil || !strings.Contains(err.Error(), "gave up after 1 restarts") {
		t.Errorf("the last call failed with %v", err)
	}
}

// A call made while the hook waits to be restarted ends at its own
// deadline, not when the restart comes.
func TestACallWhileTheHookRestartsEndsAtItsDeadline(t *testing.T) {
	p := proc(0, []string{"before_tool"}, "-crash", protocol.MethodBeforeTool)
	p.TimeoutMS = 200
	p.Restart = RestartConfig{BackoffMS: 60_000}
	h := startRuntime(t, map[string]ProcessConfig{"slow-to-restart": p})
	h.BeforeTool(context.Background(), toolReq) // crashes; the restart waits a minute
	h.logs.WaitFor(t, "restarting hook")
	start := time.Now()
	h.BeforeTool(context.Background(), toolReq)
	err := h.calls.last(t).Err
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "hook is restarting") {
		t.Errorf("the call failed with %v, want its deadline while the hook restarts", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the call ended after %v, its deadline was 200ms", took)
	}
}

func TestRestartCanBeDisabled(t *testing.T) {
	p := proc(0, []string{"before_tool"}, "-crash", protocol.MethodBeforeTool)
	p.Restart = RestartConfig{Enabled: ptr(false)}
	h := startRuntime(t, map[string]ProcessConfig{"once": p})
	h.BeforeTool(context.Background(), toolReq)
	h.BeforeTool(context.Background(), toolReq)
	if err := h.calls.last(t).Err; err == nil || !strings.Contains(err.Error(), "restart is disabled") {
		t.Errorf("the second call failed with %v", err)
	}
}

type panicky struct{}

func (panicky) ApproveTool(context.Context, protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	panic("boom")
}

type sleepy struct{}

func (sleepy) BeforeTool(context.Context, protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	time.Sleep(time.Hour) // ignores its context
	return nil, nil
}

func (sleepy) AfterTool(context.Context, protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	return protocol.Continue{}, nil
}

func TestInProcessHooksCannotTakeTheRuntimeDown(t *testing.T) {
	h := startRuntime(t, nil,
		InProcess{Name: "panicky", Hook: panicky{}},
		InProcess{Name: "sleepy", Hook: sleepy{}, Timeout: 100 * time.Millisecond, FailurePolicy: map[Stage]Policy{StageBeforeTool: FailClosed}},
	)
	if d := h.ApproveTool(context.Background(), apprReq); d.Action != protocol.ActionDenyTool || !strings.Contains(d.Reason, "hook panicked: boom") {
		t.Errorf("approve_tool decided %+v", d)
	}
	if _, d := h.BeforeTool(context.Background(), toolReq); d.Action != protocol.ActionDenyTool || !strings.Contains(d.Reason, "no reply within 100ms") {
		t.Errorf("before_tool decided %+v", d)
	}
}

func TestStartFailureNamesTheHookAndStopsTheOthers(t *testing.T) {
	log, _ := testLogger()
	r, err := New(Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
		"fine":   proc(1, []string{"before_tool"}),
		"broken": proc(2, []string{"before_tool"}, "-hello", "refuse"),
	}}}, Options{Logger: log, StopTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var fine *processHook
	for _, h := range r.hooks {
		if h.name == "fine" {
			fine = h.proc
		}
	}
	err = r.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "hook broken") {
		t.Fatalf("Start: %v", err)
	}
	if _, err := fine.current(canceled(), time.Time{}); err == nil {
		t.Error("the hook that started is still running")
	}
}

func TestNoHooksLetsEverythingThrough(t *testing.T) {
	var r *Runtime
	for _, s := range Stages {
		if _, d := ask(r, s); !d.Continue() {
			t.Errorf("%s: %+v", s, d)
		}
	}
	r.Emit(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	disabled, err := New(Config{Hooks: HooksConfig{Processes: map[string]ProcessConfig{"off": proc(0, []string{"before_llm"}, "-result", protocol.MethodBeforeLLM+`={"action":"abort_turn"}`)}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := disabled.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer disabled.Close()
	if _, d := disabled.BeforeLLM(context.Background(), llmReq); !d.Continue() {
		t.Errorf("a hook ran although hooks.enabled is false: %+v", d)
	}
}

func same(t *testing.T, got, want any) {
	t.Helper()
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("got  %s\nwant %s", a, b)
	}
}

func TestTheZeroRuntimeIsUsable(t *testing.T) {
	var r Runtime
	if err := r.Use(InProcess{Name: "tag", Hook: tagger("Z")}); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if req, d := r.BeforeLLM(context.Background(), llmReq); !d.Continue() || *req.Messages[1].Content != "Z" {
		t.Errorf("request %+v, decision %+v", req, d)
	}
}

func TestNewNamesAMissingBuiltin(t *testing.T) {
	_, err := New(Config{Hooks: HooksConfig{Enabled: true, Builtins: map[string]BuiltinConfig{"audit": {Enabled: true}}}},
		Options{Builtins: map[string]Builtin{}})
	if err == nil || !strings.Contains(err.Error(), "hooks.builtins.audit: this program has no built-in hook of that name") {
		t.Errorf("err = %v", err)
	}
}

func TestTheDecisionCarriesWhatEachHookRemarksInChainOrder(t *testing.T) {
	for _, stage := range []Stage{StageBeforeTool, StageAfterTool, StageApproveTool} {
		t.Run(string(stage), func(t *testing.T) {
			answer := `{"action":"continue","context":"%s knows","message":"%s says hi"}`
			if stage == StageApproveTool {
				answer = `{"approved":true,"context":"%s knows","message":"%s says hi"}`
			}
			h := startRuntime(t, map[string]ProcessConfig{
				"first":  proc(0, []string{string(stage)}, "-result", stage.Method()+"="+fmt.Sprintf(answer, "first", "first")),
				"second": proc(1, []string{string(stage)}, "-result", stage.Method()+"="+`{"approved":true,"action":"continue"}`),
				"third":  proc(2, []string{string(stage)}, "-result", stage.Method()+"="+fmt.Sprintf(answer, "third", "third")),
			})
			_, d := ask(h.Runtime, stage)
			if !d.Continue() {
				t.Fatalf("decision %+v", d)
			}
			if want := []string{"first knows", "third knows"}; !slices.Equal(d.Context, want) {
				t.Errorf("context %q, want %q", d.Context, want)
			}
			if want := []string{"first: first says hi", "third: third says hi"}; !slices.Equal(d.Messages, want) {
				t.Errorf("messages %q, want %q", d.Messages, want)
			}
		})
	}
}
