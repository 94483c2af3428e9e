package runtime

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// A caller that gives up mid-call (SIGTERM, Ctrl-C, a program shutting
// down) is not a hook failing: an open policy must not let the object
// through unseen. Every stage ends with abort_turn, marked Canceled.
func TestACallerThatGivesUpIsNeverFailedOpen(t *testing.T) {
	for _, s := range Stages {
		t.Run(string(s), func(t *testing.T) {
			p := proc(0, []string{string(s)}, "-hang", s.Method())
			p.FailurePolicy = map[string]string{string(s): "open"}
			h := startRuntime(t, map[string]ProcessConfig{"guard": p})
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			var d Decision
			switch s {
			case StageBeforeLLM:
				_, d = h.BeforeLLM(ctx, llmReq)
			case StageAfterLLM:
				_, d = h.AfterLLM(ctx, llmResp)
			case StageBeforeTool:
				_, d = h.BeforeTool(ctx, toolReq)
			case StageAfterTool:
				_, d = h.AfterTool(ctx, toolRes)
			case StageApproveTool:
				d = h.ApproveTool(ctx, apprReq)
			}
			if d.Action != protocol.ActionAbortTurn || !d.Canceled || !strings.Contains(d.Reason, "the caller gave up: context canceled") {
				t.Errorf("decision = %+v, want abort_turn, canceled", d)
			}
			if rec := h.calls.last(t); rec.Policy != "" || rec.Err == nil {
				t.Errorf("call record = %+v, want an error and no policy applied", rec)
			}
			// A stage asked after the caller gave up calls no hook.
			_, d = h.BeforeTool(ctx, toolReq)
			if s == StageBeforeTool && (!d.Canceled || d.Action != protocol.ActionAbortTurn) {
				t.Errorf("a second call after cancellation: %+v", d)
			}
		})
	}
}
