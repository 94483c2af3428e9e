package agent

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// An approver's answer is no union on action: its approved, denied and
// abstained, and a call that failed, are read as a call item's action,
// with the reason (a failed call's error) beside it.
func TestACallItemReadsApproversAndFailedCalls(t *testing.T) {
	reason := "too wide"
	yes := true
	var r Recorder
	r.Step(Step{Kind: StepUser, Text: "go"})
	for _, c := range []runtime.CallRecord{
		{Hook: "gate", Method: protocol.MethodApproveTool, Params: protocol.ApproveToolParams{Tool: "shell"}, Result: protocol.ApproveToolResult{Approved: true}},
		{Hook: "gate", Method: protocol.MethodApproveTool, Params: protocol.ApproveToolParams{Tool: "shell"}, Result: protocol.ApproveToolResult{Reason: &reason}},
		{Hook: "gate", Method: protocol.MethodApproveTool, Params: protocol.ApproveToolParams{Tool: "shell"}, Result: protocol.ApproveToolResult{Abstain: &yes}},
		{Hook: "guard", Method: protocol.MethodBeforeTool, Params: protocol.BeforeToolParams{Tool: "shell"}, Err: errors.New("hook exited with status 1"), Policy: runtime.FailClosed},
	} {
		r.Call(c)
	}
	xs, err := ParseExpect(json.RawMessage(`[
		{"call": 1, "action": "approved"},
		{"call": 2, "action": "denied", "reason": "^too wide$"},
		{"call": 3, "action": "abstained"},
		{"call": 4, "hook": "guard", "tool": "shell", "action": "failed", "reason": "status 1"},
		{"call": 2, "action": "approved"},
		{"call": 4, "method": "approve_tool"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	misses := Scenario{Expectations: xs}.Check(&r)
	var got []string
	for _, m := range misses {
		got = append(got, m.String())
	}
	want := []string{
		"MISS  expect[4] {\"call\":2,\"action\":\"approved\"}\n" +
			"  want:  hook call 2: answered approved\n" +
			"  got:   denied: too wide\n" +
			"  where: hook call 2 of 4: gate hook.approve_tool shell, turn 1",
		"MISS  expect[5] {\"call\":4,\"method\":\"approve_tool\"}\n" +
			"  want:  hook call 4: hook.approve_tool\n" +
			"  got:   hook.before_tool, failed: hook exited with status 1\n" +
			"  where: hook call 4 of 4: guard hook.before_tool shell, turn 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("misses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
