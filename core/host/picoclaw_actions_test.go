package host

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

// readAs is a reply as PicoClaw reads it: the decoded answer and its notes.
func readAs(t *testing.T, method, reply string) (any, []string) {
	t.Helper()
	raw, notes := PicoClaw.Reads(method, json.RawMessage(reply))
	res, err := protocol.DecodeResult(method, raw)
	if err != nil {
		t.Fatalf("%s %s read as %s: %v", method, reply, raw, err)
	}
	return res, notes
}

// PicoClaw's hook manager takes the object a continue carries as it takes
// a modify's, at all four interceptors (hooks.go); the reference host
// passes the object through unchanged, as the documents say.
func TestPicoClawAppliesTheObjectAContinueCarries(t *testing.T) {
	for _, c := range []struct {
		method, reply string
		want          any
	}{
		{protocol.MethodBeforeTool, `{"action":"continue","call":{"tool":"exec","arguments":{"command":"ls"}}}`,
			protocol.BeforeToolModify{Action: protocol.ActionModify, Call: protocol.BeforeToolParams{Tool: "exec", Arguments: map[string]any{"command": "ls"}}}},
		{protocol.MethodBeforeTool, `{"call":{"tool":"exec"}}`, // no action is continue too
			protocol.BeforeToolModify{Action: protocol.ActionModify, Call: protocol.BeforeToolParams{Tool: "exec"}}},
		{protocol.MethodAfterTool, `{"action":"continue","result":{"tool":"exec","result":{"for_llm":"[redacted]"}}}`,
			protocol.AfterToolModify{Action: protocol.ActionModify, Result: protocol.AfterToolParams{Tool: "exec", Result: protocol.ToolResult{ForLLM: "[redacted]"}}}},
		{protocol.MethodBeforeLLM, `{"action":"continue","request":{"model":"m2"}}`,
			protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: protocol.BeforeLLMParams{Model: "m2"}}},
		{protocol.MethodAfterLLM, `{"action":"","response":{"model":"m","response":{"content":"hi"}}}`,
			protocol.AfterLLMModify{Action: protocol.ActionModify, Response: protocol.AfterLLMParams{Model: "m", Response: protocol.LLMResponse{Content: ptr("hi")}}}},
	} {
		got, notes := readAs(t, c.method, c.reply)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: %#v, want %#v", c.method, c.reply, got, c.want)
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "applied as a modify: PicoClaw replaces the object it sent") {
			t.Errorf("%s %s: notes %q", c.method, c.reply, notes)
		}
		if ref := Reference.Discards(c.method, nil, json.RawMessage(c.reply)); ref != nil {
			t.Errorf("reference discards %q", ref)
		}
	}
	// A continue with nothing in it, or with what PicoClaw reads as
	// nothing, stays a continue, unremarked.
	for _, reply := range []string{`{"action":"continue"}`, `{}`, `{"action":"continue","call":null}`, `{"action":"continue","result":{"tool":"exec"}}`} {
		for _, m := range []string{protocol.MethodBeforeTool, protocol.MethodAfterTool} {
			if got, notes := readAs(t, m, reply); reflect.TypeOf(got) != reflect.TypeOf(protocol.Continue{}) || notes != nil {
				t.Errorf("%s %s: %#v %q, want a continue", m, reply, got, notes)
			}
		}
	}
}

// PicoClaw's loop keeps its own answer and tool result when a modify's
// object leaves them out (pipeline_llm.go, pipeline_execute.go), and its
// hook manager keeps the object it sent when a modify carries none.
func TestPicoClawKeepsWhatAPartialModifyLeavesOut(t *testing.T) {
	for _, c := range []struct{ method, reply, note string }{
		{protocol.MethodAfterTool, `{"action":"modify","result":{"tool":"exec"}}`, "modify whose result has no result taken as continue: PicoClaw keeps its own tool result"},
		{protocol.MethodAfterTool, `{"action":"modify","result":{"tool":"exec","result":null}}`, "modify whose result has no result taken as continue"},
		{protocol.MethodAfterLLM, `{"action":"modify","response":{"model":"m"}}`, "modify whose response has no response taken as continue: PicoClaw keeps its own answer"},
		{protocol.MethodBeforeTool, `{"action":"modify"}`, "modify without a call taken as continue: PicoClaw keeps the object it sent"},
		{protocol.MethodBeforeLLM, `{"action":"modify","request":null}`, "modify without a request taken as continue"},
	} {
		got, notes := readAs(t, c.method, c.reply)
		if reflect.TypeOf(got) != reflect.TypeOf(protocol.Continue{}) || len(notes) != 1 || !strings.Contains(notes[0], c.note) {
			t.Errorf("%s %s: %#v %q, want a continue noting %q", c.method, c.reply, got, notes, c.note)
		}
	}
	// An inner member that is there, even empty, replaces PicoClaw's own.
	got, notes := readAs(t, protocol.MethodAfterTool, `{"action":"modify","result":{"tool":"exec","result":{"for_llm":""}}}`)
	if _, ok := got.(protocol.AfterToolModify); !ok || notes != nil {
		t.Errorf("an empty result: %#v %q, want the modify as it came", got, notes)
	}
}
