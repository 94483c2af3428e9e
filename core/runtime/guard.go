package runtime

import (
	"context"
	"fmt"
	"slices"

	"github.com/hookwire/hookwire/core/protocol"
)

// guard runs an in-process hook so that it cannot take the runtime down: a
// panic becomes an error, and a hook that ignores its context still meets
// its deadline (its goroutine is left to finish on its own).
type guard struct{ h any }

func guarded[R any](ctx context.Context, call func(context.Context) (R, error)) (R, error) {
	type outcome struct {
		res R
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: fmt.Errorf("hook panicked: %v", p)}
			}
		}()
		res, err := call(ctx)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-ctx.Done():
		var zero R
		return zero, ctxError(ctx)
	}
}

func (g guard) BeforeLLM(ctx context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	// Clipped, so that a hook that appends to them, as the documents' Go
	// example does, gets new arrays instead of writing into the caller's.
	req.Messages, req.Tools = slices.Clip(req.Messages), slices.Clip(req.Tools)
	return guarded(ctx, func(ctx context.Context) (protocol.BeforeLLMResult, error) {
		return g.h.(LLMInterceptor).BeforeLLM(ctx, req)
	})
}

func (g guard) AfterLLM(ctx context.Context, resp protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	return guarded(ctx, func(ctx context.Context) (protocol.AfterLLMResult, error) {
		return g.h.(LLMInterceptor).AfterLLM(ctx, resp)
	})
}

func (g guard) BeforeTool(ctx context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	return guarded(ctx, func(ctx context.Context) (protocol.BeforeToolResult, error) {
		return g.h.(ToolInterceptor).BeforeTool(ctx, call)
	})
}

func (g guard) AfterTool(ctx context.Context, result protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	return guarded(ctx, func(ctx context.Context) (protocol.AfterToolResult, error) {
		return g.h.(ToolInterceptor).AfterTool(ctx, result)
	})
}

func (g guard) ApproveTool(ctx context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	return guarded(ctx, func(ctx context.Context) (protocol.ApproveToolResult, error) {
		return g.h.(ToolApprover).ApproveTool(ctx, req)
	})
}

func (g guard) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	_, err := guarded(ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, g.h.(EventObserver).OnEvent(ctx, ev)
	})
	return err
}
