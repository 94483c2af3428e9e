package transcript

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

func ptr[T any](v T) *T { return &v }

func TestCallsAreWrittenWithTheirOutcome(t *testing.T) {
	calls := []runtime.CallRecord{
		{Hook: "gate", Method: "hook.approve_tool", Params: protocol.ApproveToolParams{Tool: "bash"},
			Result: protocol.ApproveToolResult{Approved: false, Reason: ptr("Dangerous command")}, Duration: 1500 * time.Microsecond},
		{Hook: "gate", Method: "hook.before_tool", Params: protocol.BeforeToolParams{Tool: "bash"},
			Err: errors.New("hook exited with status 3"), Policy: runtime.FailClosed, Duration: time.Millisecond},
		{Hook: "w", Method: "hook.before_tool", Params: protocol.BeforeToolParams{Tool: "get_weather"},
			Result: protocol.Respond{Action: protocol.ActionRespond, Result: protocol.ToolResult{ForLLM: "sunny", ForUser: ptr(""), Silent: ptr(false)}}},
	}
	var text, jsonl bytes.Buffer
	tw, jw := New(&text, false), New(&jsonl, true)
	for _, c := range calls {
		tw.Call(c)
		jw.Call(c)
	}
	wantText := "hook      gate hook.approve_tool bash -> denied: Dangerous command  (1.5 ms)\n" +
		"hook      gate hook.before_tool bash -> failed (fail closed): hook exited with status 3  (1.0 ms)\n" +
		"hook      w hook.before_tool get_weather -> respond  (0.0 ms)\n"
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	wantJSON := `{"type":"hook","hook":"gate","method":"hook.approve_tool","tool":"bash","approved":false,"reason":"Dangerous command","duration_ms":1.5}
{"type":"hook","hook":"gate","method":"hook.before_tool","tool":"bash","error":"hook exited with status 3","policy":"closed","duration_ms":1}
{"type":"hook","hook":"w","method":"hook.before_tool","tool":"get_weather","action":"respond","result":{"for_llm":"sunny","is_error":false},"duration_ms":0}
`
	if jsonl.String() != wantJSON {
		t.Errorf("json:\n%s\nwant:\n%s", jsonl.String(), wantJSON)
	}
}

func TestEventsAreInTheTextOnlyOnRequest(t *testing.T) {
	var quiet, loud bytes.Buffer
	New(&quiet, false).Step(agent.Step{Kind: agent.StepEvent, Event: protocol.KindTurnStart})
	w := New(&loud, false)
	w.Events = true
	w.Step(agent.Step{Kind: agent.StepEvent, Event: protocol.KindTurnStart})
	if quiet.Len() != 0 || !strings.Contains(loud.String(), "agent.turn.start") {
		t.Errorf("quiet %q, loud %q", quiet.String(), loud.String())
	}
}

func TestAnAbortedTurnNamesTheHook(t *testing.T) {
	var text bytes.Buffer
	New(&text, false).Step(agent.Step{Kind: agent.StepTurnEnd, Outcome: agent.TurnAborted, By: "budget", Reason: "over budget", Duration: 2 * time.Millisecond})
	if want := "aborted   by hook budget: over budget  (2.0 ms)\n"; text.String() != want {
		t.Errorf("got %q, want %q", text.String(), want)
	}
}

func TestAbstentionsApprovalArgumentsAndTheDefaultAreShown(t *testing.T) {
	approve := func(res protocol.ApproveToolResult) runtime.CallRecord {
		return runtime.CallRecord{Hook: "gate", Method: "hook.approve_tool", Params: protocol.ApproveToolParams{Tool: "shell"}, Result: res}
	}
	var text, jsonl bytes.Buffer
	tw, jw := New(&text, false), New(&jsonl, true)
	for _, c := range []runtime.CallRecord{
		approve(protocol.ApproveToolResult{Abstain: ptr(true), Reason: ptr("not mine to judge")}),
		approve(protocol.ApproveToolResult{Approved: true, Abstain: ptr(false), Arguments: map[string]any{"command": "make test"}}),
	} {
		tw.Call(c)
		jw.Call(c)
	}
	for _, s := range []agent.Step{
		{Kind: agent.StepTool, Tool: "shell", Arguments: map[string]any{"command": "make deploy"}, Outcome: agent.ToolUnapproved, ByDefault: true,
			Reason: "every approver abstained; hooks.defaults.approval is deny", Result: &protocol.ToolResult{ForLLM: "not approved", IsError: ptr(true)}},
		{Kind: agent.StepTool, Tool: "shell", Arguments: map[string]any{"command": "make deploy"}, Outcome: agent.ToolRan, ByDefault: true,
			Reason: "every approver abstained; hooks.defaults.approval is allow", Result: &protocol.ToolResult{ForLLM: "would run: make deploy"}, Duration: time.Millisecond},
	} {
		tw.Step(s)
		jw.Step(s)
	}
	wantText := `hook      gate hook.approve_tool shell -> abstained: not mine to judge  (0.0 ms)
hook      gate hook.approve_tool shell -> approved with arguments {"command":"make test"}  (0.0 ms)
tool      shell {"command":"make deploy"} unapproved by default: not approved (error)
tool      shell {"command":"make deploy"} ran by default (every approver abstained; hooks.defaults.approval is allow): would run: make deploy
`
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	wantJSON := `{"type":"hook","hook":"gate","method":"hook.approve_tool","tool":"shell","approved":false,"abstain":true,"reason":"not mine to judge","duration_ms":0}
{"type":"hook","hook":"gate","method":"hook.approve_tool","tool":"shell","arguments":{"command":"make test"},"approved":true,"duration_ms":0}
{"type":"tool","tool":"shell","arguments":{"command":"make deploy"},"outcome":"unapproved","by_default":true,"reason":"every approver abstained; hooks.defaults.approval is deny","result":{"for_llm":"not approved","is_error":true}}
{"type":"tool","tool":"shell","arguments":{"command":"make deploy"},"outcome":"ran","by_default":true,"reason":"every approver abstained; hooks.defaults.approval is allow","result":{"for_llm":"would run: make deploy","is_error":false},"duration_ms":1}
`
	if jsonl.String() != wantJSON {
		t.Errorf("json:\n%s\nwant:\n%s", jsonl.String(), wantJSON)
	}
}

// Arguments read as written: a redirect is ">", not encoding/json's "\u003e".
func TestArgumentsAreWrittenAsTheyRead(t *testing.T) {
	step := agent.Step{Kind: agent.StepTool, Tool: "shell", Arguments: map[string]any{"command": "echo x > /dev/sda"},
		Outcome: agent.ToolDenied, Reason: "writes to /dev/"}
	for _, jsonl := range []bool{false, true} {
		var out bytes.Buffer
		New(&out, jsonl).Step(step)
		if !strings.Contains(out.String(), `"echo x > /dev/sda"`) {
			t.Errorf("jsonl %v: %s", jsonl, out.String())
		}
	}
}

func TestAHookGoingDownIsWrittenWithWhy(t *testing.T) {
	why := errors.New("hook is broken, stopping it: hook closed its stdout but is still running")
	var text, jsonl bytes.Buffer
	New(&text, false).HookDown("audit", why)
	New(&jsonl, true).HookDown("audit", why)
	if want := "down      audit: " + why.Error() + "\n"; text.String() != want {
		t.Errorf("text %q, want %q", text.String(), want)
	}
	if want := `{"type":"hook_down","hook":"audit","error":"` + why.Error() + `"}` + "\n"; jsonl.String() != want {
		t.Errorf("jsonl %s, want %s", jsonl.String(), want)
	}
}

func TestObserversThatFellBehindAreReportedWithTheirDropsAndWaits(t *testing.T) {
	stats := map[string]runtime.ObserveStats{
		"kept_up": {},
		"audit":   {Waited: 40, WaitedFor: 12 * time.Millisecond},
		"metrics": {Dropped: 7},
	}
	var text, jsonl bytes.Buffer
	New(&text, false).Observed(stats)
	New(&jsonl, true).Observed(stats)
	wantText := "observe   audit missed 0 events (its queue was full); the agent waited for it 40 times, 12.0 ms in all\n" +
		"observe   metrics missed 7 events (its queue was full)\n"
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	wantJSON := `{"type":"observe","hook":"audit","waited":40,"duration_ms":12}` + "\n" +
		`{"type":"observe","hook":"metrics","dropped":7}` + "\n"
	if jsonl.String() != wantJSON {
		t.Errorf("jsonl:\n%s\nwant:\n%s", jsonl.String(), wantJSON)
	}
}

// A hook whose entry names no stage and observes nothing is said to be
// asked nothing, rather than listed with nothing after it.
func TestAHookAskedNothingIsSaidToBe(t *testing.T) {
	var text bytes.Buffer
	New(&text, false).Hooks([]runtime.HookInfo{{Name: "h"}, {Name: "g", Stages: []runtime.Stage{runtime.StageBeforeTool}}})
	want := `hooks     h (process, priority 0): asked nothing: its entry names no stage ("intercept": ["before_tool", ...]) and observes nothing; g (process, priority 0): before_tool` + "\n"
	if text.String() != want {
		t.Errorf("got %q\nwant %q", text.String(), want)
	}
}
