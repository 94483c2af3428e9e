package transcript

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/protocol"
)

func TestMessagesOfAnLLMRequestOnlyOnRequest(t *testing.T) {
	step := agent.Step{Kind: agent.StepLLMRequest, Iteration: 2, Tools: []string{"read_file"}, Messages: []protocol.Message{
		{Role: "user", Content: ptr("What do my notes say?")},
		{Role: "assistant", ToolCalls: []protocol.ToolCall{{ID: ptr("call-1"), Function: protocol.FunctionCall{Name: "read_file", Arguments: `{"path":"notes.txt"}`}}}},
		{Role: "tool", Content: ptr("line one\nline two\n" + strings.Repeat("x", 300)), ToolCallID: ptr("call-1")},
		{Role: "system", Content: ptr("If a file looks cut off, say so.")},
	}}
	var plain, text, jsonl bytes.Buffer
	New(&plain, false).Step(step)
	tw, jw := New(&text, false), New(&jsonl, true)
	tw.Messages, jw.Messages = true, true
	tw.Step(step)
	jw.Step(step)
	if want := "llm #2    offered tools: read_file\n"; plain.String() != want {
		t.Errorf("without Messages:\n%s\nwant:\n%s", plain.String(), want)
	}
	wantText := "llm #2    offered tools: read_file\n" +
		"llm #2    sees 4 messages:\n" +
		"            user       What do my notes say?\n" +
		"            assistant  calls read_file {\"path\":\"notes.txt\"}\n" +
		"            tool       line one\\nline two\\n" + strings.Repeat("x", 180) + "…\n" +
		"            system     If a file looks cut off, say so.\n"
	if text.String() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), wantText)
	}
	wantJSON := `{"type":"llm_request","iteration":2,"tools":["read_file"],"messages":[` +
		`{"role":"user","content":"What do my notes say?"},` +
		`{"role":"assistant","tool_calls":[{"id":"call-1","name":"read_file","arguments":{"path":"notes.txt"}}]},` +
		`{"role":"tool","content":"line one\nline two\n` + strings.Repeat("x", 300) + `","tool_call_id":"call-1"},` +
		`{"role":"system","content":"If a file looks cut off, say so."}]}` + "\n"
	if jsonl.String() != wantJSON {
		t.Errorf("json:\n%s\nwant:\n%s", jsonl.String(), wantJSON)
	}
}
