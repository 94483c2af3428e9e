package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// hook is an in-process hook whose answers the test chooses; it remembers
// what it was asked.
type hook struct {
	mu         sync.Mutex
	asked      []string
	beforeLLM  func(protocol.BeforeLLMParams) protocol.BeforeLLMResult
	beforeTool func(protocol.BeforeToolParams) protocol.BeforeToolResult
	approve    func(protocol.ApproveToolParams) protocol.ApproveToolResult
	afterTool  func(protocol.AfterToolParams) protocol.AfterToolResult
	events     []protocol.RuntimeEvent
}

func (h *hook) note(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, s)
}

func (h *hook) BeforeLLM(_ context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	h.note("before_llm")
	if h.beforeLLM != nil {
		return h.beforeLLM(req), nil
	}
	return protocol.Continue{}, nil
}

func (h *hook) AfterLLM(context.Context, protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	h.note("after_llm")
	return protocol.Continue{}, nil
}

func (h *hook) BeforeTool(_ context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	h.note("before_tool " + call.Tool)
	if h.beforeTool != nil {
		return h.beforeTool(call), nil
	}
	return protocol.Continue{}, nil
}

func (h *hook) AfterTool(_ context.Context, res protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	h.note("after_tool " + res.Tool)
	if h.afterTool != nil {
		return h.afterTool(res), nil
	}
	return protocol.Continue{}, nil
}

func (h *hook) ApproveTool(_ context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	h.note("approve_tool " + req.Tool)
	if h.approve != nil {
		return h.approve(req), nil
	}
	return protocol.ApproveToolResult{Approved: true}, nil
}

func (h *hook) OnEvent(_ context.Context, ev protocol.RuntimeEvent) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, ev)
	return nil
}

// play runs a scenario's turn with the hook, and returns what the agent did.
func play(t *testing.T, s Scenario, h *hook) (TurnResult, error, []Step, *Agent) {
	t.Helper()
	rt, err := runtime.New(runtime.Config{}, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h != nil {
		if err := rt.Use(runtime.InProcess{Name: "h", Hook: h}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rt.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.Root == "" {
		s.Root = t.TempDir()
	}
	a := s.Agent()
	a.Hooks = rt
	var steps []Step
	a.OnStep = func(st Step) { steps = append(steps, st) }
	res, turnErr := a.RunTurn(context.Background(), s.Prompt)
	rt.Close()
	return res, turnErr, steps, a
}

func toolSteps(steps []Step) []Step {
	var out []Step
	for _, s := range steps {
		if s.Kind == StepTool {
			out = append(out, s)
		}
	}
	return out
}

func events(steps []Step) []string {
	var out []string
	for _, s := range steps {
		if s.Kind == StepEvent {
			out = append(out, s.Event)
		}
	}
	return out
}

func echo(text string) Reply {
	return Reply{ToolCalls: []ToolCall{{Name: "echo_text", Arguments: map[string]any{"text": text}}}}
}

func TestAToolRunsBetweenApprovalAndAfterTool(t *testing.T) {
	h := &hook{afterTool: func(res protocol.AfterToolParams) protocol.AfterToolResult {
		res.Result.ForLLM = strings.ToUpper(res.Result.ForLLM)
		return protocol.AfterToolModify{Action: protocol.ActionModify, Result: res}
	}}
	res, err, steps, _ := play(t, Scenario{Prompt: "say hi", Replies: []Reply{echo("hi"), {Content: "said it"}}}, h)
	if err != nil || res.Status != TurnDone || res.Answer != "said it" || res.Iterations != 2 {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	want := []string{"before_llm", "after_llm", "before_tool echo_text", "approve_tool echo_text", "after_tool echo_text", "before_llm", "after_llm"}
	if !slices.Equal(h.asked, want) {
		t.Errorf("hooks asked %v, want %v", h.asked, want)
	}
	tool := toolSteps(steps)[0]
	if tool.Outcome != ToolRan || tool.Result.ForLLM != "HI" {
		t.Errorf("tool step = %+v, want the after_tool hook's result", tool)
	}
	wantEvents := []string{
		protocol.KindSessionStart, protocol.KindTurnStart, protocol.KindLLMRequest, protocol.KindLLMResponse,
		protocol.KindToolExecStart, protocol.KindToolExecEnd,
		protocol.KindLLMRequest, protocol.KindLLMResponse, protocol.KindTurnEnd,
	}
	if got := events(steps); !slices.Equal(got, wantEvents) {
		t.Errorf("events %v, want %v", got, wantEvents)
	}
	var kinds []string
	for _, ev := range h.events {
		kinds = append(kinds, ev.Kind)
	}
	if !slices.Equal(kinds, wantEvents) {
		t.Errorf("the observer got %v", kinds)
	}
	var start map[string]any
	json.Unmarshal(h.events[4].Payload, &start)
	if start["Tool"] != "echo_text" || h.events[4].Scope.TurnID == nil || *h.events[4].Scope.TurnID != "turn-1" {
		t.Errorf("exec_start event = %+v, payload %v", h.events[4], start)
	}
}

func TestRespondSkipsTheToolItsApprovalAndAfterTool(t *testing.T) {
	h := &hook{beforeTool: func(call protocol.BeforeToolParams) protocol.BeforeToolResult {
		return protocol.Respond{Action: protocol.ActionRespond, Result: protocol.ToolResult{ForLLM: "cached: " + call.Arguments["text"].(string)}}
	}}
	_, err, steps, _ := play(t, Scenario{Prompt: "p", Replies: []Reply{echo("hi"), {Content: "ok"}}}, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range h.asked {
		if strings.HasPrefix(a, "approve_tool") || strings.HasPrefix(a, "after_tool") {
			t.Errorf("%s was asked after a respond", a)
		}
	}
	tool := toolSteps(steps)[0]
	if tool.Outcome != ToolAnswered || tool.By != "h" || tool.Result.ForLLM != "cached: hi" {
		t.Errorf("tool step = %+v", tool)
	}
}

func TestDenialsReachTheLLMAsErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		h       *hook
		outcome string
		text    string
	}{
		{"deny_tool", &hook{beforeTool: func(protocol.BeforeToolParams) protocol.BeforeToolResult {
			return protocol.DenyTool{Action: protocol.ActionDenyTool, Reason: "Invalid arguments"}
		}}, ToolDenied, "tool echo_text was denied by hook h: Invalid arguments"},
		{"approval", &hook{approve: func(protocol.ApproveToolParams) protocol.ApproveToolResult {
			return protocol.ApproveToolResult{Reason: ptr("Dangerous command")}
		}}, ToolUnapproved, "tool echo_text was not approved by hook h: Dangerous command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err, steps, _ := play(t, Scenario{Prompt: "p", Replies: []Reply{echo("hi"), {Content: "ok"}}}, tc.h)
			if err != nil {
				t.Fatal(err)
			}
			tool := toolSteps(steps)[0]
			if tool.Outcome != tc.outcome || tool.Result.ForLLM != tc.text || !*tool.Result.IsError {
				t.Errorf("tool step = %+v, result %+v", tool, tool.Result)
			}
			if !slices.Contains(events(steps), protocol.KindToolExecSkipped) || slices.Contains(events(steps), protocol.KindToolExecStart) {
				t.Errorf("events %v: want exec_skipped and no exec_start", events(steps))
			}
		})
	}
}

func TestAbortEndsTheTurnAndHardAbortStopsTheAgent(t *testing.T) {
	abort := &hook{beforeLLM: func(protocol.BeforeLLMParams) protocol.BeforeLLMResult {
		return protocol.AbortTurn{Action: protocol.ActionAbortTurn, Reason: ptr("budget exceeded")}
	}}
	res, err, _, a := play(t, Scenario{Prompt: "p", Replies: []Reply{{Content: "never"}}}, abort)
	if err != nil || res.Status != TurnAborted || res.Hook != "h" || res.Reason != "budget exceeded" {
		t.Errorf("turn = %+v, %v", res, err)
	}
	if a.stopped.Load() {
		t.Error("abort_turn stopped the agent")
	}
	hard := &hook{beforeTool: func(protocol.BeforeToolParams) protocol.BeforeToolResult {
		return protocol.HardAbort{Action: protocol.ActionHardAbort, Reason: ptr("kill switch")}
	}}
	res, err, _, a = play(t, Scenario{Prompt: "p", Replies: []Reply{echo("x"), {Content: "never"}}}, hard)
	if err != nil || res.Status != TurnHardAborted || res.Reason != "kill switch" {
		t.Errorf("turn = %+v, %v", res, err)
	}
	if _, err := a.RunTurn(context.Background(), "again"); !errors.Is(err, ErrStopped) {
		t.Errorf("the next turn ran: %v", err)
	}
}

func TestToolsInjectedInBeforeLLMReachTheLLMAndAreAnsweredByTheHook(t *testing.T) {
	weather := protocol.ToolDefinition{Type: "function", Function: protocol.FunctionDefinition{Name: "get_weather"}}
	h := &hook{
		beforeLLM: func(req protocol.BeforeLLMParams) protocol.BeforeLLMResult {
			req.Tools = append(req.Tools, weather)
			return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: req}
		},
		beforeTool: func(call protocol.BeforeToolParams) protocol.BeforeToolResult {
			if call.Tool != "get_weather" {
				return protocol.Continue{}
			}
			return protocol.Respond{Action: protocol.ActionRespond, Result: protocol.ToolResult{ForLLM: "Sunny in " + call.Arguments["city"].(string)}}
		},
	}
	s := Scenario{Prompt: "weather?", Replies: []Reply{
		{ToolCalls: []ToolCall{{Name: "get_weather", Arguments: map[string]any{"city": "Beijing"}}, {Name: "echo_text", Arguments: map[string]any{"text": "hi"}}}},
		{Content: "Sunny."},
	}}
	res, err, steps, _ := play(t, s, h)
	if err != nil || res.Answer != "Sunny." {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	tools := toolSteps(steps)
	if tools[0].Outcome != ToolAnswered || tools[0].Result.ForLLM != "Sunny in Beijing" {
		t.Errorf("get_weather: %+v", tools[0])
	}
	if tools[1].Outcome != ToolRan || tools[1].Result.ForLLM != "hi" {
		t.Errorf("echo_text, which the hook let through: %+v", tools[1])
	}
	for _, s := range steps {
		if s.Kind == StepLLMRequest && !slices.Equal(s.Tools, []string{"echo_text", "read_file", "get_weather"}) {
			t.Errorf("round %d offered %v", s.Iteration, s.Tools)
		}
	}
	_, err, _, _ = play(t, s, nil)
	if err == nil || !strings.Contains(err.Error(), "reply 1 calls get_weather, but the request offers no such tool") {
		t.Errorf("without the hook: %v", err)
	}
}

func TestResponseHandledEndsTheTurn(t *testing.T) {
	h := &hook{beforeTool: func(protocol.BeforeToolParams) protocol.BeforeToolResult {
		return protocol.Respond{Action: protocol.ActionRespond, Result: protocol.ToolResult{
			ForLLM: "Image sent to user", ForUser: ptr("here is your picture"), Media: []string{"media://abc123"}, ResponseHandled: ptr(true)}}
	}}
	res, err, _, _ := play(t, Scenario{Prompt: "p", Replies: []Reply{echo("draw"), {Content: "never asked"}}}, h)
	if err != nil || res.Status != TurnDone || res.Answer != "here is your picture" || res.Iterations != 1 {
		t.Errorf("turn = %+v, %v", res, err)
	}
}

func TestTheScriptRunningOutFailsTheTurn(t *testing.T) {
	res, err, _, _ := play(t, Scenario{Prompt: "p", Replies: []Reply{echo("1")}}, nil)
	if err == nil || res.Status != TurnFailed || !strings.Contains(err.Error(), "request 2 has no reply left (the scenario has 1)") {
		t.Errorf("turn = %+v, %v", res, err)
	}
}

func TestReadFileStaysInsideItsRoot(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("inside"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt"))
	tool := ReadFile{Root: root}
	if got := tool.Run(context.Background(), map[string]any{"path": "notes.txt"}); got.ForLLM != "inside" || got.IsError != nil {
		t.Errorf("notes.txt: %+v", got)
	}
	for _, path := range []string{"../" + filepath.Base(outside) + "/secret.txt", filepath.Join(outside, "secret.txt"), "link.txt", "missing.txt"} {
		got := tool.Run(context.Background(), map[string]any{"path": path})
		if got.IsError == nil || !*got.IsError || strings.Contains(got.ForLLM, "outside") {
			t.Errorf("%s: %+v", path, got)
		}
	}
	if got := tool.Run(context.Background(), map[string]any{"path": 3}); !strings.Contains(got.ForLLM, "path must be a string") {
		t.Errorf("bad argument: %+v", got)
	}
}

func TestLoadScenario(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	os.WriteFile(path, []byte(`{"prompt":"p","root":"files","tools":["echo_text"],"replies":[{"content":"x"}]}`), 0o644)
	s, err := LoadScenario(path)
	if err != nil || s.Root != filepath.Join(dir, "files") || len(s.Agent().Tools) != 1 {
		t.Errorf("scenario = %+v, %v", s, err)
	}
	for body, want := range map[string]string{
		`{"replies":[{"content":"x"}]}`:                                "prompt: required",
		`{"prompt":"p","replies":[]}`:                                  "replies: at least one is needed",
		`{"prompt":"p","tools":["bash"],"replies":[{}]}`:               `tools[0]: no built-in tool "bash" (there are: echo_text, read_file, shell)`,
		`{"prompt":"p","replies":[{"tool_calls":[{"arguments":{}}]}]}`: "replies[0].tool_calls[0].name: required",
		`{"prompt":"p","replies":[{"text":"x"}]}`:                      "replies[0].text: unknown key",
	} {
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := LoadScenario(path); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), path) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
