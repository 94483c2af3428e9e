package runtime

import (
	"context"
	"fmt"

	"github.com/hookwire/hookwire/core/internal/waits"

	"github.com/hookwire/hookwire/core/protocol"
)

// guard runs an in-process hook so that it cannot bring the runtime down: a
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
		return zero, waits.Err(ctx)
	}
}

func (g guard) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	_, err := guarded(ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, g.h.(EventObserver).OnEvent(ctx, ev)
	})
	return err
}
