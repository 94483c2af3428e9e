package lifecycle

// PermissionRequest and CanUseTool: what the callbacks see of an approval,
// what their outcomes and the verdicts become on the wire.

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

func approval(more string) string {
	return `{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"shell","arguments":{"command":"ls"}` + more + `}`
}

func TestPermissionRequestSeesWhatTheHostSaysAndItsSkipOrAbortDenies(t *testing.T) {
	var got []Input
	var mu sync.Mutex
	see := func(_ context.Context, in Input) (Output, error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, in)
		if in.ToolInput["command"] == "rm -rf /" {
			return Output{Action: Abort, Reason: "never"}, nil
		}
		if in.ToolInput["command"] == "make" {
			return Output{Action: Skip}, nil
		}
		return Output{}, nil
	}
	h, _ := setup(Options{Hooks: Hooks{PermissionRequest: {see}}})
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, approval(`,"tool_kind":"execute","affected_paths":["/w/build"]`)), `{"approved":true}`)
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, `{"tool":"shell","arguments":{"command":"rm -rf /"}}`), `{"approved":false,"reason":"never"}`)
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, `{"tool":"shell","arguments":{"command":"make"}}`), `{"approved":false,"reason":"shell refused by a PermissionRequest callback"}`)
	want := Input{Event: PermissionRequest, SessionID: "s1", ToolName: "shell", ToolInput: map[string]any{"command": "ls"}, ToolKind: hookwire.ToolKindExecute, AffectedPaths: []string{"/w/build"}}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("got  %+v\nwant %+v", got[0], want)
	}
	if got[1].ToolKind != "" || got[1].AffectedPaths != nil {
		t.Errorf("from a host that says nothing: %+v", got[1])
	}
}

func TestCanUseToolVerdictsOnTheWire(t *testing.T) {
	verdicts := map[string]PermissionResult{
		"allow":        {Behavior: Allow},
		"allow-update": {Behavior: Allow, UpdatedInput: map[string]any{"command": "ls --dry-run"}},
		"deny":         {Behavior: Deny, Message: "user refused", Interrupt: true},
		"ask":          {Behavior: Ask},
		"nonsense":     {Behavior: "maybe"},
	}
	var opts []CanUseToolOptions
	h, logs := setup(Options{CanUseTool: func(ctx context.Context, toolName string, input map[string]any, o CanUseToolOptions) (PermissionResult, error) {
		opts = append(opts, o)
		switch input["command"] {
		case "fail":
			return PermissionResult{Behavior: Allow}, errors.New("policy server down")
		case "panic":
			panic("policy broke")
		}
		return verdicts[input["command"].(string)], nil
	}})
	check := func(command, want string) {
		t.Helper()
		jsonEqual(t, call(t, h, hookwire.MethodApproveTool, `{"tool":"shell","arguments":{"command":"`+command+`"},"tool_kind":"execute","affected_paths":["/w"]}`), want)
	}
	check("allow", `{"approved":true}`)
	check("allow-update", `{"approved":false,"reason":"canUseTool allowed shell with updated input, which this host cannot apply (it does not announce approve_tool.arguments)"}`)
	check("deny", `{"approved":false,"reason":"user refused"}`)
	check("ask", `{"approved":false,"abstain":true}`)
	check("nonsense", `{"approved":false,"abstain":true}`)
	check("fail", `{"approved":false,"abstain":true}`)
	check("panic", `{"approved":false,"abstain":true}`)
	call(t, h, hookwire.MethodHello, `{"name":"lc","version":1,"modes":["approve"],"extensions":["approve_tool.abstain","approve_tool.arguments"]}`)
	check("allow-update", `{"approved":true,"arguments":{"command":"ls --dry-run"}}`)

	if want := (CanUseToolOptions{ToolKind: hookwire.ToolKindExecute, AffectedPaths: []string{"/w"}}); !reflect.DeepEqual(opts[0], want) {
		t.Errorf("options %+v, want %+v", opts[0], want)
	}
	for _, want := range []string{`behavior=maybe`, `msg="canUseTool failed, taken as ask" tool=shell err="policy server down"`, `err="panic: policy broke" stack=`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
}

func TestCanUseToolRunsOnlyWhenThePermissionRequestCallbacksLetTheCallThrough(t *testing.T) {
	asked := 0
	h, _ := setup(Options{
		Hooks: Hooks{PermissionRequest: {func(_ context.Context, in Input) (Output, error) {
			if in.ToolInput["command"] == "rm -rf /" {
				return Output{Action: Skip, Reason: "not that"}, nil
			}
			return Output{}, nil
		}}},
		CanUseTool: func(context.Context, string, map[string]any, CanUseToolOptions) (PermissionResult, error) {
			asked++
			return PermissionResult{Behavior: Deny, Message: "asked and refused"}, nil
		},
	})
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, `{"tool":"shell","arguments":{"command":"rm -rf /"}}`), `{"approved":false,"reason":"not that"}`)
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, `{"tool":"shell","arguments":{"command":"ls"}}`), `{"approved":false,"reason":"asked and refused"}`)
	if asked != 1 {
		t.Errorf("canUseTool asked %d times, want 1", asked)
	}
}

func TestWithoutAVerdictTheCallIsApproved(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{PermissionRequest: {r.cb("permission")}}})
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, approval("")), `{"approved":true}`)
	equal(t, "callbacks", r.lines(), []string{`permission s1 shell {"command":"ls"}`})
}
