// The least hook the Go SDK makes: it lets everything through. Its first
// argument picks what it does besides:
//
//	modify   answers hook.before_llm with the request and one tool more
//	observe  counts the events of every kind, and answers a before_tool
//	         call of the tool bench_events with the count
package main

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"sync/atomic"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

var benchTool = hookwire.ToolDefinition{
	Type: "function",
	Function: hookwire.FunctionDefinition{
		Name:        "bench_tool",
		Description: hookwire.Ptr("A tool the benchmark's hook adds"),
		Parameters:  json.RawMessage(`{"type":"object","properties":{}}`),
	},
}

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	var events atomic.Int64
	h := hookwire.New("minimal")
	h.OnBeforeTool(func(_ context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
		if mode == "observe" && call.Tool == "bench_events" {
			return hookwire.Respond{Result: hookwire.Text(strconv.FormatInt(events.Load(), 10))}, nil
		}
		return hookwire.Continue{}, nil
	})
	h.OnBeforeLLM(func(_ context.Context, req hookwire.BeforeLLMParams) (hookwire.BeforeLLMResult, error) {
		if mode != "modify" {
			return hookwire.Continue{}, nil
		}
		req.Tools = append(req.Tools, benchTool)
		return req.Modify(), nil
	})
	if mode == "observe" {
		h.OnEvent("*", func(context.Context, hookwire.RuntimeEvent) { events.Add(1) })
	}
	h.Main()
}
