package runtime

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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

// Hooks inherit every variable of the runtime by default, as in PicoClaw;
// env_passthrough keeps the others from a hook, and env_clear all of them.
func TestAHookGetsOnlyTheVariablesItsConfigurationLetsThrough(t *testing.T) {
	t.Setenv("HOOKWIRE_T_SECRET", "s3cret")
	t.Setenv("HOOKWIRE_T_KEEP", "kept")
	t.Setenv("HOOKWIRE_T_LC_A", "a")
	dir := t.TempDir()
	hook := func(name string, set func(*ProcessConfig)) ProcessConfig {
		p := proc(0, []string{"before_tool"}, "-env-out", filepath.Join(dir, name))
		p.Env = map[string]string{"HOOKWIRE_T_OWN": "own"}
		set(&p)
		return p
	}
	startRuntime(t, map[string]ProcessConfig{
		"all":         hook("all", func(*ProcessConfig) {}),
		"passthrough": hook("passthrough", func(p *ProcessConfig) { p.EnvPassthrough = []string{"HOOKWIRE_T_KEEP", "HOOKWIRE_T_LC_*"} }),
		"clear":       hook("clear", func(p *ProcessConfig) { p.EnvClear = true }),
	})
	for name, want := range map[string][]string{
		"all":         {"HOOKWIRE_T_SECRET=s3cret", "HOOKWIRE_T_KEEP=kept", "HOOKWIRE_T_LC_A=a", "HOOKWIRE_T_OWN=own"},
		"passthrough": {"HOOKWIRE_T_KEEP=kept", "HOOKWIRE_T_LC_A=a", "HOOKWIRE_T_OWN=own"},
		"clear":       {"HOOKWIRE_T_OWN=own"},
	} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, kv := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if strings.HasPrefix(kv, "HOOKWIRE_T_") {
				got = append(got, kv)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("hook %s got %v, want %v", name, got, want)
		}
		if name != "all" && strings.Contains(string(b), "PATH=") {
			t.Errorf("hook %s got PATH, which it did not let through", name)
		}
	}
}

func TestABadEnvPassthroughGlobIsRefused(t *testing.T) {
	_, err := ParseConfig([]byte(`{"hooks":{"processes":{"p":{"command":["x"],"env_passthrough":["LC_["]}}}}`))
	if err == nil || err.Error() != `hooks.processes.p.env_passthrough[0]: "LC_[" is not a variable name or glob` {
		t.Errorf("err = %v", err)
	}
}

// A hook skipped under an open policy is not lost from view: the decision
// says which hook failed and why, so that the caller can tell the user.
func TestADecisionNamesTheHooksItSkipped(t *testing.T) {
	p := proc(0, []string{string(StageAfterTool)}, "-crash", protocol.MethodAfterTool)
	p.FailurePolicy = map[string]string{string(StageAfterTool): "open"}
	h := startRuntime(t, map[string]ProcessConfig{"redactor": p})
	_, d := h.AfterTool(context.Background(), toolRes)
	if !d.Continue() || d.Failed || len(d.Skipped) != 1 || !strings.HasPrefix(d.Skipped[0], "hook redactor failed: ") {
		t.Fatalf("decision = %+v, want continue with the redactor skipped", d)
	}
	_, d = h.BeforeTool(context.Background(), toolReq)
	if len(d.Skipped) != 0 {
		t.Errorf("a stage the hook does not intercept names it as skipped: %+v", d)
	}
}
