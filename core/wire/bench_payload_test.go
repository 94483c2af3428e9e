package wire

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/internal/benchdata"

	"github.com/hookwire/hookwire/core/protocol"
)

// llmRequest is a hook.before_llm request with a message history of about
// size bytes of JSON: turns of 1 KB of prose, each its own, with the
// newlines and quotes that make encoders work.
func llmRequest(size int) protocol.BeforeLLMParams {
	s := func(v string) *string { return &v }
	req := protocol.BeforeLLMParams{
		Meta:    benchdata.BeforeTool().Meta,
		Context: benchdata.BeforeTool().Context,
		Model:   "scripted",
		Tools: []protocol.ToolDefinition{{Type: "function", Function: protocol.FunctionDefinition{
			Name: "read_file", Description: s("Read a file of the workspace"),
			Parameters: json.RawMessage(`{"type":"object","required":["path"]}`),
		}}},
		Options: map[string]any{"temperature": 0.2, "max_tokens": 4096},
	}
	const turn = "Turn %d: the hook checks the call to \"read_file\" on notes/%d.md,\nthen 42 and 3.14 come back. "
	for total := 0; total < size; total += 1024 + 40 {
		var text strings.Builder
		for i := 0; text.Len() < 1024; i++ {
			fmt.Fprintf(&text, turn, len(req.Messages), i)
		}
		req.Messages = append(req.Messages, protocol.Message{Role: []string{"user", "assistant"}[len(req.Messages)%2], Content: s(text.String())})
	}
	return req
}

// BenchmarkEncodeBeforeLLM10MB is the line of a before_llm request with
// 10 MB of history.
func BenchmarkEncodeBeforeLLM10MB(b *testing.B) {
	req := llmRequest(10 << 20)
	id := uint64(7)
	b.ReportAllocs()
	for b.Loop() {
		line, err := encodeMessage(&id, protocol.MethodBeforeLLM, req)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(line.b)))
		line.free()
	}
}

// BenchmarkDecodeModifyReply10MB is what the runtime does with a hook's
// reply that modifies a before_llm request of 10 MB: the envelope, then
// the result.
func BenchmarkDecodeModifyReply10MB(b *testing.B) {
	params, err := appendParams(nil, llmRequest(10<<20))
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(`{"jsonrpc":"2.0","id":7,"result":{"action":"modify","request":` + string(params) + `}}`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		msg, err := decodeReply(line)
		if err != nil {
			b.Fatal(err)
		}
		res, err := protocol.DecodeResult(protocol.MethodBeforeLLM, msg.Result)
		if err != nil {
			b.Fatal(err)
		}
		if m := res.(protocol.BeforeLLMModify); len(m.Request.Messages) == 0 {
			b.Fatal("no messages")
		}
	}
}

// BenchmarkEncodeRequest is the line of one before_tool request.
func BenchmarkEncodeRequest(b *testing.B) {
	call := benchdata.BeforeTool()
	id := uint64(12345)
	b.ReportAllocs()
	for b.Loop() {
		line, err := encodeMessage(&id, protocol.MethodBeforeTool, call)
		if err != nil {
			b.Fatal(err)
		}
		line.free()
	}
}

// BenchmarkProcessBare is the floor of BenchmarkProcessCall: the same
// request line written to the fixture and its reply read back by the
// caller itself, with no connection in between.
func BenchmarkProcessBare(b *testing.B) {
	id := uint64(1)
	lb, err := encodeMessage(&id, protocol.MethodBeforeTool, benchdata.BeforeTool())
	if err != nil {
		b.Fatal(err)
	}
	line := lb.b
	cmd := exec.Command(fixtureBin)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	br := bufio.NewReader(out)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := br.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
}
