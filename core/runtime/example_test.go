package runtime_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// dangerGate is an in-process hook: a ToolApprover written in Go.
type dangerGate struct{}

func (dangerGate) ApproveTool(_ context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	if cmd, _ := req.Arguments["command"].(string); strings.Contains(cmd, "rm -rf") {
		reason := "Dangerous command, execution denied"
		return protocol.ApproveToolResult{Approved: false, Reason: &reason}, nil
	}
	return protocol.ApproveToolResult{Approved: true}, nil
}

// An agent embeds a runtime: it is made from a hooks configuration, given
// in-process hooks, started, asked at each stage, and closed. Here the
// configuration runs the weather plugin of the source documents, a Python
// script, next to an approver written in Go.
func Example() {
	cfg, err := runtime.ParseConfig([]byte(`{"hooks": {
	  "enabled": true,
	  "processes": {
	    "weather_plugin": {
	      "enabled": true,
	      "command": ["python3", "../../examples/weather/script/weather_plugin.py"],
	      "intercept": ["before_llm", "before_tool"]
	    }
	  }
	}}`))
	if err != nil {
		log.Fatal(err)
	}
	rt, err := runtime.New(cfg, runtime.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := rt.Use(runtime.InProcess{Name: "danger_gate", Hook: dangerGate{}}); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := rt.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	// before_llm: the plugin adds its tool to the request.
	user := "What's the weather in Beijing today?"
	req, _ := rt.BeforeLLM(ctx, protocol.BeforeLLMParams{
		Model:    "m",
		Messages: []protocol.Message{{Role: "user", Content: &user}},
	})
	for _, tool := range req.Tools {
		fmt.Println("offered:", tool.Function.Name)
	}

	// before_tool: the plugin answers its tool itself.
	_, d := rt.BeforeTool(ctx, protocol.BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": "Beijing"}})
	fmt.Println(d.Action, "by", d.Hook+":", d.Result.ForLLM)

	// Other tools pass before_tool, then meet the approvers.
	call, d := rt.BeforeTool(ctx, protocol.BeforeToolParams{Tool: "bash", Arguments: map[string]any{"command": "rm -rf /"}})
	fmt.Println(call.Tool, d.Action)
	d = rt.ApproveTool(ctx, protocol.ApproveToolParams{Tool: call.Tool, Arguments: call.Arguments})
	fmt.Println(d.Action, "by", d.Hook+":", d.Reason)
	// Output:
	// offered: get_weather
	// respond by weather_plugin: Beijing weather: Sunny, temperature 15°C, humidity 45%
	// bash continue
	// deny_tool by danger_gate: Dangerous command, execution denied
}

// auditLog is an observer that takes its time with each event.
type auditLog struct{ n int }

func (a *auditLog) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	time.Sleep(100 * time.Microsecond) // a write to disk, say
	a.n++
	return nil
}

// An observer that must not lose events asks the agent to wait for it when

// its queue is full, instead of dropping.
func ExampleInProcess_observeOverflow() {
	audit := &auditLog{}
	rt, err := runtime.New(runtime.Config{}, runtime.Options{ObserveQueue: 8})
	if err != nil {
		log.Fatal(err)
	}
	if err := rt.Use(runtime.InProcess{Name: "audit", Hook: audit, ObserveOverflow: runtime.OverflowWait}); err != nil {
		log.Fatal(err)
	}
	if err := rt.Start(context.Background()); err != nil {
		log.Fatal(err)
	}
	for range 100 {
		rt.Emit(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	}
	rt.Close()
	stats := rt.ObserveStats()["audit"]
	fmt.Println("delivered:", audit.n, "dropped:", stats.Dropped, "waited:", stats.Waited > 0)
	// Output: delivered: 100 dropped: 0 waited: true
}
