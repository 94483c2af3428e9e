// Package agent is a small agent loop for demonstrations and tests: it runs
// turns against an LLM (a scripted one needs no API key), runs its tools,
// asks its hooks at every stage, and raises runtime events at the points
// the protocol documents.
package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// LLM answers a request.
type LLM interface {
	Chat(ctx context.Context, req protocol.BeforeLLMParams) (protocol.LLMResponse, error)
}

// Hooks is what the agent asks at each stage; *runtime.Runtime is one.
type Hooks interface {
	BeforeLLM(context.Context, protocol.BeforeLLMParams) (protocol.BeforeLLMParams, runtime.Decision)
	AfterLLM(context.Context, protocol.AfterLLMParams) (protocol.AfterLLMParams, runtime.Decision)
	BeforeTool(context.Context, protocol.BeforeToolParams) (protocol.BeforeToolParams, runtime.Decision)
	ApproveTool(context.Context, protocol.ApproveToolParams) runtime.Decision
	AfterTool(context.Context, protocol.AfterToolParams) (protocol.AfterToolParams, runtime.Decision)
	Emit(protocol.RuntimeEvent)
}

// Agent runs turns. Only LLM is required.
type Agent struct {
	LLM LLM
	// Tools are the tools the agent runs itself and offers the LLM.
	Tools []Tool
	// Hooks are asked at every stage; nil means none.
	Hooks Hooks
	// Model is the model name sent to hooks; "scripted" when empty.
	Model string
	// AgentID names the agent in meta and events, and SessionKey is the
	// session of RunTurn; "agent-1" and "session-1" when empty, as in the
	// documents' examples.
	AgentID, SessionKey string
	// MaxIterations bounds the LLM rounds of a turn; 10 when zero.
	MaxIterations int
	// OnStep, when set, is told about each step as it happens.
	OnStep func(Step)
	// Loop, when set, is what a host's own agent loop sends where it
	// differs from this agent (host.Host.Loop): the agent sends the same,
	// a system prompt, meta's trace path and source, the host's words for
	// a denied call, its events' payloads, correlation and statuses.
	Loop *host.Loop

	turns   atomic.Int64
	events  atomic.Int64
	stopped atomic.Bool // a hook asked for hard_abort

	mu       sync.Mutex
	sessions []*session // started and not ended, in the order they started
}

// session is a conversation: the turns of one session key.
type session struct {
	key     string
	turns   int
	history []protocol.Message // what the agent said and heard in earlier turns
}

// StepKind names a kind of Step.
type StepKind string

// Step kinds.
const (
	StepUser        StepKind = "user"         // Text is the prompt
	StepEvent       StepKind = "event"        // Event is the kind raised
	StepLLMRequest  StepKind = "llm_request"  // Iteration, Tools offered, Messages sent
	StepLLMResponse StepKind = "llm_response" // Iteration, Text, Calls
	StepTool        StepKind = "tool"         // Tool, Arguments, Outcome, By or ByDefault, Result, Reason, Duration
	StepTurnEnd     StepKind = "turn_end"     // Outcome is the status, Text the answer, By and Reason who stopped it
	StepMessage     StepKind = "message"      // Text is a hook's message to the user, led by the hook's name
	StepContext     StepKind = "context"      // Iteration, Text: context hooks added for the model's next request
)

// Tool outcomes.
const (
	ToolRan        = "ran"        // the agent ran the tool
	ToolAnswered   = "answered"   // a hook answered with respond; the tool did not run
	ToolDenied     = "denied"     // a before_tool hook denied it
	ToolUnapproved = "unapproved" // an approver denied it
)

// Step is one thing the agent did; which fields are set depends on Kind.
type Step struct {
	Kind      StepKind
	Iteration int
	Text      string
	Tools     []string
	Messages  []protocol.Message
	Calls     []protocol.ToolCall
	// Tool and Arguments are the call as hooks left it: what ran, or what
	// a respond answered.
	Tool      string
	Arguments map[string]any
	// LLMCall is the call the LLM made, when hooks changed it (a
	// before_tool modify, the call of a respond, approvers' arguments).
	LLMCall *Call
	Result  *protocol.ToolResult
	Outcome string
	By      string
	// ByDefault is true when the approval default decided the tool call,
	// every approver having abstained; Reason then says how.
	ByDefault bool
	Reason    string
	Event     string
	Duration  time.Duration
}

// Call is a tool call: a tool's name and its arguments.
type Call struct {
	Tool      string
	Arguments map[string]any
}

// Turn statuses.
const (
	TurnDone        = "done"
	TurnAborted     = "aborted"      // a hook answered abort_turn
	TurnHardAborted = "hard_aborted" // a hook answered hard_abort: the agent takes no more turns
	TurnFailed      = "failed"       // the LLM failed, or the turn ran out of iterations
	TurnCanceled    = "canceled"     // the caller gave up (its context is done): the turn stopped at the next stage
)

// TurnResult is how a turn ended.
type TurnResult struct {
	Status string
	// Answer is the LLM's final text, or the for_user (else for_llm) of a
	// tool result that set response_handled.
	Answer string
	// Hook names the hook that aborted the turn.
	Hook string
	// Reason says why the turn did not end with an answer.
	Reason     string
	Iterations int
}

// ErrStopped is returned by RunTurn once a hook has asked for hard_abort.
var ErrStopped = errors.New("agent stopped by hard_abort")

const (
	channel  = "cli"
	chatID   = "chat-1"
	senderID = "user"
)

// RunTurn runs one turn of the agent's session (SessionKey): the prompt,
// then LLM rounds and tool calls until the LLM answers without calling a
// tool. The error is set when the turn failed (TurnFailed) or the agent was
// stopped.
func (a *Agent) RunTurn(ctx context.Context, prompt string) (TurnResult, error) {
	return a.RunTurnIn(ctx, a.SessionKey, prompt)
}

// RunTurnIn runs one turn of the session with that key ("session-1" when
// empty), as RunTurn does. The first turn of a session key not seen yet, or
// seen and ended, raises agent.session.start before the turn; the LLM sees
// the session's earlier turns before the prompt.
func (a *Agent) RunTurnIn(ctx context.Context, sessionKey, prompt string) (TurnResult, error) {
	if a.stopped.Load() {
		return TurnResult{Status: TurnHardAborted, Reason: ErrStopped.Error()}, ErrStopped
	}
	s := a.session(or(sessionKey, "session-1"))
	t := &turn{a: a, id: "turn-" + strconv.FormatInt(a.turns.Add(1), 10), session: s.key, started: time.Now()}
	agentID := or(a.AgentID, "agent-1")
	t.meta = func(iteration int) *protocol.Meta {
		return &protocol.Meta{AgentID: ptr(agentID), TurnID: ptr(t.id), ParentTurnID: ptr(""), SessionKey: ptr(s.key), Iteration: ptr(iteration)}
	}
	if l := a.Loop; l != nil {
		// The host's loop writes every member of meta, its trace path
		// that of the call.
		t.meta = func(iteration int) *protocol.Meta {
			return &protocol.Meta{AgentID: ptr(agentID), TurnID: ptr(t.id), ParentTurnID: ptr(""), SessionKey: ptr(s.key), Iteration: ptr(iteration), TracePath: ptr(""), Source: ptr(l.Source)}
		}
	}
	t.context = &protocol.TurnContext{Inbound: &protocol.InboundContext{Channel: ptr(channel), ChatID: ptr(chatID), SenderID: ptr(senderID)}}
	a.mu.Lock()
	t.messages = append(slices.Clip(s.history), protocol.Message{Role: "user", Content: ptr(prompt)})
	a.mu.Unlock()

	a.step(Step{Kind: StepUser, Text: prompt})
	t.emit(protocol.KindTurnStart, map[string]any{"UserMessage": prompt})
	res, err := t.run(ctx)
	end := map[string]any{
		"Status": res.Status, "Iterations": res.Iterations, "Duration": time.Since(t.started).Nanoseconds(), "FinalContentLen": len(res.Answer),
	}
	if a.Loop != nil {
		end["Status"], end["UserMessage"], end["FinalContent"] = a.Loop.TurnStatus[res.Status], prompt, res.Answer
	}
	t.emit(protocol.KindTurnEnd, end)
	a.step(Step{Kind: StepTurnEnd, Outcome: res.Status, Text: res.Answer, By: res.Hook, Reason: res.Reason, Duration: time.Since(t.started)})
	a.mu.Lock()
	s.history, s.turns = t.messages, s.turns+1
	a.mu.Unlock()
	return res, err
}

// session is the open session of that key; a new one raises
// agent.session.start.
func (a *Agent) session(key string) *session {
	a.mu.Lock()
	i := slices.IndexFunc(a.sessions, func(s *session) bool { return s.key == key })
	if i >= 0 {
		defer a.mu.Unlock()
		return a.sessions[i]
	}
	s := &session{key: key}
	a.sessions = append(a.sessions, s)
	a.mu.Unlock()
	a.emit(protocol.KindSessionStart, key, "", map[string]any{"SessionKey": key})
	return s
}

// EndSession ends the session of that key, if it has started and not
// ended: it raises agent.session.end, and the next turn with that key
// starts a new session, with no history.
func (a *Agent) EndSession(sessionKey string) {
	a.end(or(sessionKey, "session-1"), "ended")
}

// Close ends every session still open, in the order they started. The
// agent stays usable: a later turn starts its session anew. Close the
// agent before the runtime, so that observers get the session ends.
func (a *Agent) Close() error {
	a.mu.Lock()
	keys := make([]string, len(a.sessions))
	for i, s := range a.sessions {
		keys[i] = s.key
	}
	a.mu.Unlock()
	for _, key := range keys {
		a.end(key, "closed")
	}
	return nil
}

func (a *Agent) end(key, reason string) {
	a.mu.Lock()
	i := slices.IndexFunc(a.sessions, func(s *session) bool { return s.key == key })
	if i < 0 {
		a.mu.Unlock()
		return
	}
	s := a.sessions[i]
	a.sessions = slices.Delete(a.sessions, i, i+1)
	turns := s.turns
	a.mu.Unlock()
	a.emit(protocol.KindSessionEnd, key, "", map[string]any{"SessionKey": key, "Turns": turns, "Reason": reason})
}

// run runs one of the agent's own tools.
func (a *Agent) run(ctx context.Context, name string, args map[string]any) protocol.ToolResult {
	if tool := a.tool(name); tool != nil {
		return tool.Run(ctx, args)
	}
	return failure(fmt.Sprintf("unknown tool %q", name))
}

// tool is the agent's own tool of that name, or nil.
func (a *Agent) tool(name string) Tool {
	for _, tool := range a.Tools {
		if tool.Definition().Function.Name == name {
			return tool
		}
	}
	return nil
}

func (a *Agent) definitions() []protocol.ToolDefinition {
	defs := make([]protocol.ToolDefinition, len(a.Tools))
	for i, tool := range a.Tools {
		defs[i] = tool.Definition()
	}
	return defs
}

func (a *Agent) hooks() Hooks {
	if a.Hooks == nil {
		return noHooks{}
	}
	return a.Hooks
}

func (a *Agent) step(s Step) {
	if a.OnStep != nil {
		a.OnStep(s)
	}
}

// noHooks lets everything through.
type noHooks struct{}

func (noHooks) BeforeLLM(_ context.Context, p protocol.BeforeLLMParams) (protocol.BeforeLLMParams, runtime.Decision) {
	return p, pass
}
func (noHooks) AfterLLM(_ context.Context, p protocol.AfterLLMParams) (protocol.AfterLLMParams, runtime.Decision) {
	return p, pass
}
func (noHooks) BeforeTool(_ context.Context, p protocol.BeforeToolParams) (protocol.BeforeToolParams, runtime.Decision) {
	return p, pass
}
func (noHooks) ApproveTool(context.Context, protocol.ApproveToolParams) runtime.Decision { return pass }
func (noHooks) AfterTool(_ context.Context, p protocol.AfterToolParams) (protocol.AfterToolParams, runtime.Decision) {
	return p, pass
}
func (noHooks) Emit(protocol.RuntimeEvent) {}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func or(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
