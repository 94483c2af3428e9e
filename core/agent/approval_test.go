package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// received reads the messages of a method a fixture hook recorded (-record).
func received[P any](t *testing.T, record, method string) []P {
	t.Helper()
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var out []P
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var msg struct {
			Method string
			Params json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatal(err)
		}
		if msg.Method == method {
			var p P
			if err := json.Unmarshal(msg.Params, &p); err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// notes is an embedder's tool that declares its kind and paths.
type notes struct{ dir string }

func (notes) Definition() protocol.ToolDefinition { return function("save_note", "Save a note.", nil) }
func (notes) Run(context.Context, map[string]any) protocol.ToolResult {
	return protocol.ToolResult{ForLLM: "saved"}
}
func (n notes) Describe(args map[string]any) (protocol.ToolKind, []string) {
	return protocol.ToolWrite, []string{filepath.Join(n.dir, args["name"].(string))}
}

// plain is a tool that says nothing of itself.
type plain struct{}

func (plain) Definition() protocol.ToolDefinition { return function("plain", "", nil) }
func (plain) Run(context.Context, map[string]any) protocol.ToolResult {
	return protocol.ToolResult{ForLLM: "ok"}
}

func call(name string, args map[string]any) ToolCall { return ToolCall{Name: name, Arguments: args} }

func TestApproversAreToldEachToolsKindAndThePathsItTouches(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(t.TempDir(), "gate")
	rt := startHooks(t, runtime.DefaultsConfig{}, map[string]runtime.ProcessConfig{
		"gate": fixture([]string{"approve_tool"}, nil, "-record", rec),
	})
	s := Scenario{Prompt: "p", Root: root, Tools: []string{"echo_text", "read_file", "shell"}, Replies: []Reply{
		{ToolCalls: []ToolCall{
			call("read_file", map[string]any{"path": "docs/notes.txt"}),
			call("echo_text", map[string]any{"text": "hi"}),
			call("shell", map[string]any{"command": "rm -rf build"}),
			call("save_note", map[string]any{"name": "todo.md"}),
			call("plain", nil),
		}},
		{Content: "done"},
	}}
	a := s.Agent()
	a.Tools = append(a.Tools, notes{dir: "/srv/notes"}, plain{})
	a.Hooks = rt
	if _, err := a.RunTurn(context.Background(), s.Prompt); err != nil {
		t.Fatal(err)
	}
	rt.Close()
	type seen struct {
		Tool          string
		ToolKind      *protocol.ToolKind `json:"tool_kind"`
		AffectedPaths []string           `json:"affected_paths"`
	}
	kind := func(k protocol.ToolKind) *protocol.ToolKind { return &k }
	want := []seen{
		{"read_file", kind(protocol.ToolReadOnly), []string{filepath.Join(root, "docs", "notes.txt")}},
		{"echo_text", kind(protocol.ToolReadOnly), nil},
		{"shell", kind(protocol.ToolExecute), nil},
		{"save_note", kind(protocol.ToolWrite), []string{"/srv/notes/todo.md"}},
		{"plain", nil, nil},
	}
	same(t, received[seen](t, rec, protocol.MethodApproveTool), want)
}

func TestArgumentsAnApproverSetsAreTheOnesTheToolRunsWith(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "after")
	rt := startHooks(t, runtime.DefaultsConfig{}, map[string]runtime.ProcessConfig{
		"rewrite": fixture([]string{"approve_tool"}, nil, "-result", protocol.MethodApproveTool+`={"approved":true,"arguments":{"text":"rewritten"}}`),
		"audit":   fixture([]string{"after_tool"}, []string{protocol.KindToolExecStart}, "-record", rec),
	})
	s := Scenario{Prompt: "p", Root: t.TempDir(), Replies: []Reply{echo("original"), {Content: "done"}}}
	a := s.Agent()
	a.Hooks = rt
	var steps []Step
	var llmSaw []protocol.Message
	a.OnStep = func(s Step) { steps = append(steps, s) }
	a.LLM = spy{a.LLM, &llmSaw}
	if _, err := a.RunTurn(context.Background(), s.Prompt); err != nil {
		t.Fatal(err)
	}
	rt.Close()
	tool := toolSteps(steps)[0]
	if tool.Outcome != ToolRan || tool.Arguments["text"] != "rewritten" || tool.LLMCall == nil || tool.LLMCall.Arguments["text"] != "original" || tool.Result.ForLLM != "rewritten" {
		t.Errorf("tool step = %+v, result %+v: want the tool run with the approver's arguments, and the LLM's call beside them", tool, tool.Result)
	}
	after := received[protocol.AfterToolParams](t, rec, protocol.MethodAfterTool)
	if len(after) != 1 || after[0].Arguments["text"] != "rewritten" || after[0].Result.ForLLM != "rewritten" {
		t.Errorf("after_tool was told %+v", after)
	}
	started := received[protocol.RuntimeEvent](t, rec, protocol.MethodRuntimeEvent)
	if len(started) != 1 || !strings.Contains(string(started[0].Payload), `"Arguments":{"text":"rewritten"}`) || !strings.Contains(string(started[0].Payload), `"LLMArguments":{"text":"original"}`) {
		t.Errorf("exec_start events: %+v", started)
	}
	if last := llmSaw[len(llmSaw)-1]; last.Role != "tool" || *last.Content != "rewritten" {
		t.Errorf("the LLM got back %+v", last)
	}
	if got := llmSaw[len(llmSaw)-2].ToolCalls[0].Function.Arguments; got != `{"text":"original"}` {
		t.Errorf("the LLM's own call reads %s: the history keeps what it asked for", got)
	}
}

// spy is an LLM that remembers the messages of the last request.
type spy struct {
	LLM
	saw *[]protocol.Message
}

func (s spy) Chat(ctx context.Context, req protocol.BeforeLLMParams) (protocol.LLMResponse, error) {
	*s.saw = slices.Clone(req.Messages)
	return s.LLM.Chat(ctx, req)
}

func TestWhenEveryApproverAbstainsTheDefaultDecidesAndTheStepSaysSo(t *testing.T) {
	abstain := protocol.MethodApproveTool + `={"approved":false,"abstain":true}`
	for _, tc := range []struct {
		approval, outcome, reason, result string
	}{
		{"", ToolUnapproved, "every approver abstained; hooks.defaults.approval is deny",
			"tool shell was not approved: every approver abstained; hooks.defaults.approval is deny"},
		{"allow", ToolRan, "every approver abstained; hooks.defaults.approval is allow", "would run: make deploy"},
	} {
		t.Run("default "+tc.approval, func(t *testing.T) {
			rt := startHooks(t, runtime.DefaultsConfig{Approval: tc.approval}, map[string]runtime.ProcessConfig{
				"a": fixture([]string{"approve_tool"}, nil, "-result", abstain),
				"b": fixture([]string{"approve_tool"}, nil, "-result", abstain),
			})
			s := Scenario{Prompt: "p", Root: t.TempDir(), Tools: []string{"shell"}, Replies: []Reply{
				{ToolCalls: []ToolCall{call("shell", map[string]any{"command": "make deploy"})}}, {Content: "done"},
			}}
			a := s.Agent()
			a.Hooks = rt
			var steps []Step
			a.OnStep = func(s Step) { steps = append(steps, s) }
			if _, err := a.RunTurn(context.Background(), s.Prompt); err != nil {
				t.Fatal(err)
			}
			tool := toolSteps(steps)[0]
			if tool.Outcome != tc.outcome || !tool.ByDefault || tool.By != "" || tool.Reason != tc.reason || tool.Result.ForLLM != tc.result {
				t.Errorf("tool step = %+v, result %q", tool, tool.Result.ForLLM)
			}
		})
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
