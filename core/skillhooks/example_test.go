package skillhooks_test

import (
	"context"
	"fmt"
	"log"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/skillhooks"
)

// An engine made from the example skill answers the first LLM call of a
// turn with the request the LLM should see: the user's message, then the
// prompts of after_user_input, before_each_agent and before_first_agent.
func Example() {
	hooks, err := skillhooks.Load("../../examples/skill-prompts/skills", []string{"notes"})
	if err != nil {
		log.Fatal(err)
	}
	engine := skillhooks.New(hooks)

	session, turn, prompt := "session-1", "turn-1", "What do my notes say?"
	res, err := engine.BeforeLLM(context.Background(), protocol.BeforeLLMParams{
		Meta:     &protocol.Meta{SessionKey: &session, TurnID: &turn},
		Model:    "any",
		Messages: []protocol.Message{{Role: "user", Content: &prompt}},
		Tools:    []protocol.ToolDefinition{{Type: "function", Function: protocol.FunctionDefinition{Name: "read_file"}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.(protocol.BeforeLLMModify).Request.Messages {
		fmt.Printf("%-6s %s\n", m.Role, *m.Content)
	}
	// Output:
	// user   What do my notes say?
	// system Answer in the language the user writes in.
	// user   Take one step now: call one tool, or answer if you have what you need.
	// system Read the files the user names before you answer; never guess what they say.
}

// Planning calls are the host's to mark, with the planning extension of
// hook.before_llm: only they see before_planning prompts.
func Example_planning() {
	hooks, err := skillhooks.Load("../../examples/skill-prompts/skills", []string{"notes"})
	if err != nil {
		log.Fatal(err)
	}
	engine := skillhooks.New(hooks)

	planning, prompt := true, "What do my notes say?"
	res, _ := engine.BeforeLLM(context.Background(), protocol.BeforeLLMParams{
		Model: "any", Planning: &planning,
		Messages: []protocol.Message{{Role: "user", Content: &prompt}},
	})
	for _, m := range res.(protocol.BeforeLLMModify).Request.Messages {
		fmt.Printf("%-6s %s\n", m.Role, *m.Content)
	}
	// Output:
	// user   What do my notes say?
	// system Answer in the language the user writes in.
	// system Plan in at most three steps, and name the files you will read.
}

// A hook built on other types than the runtime's (the Go SDK's, say) asks
// the engine for a plan with plain values and inserts the messages into a
// list of its own type.
func ExampleEngine_Plan() {
	hooks, err := skillhooks.Load("../../examples/skill-prompts/skills", []string{"notes"})
	if err != nil {
		log.Fatal(err)
	}
	engine := skillhooks.New(hooks)

	type message struct{ role, text string }
	history := []message{{"user", "What do my notes say?"}}
	plan := engine.Plan(skillhooks.Request{SessionKey: "s", TurnID: "t", Messages: len(history), Tools: true})
	for _, m := range skillhooks.Insert(history, plan, func(role, content string) message { return message{role, content} }) {
		fmt.Printf("%-6s %s\n", m.role, m.text)
	}
	// Output:
	// user   What do my notes say?
	// system Answer in the language the user writes in.
	// user   Take one step now: call one tool, or answer if you have what you need.
	// system Read the files the user names before you answer; never guess what they say.
}
