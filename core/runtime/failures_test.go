package runtime

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// Hooks that fail: crashes, hangs, restarts and panics, and the stage
// policy that decides what their failure does to the chain.

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

// sleepy is a before_tool hook that ignores its context: it answers only
// when its test ends and closes release, so that no goroutine of it is left
// for a later test that counts the runtime's goroutines.
type sleepy struct{ release chan struct{} }

func (s sleepy) BeforeTool(context.Context, protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	<-s.release
	return nil, nil
}

func (sleepy) AfterTool(context.Context, protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	return protocol.Continue{}, nil
}

func TestInProcessHooksCannotTakeTheRuntimeDown(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	h := startRuntime(t, nil,
		InProcess{Name: "panicky", Hook: panicky{}},
		InProcess{Name: "sleepy", Hook: sleepy{release}, Timeout: 100 * time.Millisecond, FailurePolicy: map[Stage]Policy{StageBeforeTool: FailClosed}},
	)
	if d := h.ApproveTool(context.Background(), apprReq); d.Action != protocol.ActionDenyTool || !strings.Contains(d.Reason, "hook panicked: boom") {
		t.Errorf("approve_tool decided %+v", d)
	}
	if _, d := h.BeforeTool(context.Background(), toolReq); d.Action != protocol.ActionDenyTool || !strings.Contains(d.Reason, "no reply within 100ms") {
		t.Errorf("before_tool decided %+v", d)
	}
}
