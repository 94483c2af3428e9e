package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// weatherPlugin is the documents' weather plugin as an in-process Go hook:
// it injects get_weather in before_llm and answers it in before_tool.
type weatherPlugin struct{}

func (weatherPlugin) BeforeLLM(_ context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	req.Tools = append(req.Tools, protocol.ToolDefinition{Type: "function", Function: protocol.FunctionDefinition{
		Name:       "get_weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`),
	}})
	return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: req}, nil
}

func (weatherPlugin) AfterLLM(context.Context, protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	return protocol.Continue{}, nil
}

func (weatherPlugin) BeforeTool(_ context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	if call.Tool != "get_weather" {
		return protocol.Continue{}, nil
	}
	return protocol.Respond{Action: protocol.ActionRespond, Result: protocol.ToolResult{ForLLM: fmt.Sprintf("%v: Sunny, 15°C", call.Arguments["city"])}}, nil
}

func (weatherPlugin) AfterTool(context.Context, protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	return protocol.Continue{}, nil
}

// A scenario plays a whole turn with no API key: the scripted LLM calls
// get_weather, which only exists because the hook injected it.
func Example() {
	s := agent.Scenario{
		Prompt: "What's the weather in Beijing today?",
		Replies: []agent.Reply{
			{ToolCalls: []agent.ToolCall{{Name: "get_weather", Arguments: map[string]any{"city": "Beijing"}}}},
			{Content: "Beijing is sunny today."},
		},
	}
	rt, err := runtime.New(runtime.Config{}, runtime.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := rt.Use(runtime.InProcess{Name: "weather", Hook: weatherPlugin{}}); err != nil {
		log.Fatal(err)
	}
	if err := rt.Start(context.Background()); err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	a := s.Agent()
	a.Hooks = rt
	a.OnStep = func(step agent.Step) {
		if step.Kind == agent.StepTool {
			fmt.Printf("%s %s by %s: %s\n", step.Tool, step.Outcome, step.By, step.Result.ForLLM)
		}
	}
	res, err := a.RunTurn(context.Background(), s.Prompt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status+":", res.Answer)
	// Output:
	// get_weather answered by weather: Beijing: Sunny, 15°C
	// done: Beijing is sunny today.
}
