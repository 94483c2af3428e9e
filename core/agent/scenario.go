package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hookwire/hookwire/core/internal/strict"
	"github.com/hookwire/hookwire/core/protocol"
)

// Scenario is a scripted conversation: the user's prompt, then what the LLM
// answers to each request, in order.
//
//	{
//	  "prompt": "What's the weather in Beijing today?",
//	  "replies": [
//	    {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Beijing"}}]},
//	    {"content": "Beijing is sunny today."}
//	  ]
//	}
//
// Or several turns, each with its session key, its prompt and its replies:
//
//	{
//	  "turns": [
//	    {"session": "alice", "prompt": "Hi", "replies": [{"content": "Hello Alice."}]},
//	    {"session": "bob", "prompt": "Hi", "replies": [{"content": "Hello Bob."}]},
//	    {"session": "alice", "prompt": "Bye", "replies": [{"content": "Bye."}], "end_session": true}
//	  ]
//	}
type Scenario struct {
	// Prompt is the user's message that starts the turn.
	Prompt string `json:"prompt"`
	// Model is the model name sent to hooks; "scripted" when empty.
	Model string `json:"model"`
	// Tools lists the built-in tools the agent offers (see Builtin);
	// echo_text and read_file when empty.
	Tools []string `json:"tools"`
	// Root is the folder read_file may read, relative to the scenario file;
	// the scenario's own folder when empty.
	Root string `json:"root"`
	// Replies are the LLM's answers, one per request.
	Replies []Reply `json:"replies"`
	// Turns, in place of Prompt and Replies, are turns played in order.
	Turns []Turn `json:"turns"`
	// MCPServers are MCP servers, by name, whose tools the agent offers
	// too (see ConnectMCP).
	MCPServers map[string]MCPServer `json:"mcp_servers"`
	// Expect lists what a run must do for the scenario to pass as a test
	// (hookwire run --check); LoadScenario reads it into Expectations.
	Expect json.RawMessage `json:"expect"`
	// Expectations are the items of Expect, read (see Expectation).
	Expectations []Expectation `json:"-"`
}

// Turn is one turn of a scenario.
type Turn struct {
	// Session is the key of the turn's session; the agent's SessionKey
	// ("session-1") when empty.
	Session string `json:"session"`
	// Prompt is the user's message that starts the turn.
	Prompt string `json:"prompt"`
	// Replies are the LLM's answers to the turn's requests, in order.
	Replies []Reply `json:"replies"`
	// EndSession ends the session once the turn is over. Sessions still
	// open end when the scenario does.
	EndSession bool `json:"end_session"`
}

// Reply is one scripted answer of the LLM: text, tool calls, or both.
type Reply struct {
	Content   string     `json:"content"`
	ToolCalls []ToolCall `json:"tool_calls"`
}

// ToolCall is a tool call in a scripted reply. Its arguments are written
// as an object; the LLM sends them as a JSON string, as LLMs do.
type ToolCall struct {
	// ID identifies the call; "call-N" when empty.
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// LoadScenario reads a scenario file. A relative root is resolved against
// the file's folder.
func LoadScenario(path string) (Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, err
	}
	var s Scenario
	if err := strict.Decode(data, &s); err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := s.check(); err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", path, err)
	}
	if s.Expectations, err = ParseExpect(s.Expect); err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", path, err)
	}
	if !filepath.IsAbs(s.Root) {
		s.Root = filepath.Join(filepath.Dir(path), s.Root)
	}
	s.resolveMCP(filepath.Dir(path))
	return s, nil
}

func (s Scenario) check() error {
	if len(s.Turns) > 0 && (s.Prompt != "" || s.Replies != nil) {
		return fmt.Errorf("turns: a scenario has either prompt and replies, or turns")
	}
	for i, name := range s.Tools {
		if _, ok := builtins[name]; !ok {
			return fmt.Errorf("tools[%d]: no built-in tool %q (there are: %s)", i, name, strings.Join(BuiltinNames(), ", "))
		}
	}
	for name, server := range s.MCPServers {
		if server.Command == "" {
			return fmt.Errorf("mcp_servers.%s.command: required", name)
		}
	}
	for i, t := range s.turns() {
		at := ""
		if len(s.Turns) > 0 {
			at = fmt.Sprintf("turns[%d].", i)
		}
		if t.Prompt == "" {
			return fmt.Errorf("%sprompt: required", at)
		}
		if len(t.Replies) == 0 {
			return fmt.Errorf("%sreplies: at least one is needed", at)
		}
		for j, r := range t.Replies {
			for k, c := range r.ToolCalls {
				if c.Name == "" {
					return fmt.Errorf("%sreplies[%d].tool_calls[%d].name: required", at, j, k)
				}
			}
		}
	}
	return nil
}

// turns are the scenario's turns: Turns, or the one of Prompt and Replies.
func (s Scenario) turns() []Turn {
	if len(s.Turns) > 0 {
		return s.Turns
	}
	return []Turn{{Prompt: s.Prompt, Replies: s.Replies}}
}

// Play plays the scenario's turns in order on an agent (see Agent), each
// with its own scripted replies, ends the sessions the turns say to end,
// then closes the agent, which ends the sessions still open. It stops after
// a turn that fails, with an error naming it, or that hard-aborts.
func (s Scenario) Play(ctx context.Context, a *Agent) ([]TurnResult, error) {
	defer a.Close()
	var results []TurnResult
	for i, t := range s.turns() {
		session := cmp.Or(t.Session, a.SessionKey)
		a.LLM = NewScripted(t.Replies)
		res, err := a.RunTurnIn(ctx, session, t.Prompt)
		results = append(results, res)
		switch {
		case err != nil && len(s.Turns) > 1:
			return results, fmt.Errorf("turn %d failed: %s", i+1, res.Reason)
		case err != nil:
			return results, fmt.Errorf("the turn failed: %s", res.Reason)
		case res.Status == TurnHardAborted:
			return results, nil
		case t.EndSession:
			a.EndSession(session)
		}
	}
	return results, nil
}

// Scripted is an LLM that answers with the replies of a scenario, in order.
// Like a real LLM, it can only call the tools its request offers: a reply
// that calls another tool is an error, which makes it a test of what
// before_llm hooks did to the request.
type Scripted struct {
	replies []Reply
	next    int
	calls   int
}

// NewScripted makes an LLM that gives these replies.
func NewScripted(replies []Reply) *Scripted { return &Scripted{replies: replies} }

// Chat answers with the next reply.
func (s *Scripted) Chat(_ context.Context, req protocol.BeforeLLMParams) (protocol.LLMResponse, error) {
	if s.next >= len(s.replies) {
		return protocol.LLMResponse{}, fmt.Errorf("scripted LLM: request %d has no reply left (the scenario has %d)", s.next+1, len(s.replies))
	}
	r := s.replies[s.next]
	s.next++
	offered := toolNames(req.Tools)
	resp := protocol.LLMResponse{Role: ptr("assistant"), FinishReason: ptr("stop")}
	if r.Content != "" {
		resp.Content = ptr(r.Content)
	}
	for _, c := range r.ToolCalls {
		if !slices.Contains(offered, c.Name) {
			return protocol.LLMResponse{}, fmt.Errorf("scripted LLM: reply %d calls %s, but the request offers no such tool (it offers: %s)",
				s.next, c.Name, strings.Join(offered, ", "))
		}
		s.calls++
		id := c.ID
		if id == "" {
			id = "call-" + strconv.Itoa(s.calls)
		}
		args, err := json.Marshal(c.Arguments)
		if err != nil {
			return protocol.LLMResponse{}, err
		}
		if c.Arguments == nil {
			args = []byte("{}")
		}
		resp.ToolCalls = append(resp.ToolCalls, protocol.ToolCall{
			ID: ptr(id), Type: ptr("function"),
			Function: protocol.FunctionCall{Name: c.Name, Arguments: string(args)},
		})
	}
	if len(resp.ToolCalls) > 0 {
		resp.FinishReason = ptr("tool_calls")
	}
	return resp, nil
}

func toolNames(defs []protocol.ToolDefinition) []string {
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Function.Name
	}
	return names
}

func ptr[T any](v T) *T { return &v }

// Agent makes an agent that plays the scenario: a scripted LLM and the
// built-in tools it names. Set Hooks and OnStep on the result.
func (s Scenario) Agent() *Agent {
	names := s.Tools
	if len(names) == 0 {
		names = defaultTools
	}
	a := &Agent{LLM: NewScripted(s.turns()[0].Replies), Model: s.Model}
	for _, name := range names {
		tool, _ := Builtin(name, s.Root)
		a.Tools = append(a.Tools, tool)
	}
	return a
}
