package runtime

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/hookwire/hookwire/core/protocol"
)

// This file holds the outcome rules: how each hook's answer folds into the
// run of a chain (the fold, check and finish functions that the stage rows
// of stages.go point at) and what Decision the chain ends with.

// Decision is what a stage's hooks decided together.
type Decision struct {
	// Action is ActionContinue when every hook let the object through,
	// changed or not. Otherwise it is the action that ended the chain:
	// respond or deny_tool (before_tool), abort_turn or hard_abort; a
	// denied approval is deny_tool.
	Action protocol.Action
	// Hook names the hook that ended the chain.
	Hook string
	// Reason is that hook's reason, or why it failed.
	Reason string
	// Result is the tool result of a respond.
	Result *protocol.ToolResult
	// Arguments, after the approval, replace the call's arguments: set when
	// an approver approved with arguments (the last one that did wins).
	Arguments map[string]any
	// ByDefault is true when no hook decided: every approver that answered
	// abstained, and hooks.defaults.approval ruled; Reason says how.
	ByDefault bool
	// Canceled is true when the caller gave up: the context of the call was
	// canceled or met its own deadline (SIGTERM, Ctrl-C, a program shutting
	// down). The action is then abort_turn, whatever the stage and its
	// failure policy: no hook was skipped as if it had failed, and nothing
	// may go on without the hooks' word.
	Canceled bool
	// NeedsApproval is set on a respond when hooks.defaults.approve_respond
	// is true: the call must still be approved before the hook's answer
	// stands for the tool.
	NeedsApproval bool
	// Failed is true when a hook's call failed (crash, deadline, a reply
	// that breaks the protocol) and its stage's policy, closed, ended the
	// chain: no hook decided, Reason says what went wrong.
	Failed bool
	// Skipped says, for each hook whose call failed under an open policy
	// and was passed over, what went wrong: the chain went on without it,
	// and whoever runs the agent should hear of it.
	Skipped []string
	// Context is the text hooks asked to add to what the model reads next
	// (the context of their results), in the order they were asked.
	Context []string
	// Messages are what hooks asked to show the user (the message of their
	// results), each led by the hook's name.
	Messages []string
}

// Continue reports whether the agent may go on.
func (d Decision) Continue() bool { return d.Action == protocol.ActionContinue }

// letThrough is the decision of a chain no hook ended.
var letThrough = Decision{Action: protocol.ActionContinue}

// foldBeforeLLM folds a before_llm answer: a modify replaces the request,
// and the tools it adds are noted for hooks.defaults.respond: own_tools.
func foldBeforeLLM(r *Runtime, h *hook, c chainRun[protocol.BeforeLLMParams], res protocol.BeforeLLMResult) (chainRun[protocol.BeforeLLMParams], *Decision) {
	v, ok := res.(protocol.BeforeLLMModify)
	if !ok {
		return c, r.endsChain(h, res)
	}
	if r.defaults.Respond == RespondOwnTools {
		r.noteInjected(h.name, c.params.Tools, v.Request.Tools)
	}
	return c.modify(r, v.Request), nil
}

// foldAfterLLM folds an after_llm answer: a modify replaces the response.
func foldAfterLLM(r *Runtime, h *hook, c chainRun[protocol.AfterLLMParams], res protocol.AfterLLMResult) (chainRun[protocol.AfterLLMParams], *Decision) {
	if v, ok := res.(protocol.AfterLLMModify); ok {
		return c.modify(r, v.Response), nil
	}
	return c, r.endsChain(h, res)
}

// checkBeforeTool refuses a respond that hooks.defaults.respond does not
// allow the hook (see mayRespond).
func checkBeforeTool(r *Runtime, h *hook, call protocol.BeforeToolParams, res protocol.BeforeToolResult) error {
	if _, respond := res.(protocol.Respond); respond && !r.mayRespond(h.name, call.Tool) {
		return errRespondNotOwnTool(call.Tool)
	}
	return nil
}

// foldBeforeTool folds a before_tool answer: a modify replaces the call; a
// respond ends the chain with the tool's result, after replacing the call
// when it carries one.
func foldBeforeTool(r *Runtime, h *hook, c chainRun[protocol.BeforeToolParams], res protocol.BeforeToolResult) (chainRun[protocol.BeforeToolParams], *Decision) {
	switch v := res.(type) {
	case protocol.BeforeToolModify:
		return c.modify(r, v.Call), nil
	case protocol.Respond:
		if v.Call != nil {
			c = c.modify(r, *v.Call)
		}
		d := r.endedBy(h, v.Action, v.Reason)
		d.Result, d.NeedsApproval = &v.Result, r.defaults.ApproveRespond
		return c, d
	}
	return c, r.endsChain(h, res)
}

// checkApproveTool refuses an approver that says yes and "no opinion" at
// once: neither reading is safe to pick.
func checkApproveTool(_ *Runtime, _ *hook, _ protocol.ApproveToolParams, res protocol.ApproveToolResult) error {
	if res.Approved && isTrue(res.Abstain) {
		return errApprovedAndAbstained
	}
	return nil
}

// foldApproveTool folds an approver's answer: a denial ends the chain, an
// approval with arguments replaces the call's for the approvers after it
// (who get no affected_paths: the host cannot tell which paths new
// arguments touch), an abstention leaves the call to the next approver.
func foldApproveTool(r *Runtime, h *hook, c chainRun[protocol.ApproveToolParams], res protocol.ApproveToolResult) (chainRun[protocol.ApproveToolParams], *Decision) {
	switch {
	case isTrue(res.Abstain):
		c.abstained = true
	case !res.Approved:
		return c, r.endedBy(h, protocol.ActionDenyTool, res.Reason)
	default:
		c.approved = true
		if res.Arguments != nil {
			c.params.Arguments, c.params.AffectedPaths, c.decision.Arguments = res.Arguments, nil, res.Arguments
		}
	}
	return c, nil
}

// finishApproveTool decides once every approver has answered: when some
// abstained and none approved, hooks.defaults.approval rules.
func finishApproveTool(r *Runtime, c chainRun[protocol.ApproveToolParams]) Decision {
	if c.abstained && !c.approved {
		return r.approvalDefault()
	}
	return c.decision
}

// foldAfterTool folds an after_tool answer: a modify replaces the outcome.
func foldAfterTool(r *Runtime, h *hook, c chainRun[protocol.AfterToolParams], res protocol.AfterToolResult) (chainRun[protocol.AfterToolParams], *Decision) {
	if v, ok := res.(protocol.AfterToolModify); ok {
		return c.modify(r, v.Result), nil
	}
	return c, r.endsChain(h, res)
}

// endsChain is the decision of an answer that ends the chain at any stage
// that allows it: abort_turn, hard_abort or deny_tool; nil for any other.
func (r *Runtime) endsChain(h *hook, res protocol.Variant) *Decision {
	switch v := res.(type) {
	case protocol.AbortTurn:
		return r.endedBy(h, v.Action, v.Reason)
	case protocol.HardAbort:
		return r.endedBy(h, v.Action, v.Reason)
	case protocol.DenyTool:
		return &Decision{Action: v.Action, Hook: h.name, Reason: v.Reason}
	}
	return nil
}

// endedBy is the decision of a hook that ended the chain with an action,
// carrying its reason when the host passes it on (host.PassesReason).
func (r *Runtime) endedBy(h *hook, a protocol.Action, reason *string) *Decision {
	d := &Decision{Action: a, Hook: h.name}
	if reason != nil {
		if passes := r.host().PassesReason; passes == nil || passes(a) {
			d.Reason = *reason
		}
	}
	return d
}

func (r *Runtime) approvalDefault() Decision {
	d := Decision{Action: protocol.ActionDenyTool, ByDefault: true, Reason: "every approver abstained; hooks.defaults.approval is deny"}
	if r.defaults.Approval == ApprovalAllow {
		d.Action, d.Reason = protocol.ActionContinue, "every approver abstained; hooks.defaults.approval is allow"
	}
	return d
}

// noteInjected records the tools a hook's before_llm modify added.
func (r *Runtime) noteInjected(hook string, before, after []protocol.ToolDefinition) {
	r.injectedMu.Lock()
	defer r.injectedMu.Unlock()
	for _, t := range after {
		name := t.Function.Name
		if slices.ContainsFunc(before, func(b protocol.ToolDefinition) bool { return b.Function.Name == name }) {
			continue
		}
		if r.injected == nil {
			r.injected = map[string]map[string]bool{}
		}
		if r.injected[hook] == nil {
			r.injected[hook] = map[string]bool{}
		}
		r.injected[hook][name] = true
	}
}

// mayRespond reports whether a hook may answer a call of the tool with
// respond: always, unless hooks.defaults.respond is own_tools; then only
// for a tool the hook itself added in before_llm.
func (r *Runtime) mayRespond(hook, tool string) bool {
	if r.defaults.Respond != RespondOwnTools {
		return true
	}
	r.injectedMu.Lock()
	defer r.injectedMu.Unlock()
	return r.injected[hook][tool]
}

// errRespondNotOwnTool is the failure of a respond that
// hooks.defaults.respond does not allow (see mayRespond).
func errRespondNotOwnTool(tool string) error {
	return fmt.Errorf("respond is not allowed for tool %s: the hook did not add it in before_llm (hooks.defaults.respond is %s)", tool, RespondOwnTools)
}

// errApprovedAndAbstained is the failure of an approver that says yes and
// "no opinion" at once.
var errApprovedAndAbstained = errors.New(`the approver answered "approved": true and "abstain": true; an abstention must say "approved": false`)

func isTrue(b *bool) bool { return b != nil && *b }

// A modify replaces the object whole, as the documents require. The fields
// that say where a call comes from (meta, context, channel, chat_id) are
// the host's, not the hook's: when a reply leaves them out, as the
// documents' own examples do, they are kept.

// origin points at the fields of a params object that say where its call
// comes from.
type origin struct {
	meta    **protocol.Meta
	context **protocol.TurnContext
	channel **string
	chatID  **string
}

func beforeLLMOrigin(p *protocol.BeforeLLMParams) origin {
	return origin{&p.Meta, &p.Context, &p.Channel, &p.ChatID}
}

func afterLLMOrigin(p *protocol.AfterLLMParams) origin {
	return origin{&p.Meta, &p.Context, &p.Channel, &p.ChatID}
}

func beforeToolOrigin(p *protocol.BeforeToolParams) origin {
	return origin{&p.Meta, &p.Context, &p.Channel, &p.ChatID}
}

func afterToolOrigin(p *protocol.AfterToolParams) origin {
	return origin{&p.Meta, &p.Context, &p.Channel, &p.ChatID}
}

// keepOrigin keeps the origin of prev in next where next leaves it out,
// except under a host that replaces the object whole (host.ReplacesWhole):
// a reply without meta leaves the next hook an empty one.
func keepOrigin[P any](r *Runtime, of func(*P) origin, next, prev P) P {
	if r.host().ReplacesWhole || of == nil {
		return next
	}
	n, p := of(&next), of(&prev)
	*n.meta = cmp.Or(*n.meta, *p.meta)
	*n.context = cmp.Or(*n.context, *p.context)
	*n.channel = cmp.Or(*n.channel, *p.channel)
	*n.chatID = cmp.Or(*n.chatID, *p.chatID)
	return next
}
