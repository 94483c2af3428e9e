package runtime

import (
	"context"
	"slices"

	"github.com/hookwire/hookwire/core/protocol"
)

// This file is the runtime's side of the method table: the Go interfaces of
// the methods a hook answers, the stages, each stage's row (what is
// particular to its chain) and the Runtime method that runs it. The chain
// itself (runChain, in chain.go) is the same for every stage.

// The interfaces below mirror the process protocol, method for method, so
// that a hook written in Go and run in-process and a hook process are
// interchangeable. Params are passed by value and must be treated as
// read-only: to change an object, return a modify result that carries the
// whole new object. The runtime hands each hook a context that ends at the
// hook's deadline.

// LLMInterceptor intercepts hook.before_llm and hook.after_llm.
type LLMInterceptor interface {
	BeforeLLM(ctx context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error)
	AfterLLM(ctx context.Context, resp protocol.AfterLLMParams) (protocol.AfterLLMResult, error)
}

// ToolInterceptor intercepts hook.before_tool and hook.after_tool.
type ToolInterceptor interface {
	BeforeTool(ctx context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error)
	AfterTool(ctx context.Context, result protocol.AfterToolParams) (protocol.AfterToolResult, error)
}

// ToolApprover answers hook.approve_tool.
type ToolApprover interface {
	ApproveTool(ctx context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error)
}

// EventObserver receives the hook.runtime_event notifications of the kinds
// it observes. Events are delivered from a queue of the hook's own, never
// from the agent's goroutine.
type EventObserver interface {
	OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error
}

// Stage is an interception point, named as in the intercept list of the
// hooks configuration (protocol.Stage).
type Stage = protocol.Stage

// Stages, in the order an agent meets them.
const (
	StageBeforeLLM   = protocol.StageBeforeLLM
	StageAfterLLM    = protocol.StageAfterLLM
	StageBeforeTool  = protocol.StageBeforeTool
	StageApproveTool = protocol.StageApproveTool
	StageAfterTool   = protocol.StageAfterTool
)

// Stages lists every stage.
var Stages = protocol.Stages

// The rows of the stages: I is the interface an in-process hook implements
// to be asked, P the params, R the result. Each names the functions that
// make the stage differ (its outcome rules are in decision.go); the chain
// that runs them is runChain, in chain.go.
var (
	beforeLLM = &stage[LLMInterceptor, protocol.BeforeLLMParams, protocol.BeforeLLMResult]{
		Stage:  StageBeforeLLM,
		ask:    askBeforeLLM,
		origin: beforeLLMOrigin,
		fold:   foldBeforeLLM,
	}

	afterLLM = &stage[LLMInterceptor, protocol.AfterLLMParams, protocol.AfterLLMResult]{
		Stage:  StageAfterLLM,
		ask:    LLMInterceptor.AfterLLM,
		origin: afterLLMOrigin,
		fold:   foldAfterLLM,
	}

	beforeTool = &stage[ToolInterceptor, protocol.BeforeToolParams, protocol.BeforeToolResult]{
		Stage:   StageBeforeTool,
		ask:     ToolInterceptor.BeforeTool,
		check:   checkBeforeTool,
		origin:  beforeToolOrigin,
		fold:    foldBeforeTool,
		failure: protocol.ActionDenyTool,
	}

	approveTool = &stage[ToolApprover, protocol.ApproveToolParams, protocol.ApproveToolResult]{
		Stage:   StageApproveTool,
		ask:     ToolApprover.ApproveTool,
		check:   checkApproveTool,
		fold:    foldApproveTool,
		finish:  finishApproveTool,
		failure: protocol.ActionDenyTool,
	}

	afterTool = &stage[ToolInterceptor, protocol.AfterToolParams, protocol.AfterToolResult]{
		Stage:  StageAfterTool,
		ask:    ToolInterceptor.AfterTool,
		origin: afterToolOrigin,
		fold:   foldAfterTool,
	}
)

// askBeforeLLM asks an in-process hook about a request to the LLM. The
// request's lists are clipped, so that a hook that appends to them, as the
// documents' Go example does, gets new arrays instead of writing into the
// caller's.
func askBeforeLLM(h LLMInterceptor, ctx context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	req.Messages, req.Tools = slices.Clip(req.Messages), slices.Clip(req.Tools)
	return h.BeforeLLM(ctx, req)
}

// stageChains finds a stage's chain by its name.
var stageChains = map[Stage]anyStage{}

func init() {
	for _, st := range []anyStage{beforeLLM, afterLLM, beforeTool, approveTool, afterTool} {
		stageChains[st.name()] = st
	}
}

// BeforeLLM asks the before_llm hooks, in order, about a request to the
// LLM. Each hook sees the request as the previous one left it; a modify
// replaces it whole. It returns the request to send.
func (r *Runtime) BeforeLLM(ctx context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMParams, Decision) {
	return runChain(r, ctx, beforeLLM, req)
}

// AfterLLM asks the after_llm hooks, in order, about the LLM's answer. A
// modify replaces the whole params object (meta, model, response).
func (r *Runtime) AfterLLM(ctx context.Context, resp protocol.AfterLLMParams) (protocol.AfterLLMParams, Decision) {
	return runChain(r, ctx, afterLLM, resp)
}

// BeforeTool asks the before_tool hooks, in order, about a tool call. A
// modify replaces the call whole. The first respond, deny_tool, abort_turn
// or hard_abort ends the chain; a respond carries the tool's result, and
// the agent must then skip the tool, its approval and after_tool.
func (r *Runtime) BeforeTool(ctx context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolParams, Decision) {
	return runChain(r, ctx, beforeTool, call)
}

// ApproveTool asks the approvers, in order, whether a tool call may run.
//
// An approval goes on to the next approver; when it carries arguments they
// replace the call's, for the approvers after it and for the tool, so the
// last approver that set arguments wins (Decision.Arguments). Those later
// approvers get no affected_paths: the host cannot tell which paths new
// arguments touch. The first denial ends the chain as a deny_tool
// decision. An abstention ({"approved": false, "abstain": true}) leaves the
// call to the next approver; when at least one approver abstained and none
// approved or denied, hooks.defaults.approval decides (deny unless it is
// allow) and the decision is ByDefault. An approver that fails, or answers
// approved and abstain at once, denies the call, unless its policy for
// approve_tool is open: then it is skipped, neither approving nor
// abstaining. With no approver, or none that answered, the call may run.
func (r *Runtime) ApproveTool(ctx context.Context, req protocol.ApproveToolParams) Decision {
	_, d := runChain(r, ctx, approveTool, req)
	return d
}

// AfterTool asks the after_tool hooks, in order, about a tool's outcome. A
// modify replaces the whole params object; the tool result is its Result.
func (r *Runtime) AfterTool(ctx context.Context, result protocol.AfterToolParams) (protocol.AfterToolParams, Decision) {
	return runChain(r, ctx, afterTool, result)
}
