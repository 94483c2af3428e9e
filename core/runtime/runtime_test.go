package runtime

import (
	"context"
	"encoding/json"
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
