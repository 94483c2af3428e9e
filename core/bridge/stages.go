package bridge

import (
	"context"
	"reflect"
	"slices"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// Stage is a protocol call the bridge makes, as the runtime names it
// (agents.Stage).
type Stage = agents.Stage

// The stages, in the order of a turn.
const (
	BeforeLLM  = agents.BeforeLLM
	AfterLLM   = agents.AfterLLM
	BeforeTool = agents.BeforeTool
	Approval   = agents.Approval
	AfterTool  = agents.AfterTool
)

// Stages are every stage, as --intercept names them.
var Stages = agents.Stages

// modeStages are the stages of each mode a hook declares in hook.hello.
var modeStages = map[protocol.Mode][]Stage{
	protocol.ModeLLM:     {BeforeLLM, AfterLLM},
	protocol.ModeTool:    {BeforeTool, AfterTool},
	protocol.ModeApprove: {Approval},
}

// stages are the stages the hook is asked: those of the modes it declared,
// or of --intercept. up is false when the hook is down for good; while it
// restarts, the modes it declared last stand, and calls wait for it.
func (s *server) stages() (map[Stage]bool, bool) {
	if s.rt.Down(s.opts.Name) != nil {
		return nil, false
	}
	s.mu.Lock()
	if modes, ok := s.rt.Declared(s.opts.Name); ok {
		s.modes = modes
	}
	modes := s.modes
	s.mu.Unlock()
	out := map[Stage]bool{}
	if len(modes) == 0 {
		for _, st := range s.opts.Intercept {
			out[st] = true
		}
		if len(s.opts.Intercept) == 0 {
			out[BeforeLLM], out[AfterLLM], out[BeforeTool], out[AfterTool] = true, true, true, true
		}
		return out, true
	}
	for _, m := range modes {
		for _, st := range modeStages[m] {
			out[st] = true
		}
	}
	return out, true
}

// ask makes one protocol call for the event and notes what it decided.
func (s *server) ask(ctx context.Context, ev Event, stage Stage, o *outcome) {
	meta := ev.meta(s.opts.Agent.Name)
	tool, args := ev.str("tool_name"), ev.object("tool_input")
	if o.args != nil {
		args = o.args
	}
	turn := ev.context(s.opts.Agent.Name)
	callID, what := nonEmpty(ev.str("tool_use_id")), canonical(s.opts.Agent.Name, ev, tool, args)
	switch stage {
	case BeforeTool:
		call, d := s.rt.BeforeTool(ctx, protocol.BeforeToolParams{Meta: meta, Context: turn, Tool: tool, Arguments: args, ToolCallID: callID, Canonical: what})
		o.skipped = append(o.skipped, d.Skipped...)
		o.heard(d)
		if d.Failed {
			o.failure = d.Reason
			return
		}
		if !d.Continue() {
			o.ended = fromDecision(d)
			return
		}
		newArgs, err := rewritten(s.opts.Agent.Name, tool, args, call.Arguments, what, call.Canonical)
		if err != nil {
			o.failure = err.Error()
			return
		}
		if !reflect.DeepEqual(newArgs, args) {
			o.args = newArgs
		}
	case Approval:
		d := s.rt.ApproveTool(ctx, protocol.ApproveToolParams{Meta: meta, Context: turn, Tool: tool, Arguments: args, ToolCallID: callID, Canonical: what})
		o.skipped = append(o.skipped, d.Skipped...)
		o.heard(d)
		if len(d.Skipped) > 0 {
			// The session has one hook: skipped, it approved nothing. The
			// runtime lets such a call run; here it gets no decision, and
			// the agent's own permission rules decide, as without a hook.
			return
		}
		o.approval = fromDecision(d)
		if d.Arguments != nil {
			o.args = d.Arguments
		}
	case AfterTool:
		result := s.opts.Agent.toolResult(ev)
		before := result.ForLLM
		params, d := s.rt.AfterTool(ctx, protocol.AfterToolParams{Meta: meta, Context: turn, Tool: tool, Arguments: args, Result: result, ToolCallID: callID, Canonical: what})
		o.skipped = append(o.skipped, d.Skipped...)
		o.heard(d)
		if !d.Continue() {
			o.ended = fromDecision(d)
			return
		}
		if params.Result.ForLLM != before {
			o.result, o.hook = &params.Result.ForLLM, s.opts.Name
		}
	case BeforeLLM:
		llm := s.opts.Agent.form().llm
		req := llm.request(ev)
		req.Meta, req.Context = meta, turn
		out, d := s.rt.BeforeLLM(ctx, req)
		o.skipped = append(o.skipped, d.Skipped...)
		if !d.Continue() {
			o.heard(d)
			o.ended = fromDecision(d)
			return
		}
		// Context for the model is a message appended to the request, in
		// the form each agent takes one.
		for _, c := range d.Context {
			out.Messages = append(slices.Clip(out.Messages), protocol.Message{Role: "user", Content: &c})
		}
		d.Context = nil
		o.heard(d)
		out.Meta, out.Context = nil, nil // ours, not the agent's
		o.llm = llm.changedRequest(ev, out)
	case AfterLLM:
		llm := s.opts.Agent.form().llm
		resp := llm.response(ev)
		resp.Meta, resp.Context = meta, turn
		out, d := s.rt.AfterLLM(ctx, resp)
		o.skipped = append(o.skipped, d.Skipped...)
		o.heard(d)
		if !d.Continue() {
			o.ended = fromDecision(d)
			return
		}
		out.Meta, out.Context = nil, nil
		o.llm = llm.changedResponse(ev, out)
	}
}
