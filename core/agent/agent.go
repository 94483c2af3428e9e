// Package agent is a small agent loop for demonstrations and tests: it runs
// turns against an LLM (a scripted one needs no API key), runs its tools,
// asks its hooks at every stage, and raises runtime events at the points
// the protocol documents.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
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

// turn is the state of one turn.
type turn struct {
	a        *Agent
	id       string
	session  string
	meta     func(iteration int) *protocol.Meta
	context  *protocol.TurnContext
	messages []protocol.Message
	started  time.Time
	// context is what hooks asked the model to read next (their results'
	// context), not yet sent.
	forModel []string
	// iter is the LLM round under way, 0 before the first.
	iter int
}

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

func (t *turn) run(ctx context.Context) (TurnResult, error) {
	a := t.a
	hooks := a.hooks()
	max := a.MaxIterations
	if max <= 0 {
		max = 10
	}
	for iter := 1; iter <= max; iter++ {
		if err := ctx.Err(); err != nil {
			return t.canceled(ctx, iter)
		}
		t.iter = iter
		req := protocol.BeforeLLMParams{
			Meta: t.metaOf(protocol.MethodBeforeLLM, iter), Context: t.context, Model: or(a.Model, "scripted"),
			Messages: t.request(), Tools: a.definitions(), Options: map[string]any{},
			Channel: t.channel(), ChatID: t.chatID(),
		}
		if a.Loop != nil && a.Loop.Options != nil {
			req.Options = a.Loop.Options(or(a.AgentID, "agent-1"))
		}
		req, d := hooks.BeforeLLM(ctx, req)
		t.heard(d)
		if !d.Continue() {
			return t.stop(ctx, d, iter)
		}
		// What hooks asked the model to read comes as a user message at the
		// end of the request.
		if len(t.forModel) > 0 {
			note := strings.Join(t.forModel, "\n\n")
			a.step(Step{Kind: StepContext, Iteration: iter, Text: note})
			req.Messages = append(slices.Clip(req.Messages), protocol.Message{Role: "user", Content: &note})
			t.messages = append(t.messages, protocol.Message{Role: "user", Content: &note})
			t.forModel = nil
		}
		if ctx.Err() != nil {
			return t.canceled(ctx, iter)
		}
		a.step(Step{Kind: StepLLMRequest, Iteration: iter, Tools: toolNames(req.Tools), Messages: req.Messages})
		sent := map[string]any{"Model": req.Model, "MessagesCount": len(req.Messages), "ToolsCount": len(req.Tools)}
		if a.Loop != nil {
			sent["MaxTokens"], sent["Temperature"] = req.Options["max_tokens"], req.Options["temperature"]
		}
		t.emit(protocol.KindLLMRequest, sent)
		resp, err := a.LLM.Chat(ctx, req)
		if err != nil {
			t.emit(protocol.KindError, map[string]any{"Stage": "llm", "Message": err.Error()})
			return TurnResult{Status: TurnFailed, Reason: err.Error(), Iterations: iter}, err
		}
		if a.Loop != nil && a.Loop.Response != nil {
			resp = a.Loop.Response(resp)
		}
		content := ""
		if resp.Content != nil {
			content = *resp.Content
		}
		t.emit(protocol.KindLLMResponse, map[string]any{"ContentLen": len(content), "ToolCalls": len(resp.ToolCalls)})
		after, d := hooks.AfterLLM(ctx, protocol.AfterLLMParams{
			Meta: t.metaOf(protocol.MethodAfterLLM, iter), Context: t.context, Model: req.Model, Response: resp, Channel: t.channel(), ChatID: t.chatID(),
		})
		t.heard(d)
		if !d.Continue() {
			return t.stop(ctx, d, iter)
		}
		resp = after.Response
		content = ""
		if resp.Content != nil {
			content = *resp.Content
		}
		a.step(Step{Kind: StepLLMResponse, Iteration: iter, Text: content, Calls: resp.ToolCalls})
		t.messages = append(t.messages, protocol.Message{Role: "assistant", Content: resp.Content, ToolCalls: resp.ToolCalls})
		if len(resp.ToolCalls) == 0 {
			if len(t.forModel) > 0 {
				continue // the model is to read what hooks added: the turn goes on
			}
			return TurnResult{Status: TurnDone, Answer: content, Iterations: iter}, nil
		}
		handled := ""
		for _, call := range resp.ToolCalls {
			if ctx.Err() != nil {
				return t.canceled(ctx, iter)
			}
			result, d := t.tool(ctx, iter, call)
			if !d.Continue() {
				return t.stop(ctx, d, iter)
			}
			t.messages = append(t.messages, protocol.Message{Role: "tool", Content: ptr(result.ForLLM), ToolCallID: call.ID})
			if result.ResponseHandled != nil && *result.ResponseHandled && handled == "" {
				handled = or(deref(result.ForUser), result.ForLLM)
			}
		}
		if handled != "" {
			return TurnResult{Status: TurnDone, Answer: handled, Iterations: iter}, nil
		}
	}
	err := fmt.Errorf("no final answer after %d LLM rounds", max)
	return TurnResult{Status: TurnFailed, Reason: err.Error(), Iterations: max}, err
}

// tool handles one tool call: before_tool, approval, the tool, after_tool.
// A decision that does not continue ends the turn. Steps and events name
// the call as hooks left it and, when hooks changed it, the LLM's beside it.
func (t *turn) tool(ctx context.Context, iter int, tc protocol.ToolCall) (protocol.ToolResult, runtime.Decision) {
	a, hooks := t.a, t.a.hooks()
	var args map[string]any
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &args); err != nil || args == nil {
		args = map[string]any{}
		res := failure(fmt.Sprintf("%s: arguments are not a JSON object: %s", tc.Function.Name, tc.Function.Arguments))
		a.step(Step{Kind: StepTool, Tool: tc.Function.Name, Arguments: args, Outcome: ToolDenied, Result: &res, Reason: "bad arguments"})
		return res, runtime.Decision{Action: protocol.ActionContinue}
	}
	asked := Call{Tool: tc.Function.Name, Arguments: args}
	call, d := hooks.BeforeTool(ctx, protocol.BeforeToolParams{
		Meta: t.metaOf(protocol.MethodBeforeTool, iter), Context: t.context, Tool: asked.Tool, Arguments: maps.Clone(args), Channel: t.channel(), ChatID: t.chatID(),
	})
	t.heard(d)
	step := Step{Kind: StepTool}
	rewritten := func() {
		step.Tool, step.Arguments, step.LLMCall = call.Tool, call.Arguments, nil
		if call.Tool != asked.Tool || !reflect.DeepEqual(call.Arguments, asked.Arguments) {
			step.LLMCall = &asked
		}
	}
	rewritten()
	switch d.Action {
	case protocol.ActionRespond:
		if d.NeedsApproval {
			if res, ad, ok := t.approve(ctx, iter, &step, call); !ok {
				return res, ad
			}
		}
		// The hook's answer stands for the tool: no after_tool.
		t.emit(protocol.KindToolExecStart, toolStart(step))
		t.emit(protocol.KindToolExecEnd, toolEnd(step, 0, *d.Result))
		step.Outcome, step.By, step.Result, step.Reason = ToolAnswered, d.Hook, d.Result, d.Reason
		a.step(step)
		return *d.Result, pass
	case protocol.ActionDenyTool:
		res := failure(fmt.Sprintf("tool %s was denied by hook %s: %s", call.Tool, d.Hook, d.Reason))
		if a.Loop != nil {
			res.ForLLM = a.Loop.Denied(d.Reason, false)
		}
		t.emit(protocol.KindToolExecSkipped, toolSkipped(step, d.Reason))
		step.Outcome, step.By, step.Result, step.Reason = ToolDenied, d.Hook, &res, d.Reason
		a.step(step)
		return res, pass
	case protocol.ActionContinue:
	default:
		return protocol.ToolResult{}, d
	}
	res, d, ok := t.approve(ctx, iter, &step, call)
	if !ok {
		return res, d
	}
	if d.Arguments != nil {
		call.Arguments = d.Arguments
		rewritten()
	}
	if err := ctx.Err(); err != nil {
		// Approved before the caller gave up; it runs nothing after.
		return protocol.ToolResult{}, runtime.Decision{Action: protocol.ActionAbortTurn, Canceled: true, Reason: "the caller gave up: " + context.Cause(ctx).Error()}
	}
	t.emit(protocol.KindToolExecStart, toolStart(step))
	started := time.Now()
	res = a.run(ctx, call.Tool, call.Arguments)
	took := time.Since(started)
	if a.Loop != nil && a.Loop.Result != nil {
		res = a.Loop.Result(res)
	}
	t.emit(protocol.KindToolExecEnd, toolEnd(step, took, res))
	after, d := hooks.AfterTool(ctx, protocol.AfterToolParams{
		Meta: t.metaOf(protocol.MethodAfterTool, iter), Context: t.context, Tool: call.Tool, Arguments: call.Arguments, Result: res,
		Duration: ptr(took.Nanoseconds()), Channel: t.channel(), ChatID: t.chatID(),
	})
	t.heard(d)
	if !d.Continue() {
		return protocol.ToolResult{}, d
	}
	res = after.Result
	step.Outcome, step.Result, step.Duration = ToolRan, &res, took
	a.step(step)
	return res, pass
}

// approve asks the approvers about a call. When ok is false the call must
// not go on: res is the answer for the LLM (the step is written) and d
// continues, or d ends the turn (the caller gave up). When ok is true, d
// may carry the arguments approvers set.
func (t *turn) approve(ctx context.Context, iter int, step *Step, call protocol.BeforeToolParams) (res protocol.ToolResult, d runtime.Decision, ok bool) {
	approval := protocol.ApproveToolParams{
		Meta: t.metaOf(protocol.MethodApproveTool, iter), Context: t.context, Tool: call.Tool, Arguments: call.Arguments, Channel: t.channel(), ChatID: t.chatID(),
	}
	if tool, ok := t.a.tool(call.Tool).(Describer); ok {
		kind, paths := tool.Describe(call.Arguments)
		approval.ToolKind, approval.AffectedPaths = &kind, paths
	}
	d = t.a.hooks().ApproveTool(ctx, approval)
	t.heard(d)
	if d.Canceled {
		return protocol.ToolResult{}, d, false
	}
	step.ByDefault = d.ByDefault
	if !d.Continue() {
		by := " by hook " + d.Hook
		if d.ByDefault {
			by = ""
		}
		res := failure(fmt.Sprintf("tool %s was not approved%s: %s", call.Tool, by, d.Reason))
		if l := t.a.Loop; l != nil {
			reason := d.Reason
			if d.Failed && l.ApprovalFailed != nil {
				reason = l.ApprovalFailed(d.Hook)
			}
			res.ForLLM = l.Denied(reason, true)
		}
		t.emit(protocol.KindToolExecSkipped, toolSkipped(*step, d.Reason))
		step.Outcome, step.By, step.Result, step.Reason = ToolUnapproved, d.Hook, &res, d.Reason
		t.a.step(*step)
		return res, pass, false
	}
	if d.ByDefault {
		step.Reason = d.Reason
	}
	return protocol.ToolResult{}, d, true
}

var pass = runtime.Decision{Action: protocol.ActionContinue}

// stop ends the turn on a hook's decision, or because the caller gave up.
func (t *turn) stop(ctx context.Context, d runtime.Decision, iter int) (TurnResult, error) {
	if d.Canceled || ctx.Err() != nil {
		return t.canceled(ctx, iter)
	}
	status := TurnAborted
	if d.Action == protocol.ActionHardAbort {
		status = TurnHardAborted
		t.a.stopped.Store(true)
	}
	return TurnResult{Status: status, Hook: d.Hook, Reason: d.Reason, Iterations: iter}, nil
}

// canceled ends the turn of a caller that gave up: nothing more is asked
// of the LLM, and no tool runs.
func (t *turn) canceled(ctx context.Context, iter int) (TurnResult, error) {
	err := context.Cause(ctx)
	return TurnResult{Status: TurnCanceled, Reason: "the caller gave up: " + err.Error(), Iterations: iter}, err
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

// heard takes what hooks said besides their decision: their messages are
// shown now, their context waits for the model's next request.
func (t *turn) heard(d runtime.Decision) {
	for _, m := range d.Messages {
		t.a.step(Step{Kind: StepMessage, Text: m})
	}
	t.forModel = append(t.forModel, d.Context...)
}

func (t *turn) emit(kind string, payload map[string]any) {
	t.a.emitAt(kind, t.session, t.id, t.iter, payload)
}

// metaOf is the meta of a call of method in the LLM round iteration.
func (t *turn) metaOf(method string, iteration int) *protocol.Meta {
	m := t.meta(iteration)
	if m.TracePath != nil {
		m.TracePath = ptr(t.a.Loop.TracePaths[method])
	}
	return m
}

// channel and chatID are those of the calls, unless the host's loop
// leaves them empty.
func (t *turn) channel() *string {
	if t.a.Loop != nil && t.a.Loop.NoChannel {
		return nil
	}
	return ptr(channel)
}

func (t *turn) chatID() *string {
	if t.a.Loop != nil && t.a.Loop.NoChannel {
		return nil
	}
	return ptr(chatID)
}

// request is the conversation an LLM request sends: the host's system
// prompt, when its loop has one, then the turn's messages.
func (t *turn) request() []protocol.Message {
	if t.a.Loop == nil || t.a.Loop.SystemPrompt == "" {
		return t.messages
	}
	return append([]protocol.Message{{Role: "system", Content: &t.a.Loop.SystemPrompt}}, t.messages...)
}

// emit raises a runtime event of the session, outside any turn.
func (a *Agent) emit(kind, sessionKey, turnID string, payload map[string]any) {
	a.emitAt(kind, sessionKey, turnID, 0, payload)
}

// emitAt raises a runtime event, with its payload in PascalCase as PicoClaw
// writes it; turnID is empty for an event of the session, iteration is the
// LLM round under way. Under a host's loop (Loop), the event is as that
// loop writes it.
func (a *Agent) emitAt(kind, sessionKey, turnID string, iteration int, payload map[string]any) {
	a.step(Step{Kind: StepEvent, Event: kind})
	if a.Hooks == nil {
		return
	}
	severity := "info"
	if kind == protocol.KindError {
		severity = "error"
	}
	agentID := or(a.AgentID, "agent-1")
	ev := protocol.RuntimeEvent{
		ID:     ptr("evt-" + strconv.FormatInt(a.events.Add(1), 10)),
		Kind:   kind,
		Time:   ptr(time.Now().UTC().Format(time.RFC3339Nano)),
		Source: protocol.EventSource{Component: ptr("agent"), Name: ptr(agentID)},
		Scope: protocol.EventScope{
			AgentID: ptr(agentID), SessionKey: ptr(sessionKey), TurnID: optional(turnID),
			Channel: ptr(channel), ChatID: ptr(chatID),
		},
	}
	if l := a.Loop; l != nil {
		payload = l.Payload(kind, payload)
		severity = l.Severity(kind, payload)
		// The scope is the inbound message's, its sender included.
		ev.Scope.Extra = protocol.Extra{"sender_id": json.RawMessage(strconv.Quote(senderID))}
		if l.Correlation != nil {
			ev.Correlation = l.Correlation(l.TracePaths[kind])
		}
		if l.Attrs != nil {
			ev.Attrs = l.Attrs(l.Source, iteration)
		}
	}
	ev.Severity = &severity
	ev.Payload, _ = json.Marshal(payload)
	a.Hooks.Emit(ev)
}

// Tool events name the call as hooks left it (Tool, Arguments), as
// PicoClaw does; when hooks changed it, LLMTool and LLMArguments keep the
// call the LLM made, so that no hook can launder it out of an audit.

func toolStart(s Step) map[string]any {
	p := map[string]any{"Tool": s.Tool, "Arguments": s.Arguments}
	if s.LLMCall != nil {
		p["LLMTool"], p["LLMArguments"] = s.LLMCall.Tool, s.LLMCall.Arguments
	}
	return p
}

func toolSkipped(s Step, reason string) map[string]any {
	p := map[string]any{"Tool": s.Tool, "Reason": reason}
	if s.LLMCall != nil {
		p["LLMTool"] = s.LLMCall.Tool
	}
	return p
}

func toolEnd(s Step, took time.Duration, r protocol.ToolResult) map[string]any {
	p := map[string]any{
		"Tool": s.Tool, "Duration": took.Nanoseconds(), "ForLLMLen": len(r.ForLLM), "ForUserLen": len(deref(r.ForUser)),
		"IsError": r.IsError != nil && *r.IsError, "Async": r.Async != nil && *r.Async,
	}
	if s.LLMCall != nil {
		p["LLMTool"] = s.LLMCall.Tool
	}
	return p
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
