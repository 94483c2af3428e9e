package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// FuzzParseExpect: a scenario's "expect" list is a user's bytes. Whatever
// they are, reading them returns expectations or an error naming where
// (never a panic), every expectation read is of one kind with what that
// kind needs, and checking a run against them does not panic either.
func FuzzParseExpect(f *testing.F) {
	for _, seed := range []string{
		`[{"call": 2, "action": "deny_tool", "reason": "rm .*"}]`,
		`[{"tool": "shell", "runs": false}, {"done": "^sunny$"}]`,
		`[{"call": 1, "hook": "guard", "method": "before_tool", "tool": "shell", "action": "failed"}]`,
		`[{"call": 1, "reson": "x"}]`,
		`[{"call": 1.5}]`,
		`[{"done": "("}]`,
		`[{}]`, `[null]`, `[3]`, `{}`, `null`, ``, `[{"call": 1e300}]`, `[{"call": -1}]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		xs, err := ParseExpect(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "expect") {
				t.Fatalf("error %q does not say where", err)
			}
			return
		}
		for _, x := range xs {
			kinds := 0
			for _, is := range []bool{x.Call > 0, x.Done != nil, x.Runs != nil} {
				if is {
					kinds++
				}
			}
			if kinds != 1 || x.At == "" || !json.Valid([]byte(x.Text)) || (x.Runs != nil && x.Tool == "") {
				t.Fatalf("%s read as %+v", data, x)
			}
		}
		var r Recorder
		r.Step(Step{Kind: StepUser, Text: "hi"})
		r.Call(runtime.CallRecord{Hook: "h", Method: protocol.MethodBeforeTool, Result: protocol.DenyTool{Reason: "no"}})
		r.Step(Step{Kind: StepTool, Tool: "shell", Outcome: ToolDenied, By: "h", Reason: "no"})
		r.Step(Step{Kind: StepTurnEnd, Outcome: TurnDone, Text: "done"})
		Scenario{Expectations: xs}.Check(&r)
	})
}
