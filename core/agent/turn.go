package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

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
