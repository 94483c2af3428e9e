package hookwire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// The cost of a large hook.before_llm in the SDK, against encoding/json's
// own parse and serialize of the same params (the bench harness's "JSON"):
//
//	go test -run '^$' -bench BeforeLLM -benchmem
//
// Timings are not asserted anywhere: TestBenchPayloadRoundTrips checks that
// what is measured is right.

// benchRequest is a before_llm request line with a message history of
// about size bytes: turns of up to 1 KB of prose, with the newlines and
// quotes that make encoders work, as the bench harness writes them.
func benchRequest(size int) []byte {
	req := BeforeLLMParams{
		Meta:    &Meta{AgentID: Ptr("agent-1"), TurnID: Ptr("turn-1"), SessionKey: Ptr("session-1"), Iteration: Ptr[int64](1)},
		Model:   "scripted",
		Tools:   []ToolDefinition{benchTool("read_file"), benchTool("echo_text")},
		Options: map[string]any{"temperature": 0.2, "max_tokens": 4096},
		Channel: Ptr("cli"),
	}
	words := strings.Fields(`the agent reads a file and calls a tool "quoted" while the hook
		checks each call; results come back as text, numbers 42 and 3.14, paths like
		notes/2026-05-01.md, and a line break now and then`)
	rng := rand.New(rand.NewPCG(1, 2))
	for total := 0; total < size; {
		var text strings.Builder
		for text.Len() < min(1<<10, size-total)-40 {
			text.WriteString(words[rng.IntN(len(words))])
			text.WriteByte(" \n"[min(rng.IntN(12), 1)^1])
		}
		m := Message{Role: []string{"user", "assistant"}[len(req.Messages)%2], Content: Ptr(text.String())}
		total += len(text.String()) + 40
		req.Messages = append(req.Messages, m)
	}
	params, err := req.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":7,"method":"hook.before_llm","params":%s}`+"\n", params)
}

func benchTool(name string) ToolDefinition {
	return ToolDefinition{Type: "function", Function: FunctionDefinition{
		Name:       name,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
	}}
}

// benchHook answers before_llm as the bench harness's Go SDK hook does:
// it continues, or adds a tool.
func benchHook(modify bool) *Hook {
	h := New("bench")
	h.maxLine.Store(1 << 30) // what a host that reads long replies announces in hello
	h.OnBeforeLLM(func(_ context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
		if !modify {
			return Continue{}, nil
		}
		req.Tools = append(req.Tools, benchTool("bench_tool"))
		return req.Modify(), nil
	})
	return h
}

func serveOnce(h *Hook, line []byte, out io.Writer) error {
	return h.Serve(context.Background(), bytes.NewReader(line), out)
}

func TestBenchPayloadRoundTrips(t *testing.T) {
	line := benchRequest(64 << 10)
	var env struct{ Params BeforeLLMParams }
	if err := json.Unmarshal(line, &env); err != nil {
		t.Fatal(err)
	}
	for _, modify := range []bool{false, true} {
		var out bytes.Buffer
		if err := serveOnce(benchHook(modify), line, &out); err != nil {
			t.Fatal(err)
		}
		if !modify {
			if out.String() != `{"jsonrpc":"2.0","id":7,"result":{"action":"continue"}}`+"\n" {
				t.Errorf("continue: %s", out.Bytes())
			}
			continue
		}
		var reply struct {
			ID     int
			Result BeforeLLMModify
		}
		if err := json.Unmarshal(out.Bytes(), &reply); err != nil {
			t.Fatalf("%.200s: %v", out.Bytes(), err)
		}
		got, want := reply.Result.Request, env.Params
		want.Tools = append(want.Tools, benchTool("bench_tool"))
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if reply.ID != 7 || !bytes.Equal(a, b) || len(got.Messages) < 50 {
			t.Errorf("modify: the request with one tool more, got %d messages, %d tools", len(got.Messages), len(got.Tools))
		}
	}
}

func BenchmarkBeforeLLM(b *testing.B) {
	for _, size := range []int{100 << 10, 10 << 20} {
		line := benchRequest(size)
		name := fmt.Sprintf("%dKB", size>>10)
		for _, mode := range []string{"continue", "modify"} {
			h := benchHook(mode == "modify")
			b.Run(name+"/"+mode, func(b *testing.B) {
				b.SetBytes(int64(len(line)))
				for b.Loop() {
					if err := serveOnce(h, line, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		// What the harness compares a hook's share with: encoding/json
		// into any and back, bytes in and bytes out.
		params := line[bytes.Index(line, []byte(`"params":`))+len(`"params":`) : len(line)-2]
		b.Run(name+"/json", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal(params, &v); err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
