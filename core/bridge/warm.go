package bridge

import (
	"context"
	"fmt"
	"time"
)

// Warm runs a session's hook for an agent that keeps a server of ours
// running for the whole session and asks it each event itself (Claude
// Code's mcp_tool hooks, core/bridge/mcptool): no process and no socket
// per event. run serves the agent; answer gives the reply the command hook
// would have written for an event's JSON, from the same code, as the
// hook's JSON output (hookOutput). The hook
// starts at once, and stops when run returns; run's ctx ends when the hook
// is down for good, so that the agent finds its server gone and blocks
// the guards it names (its own fail-closed setting), and when ctx ends.
func Warm(ctx context.Context, opts ServeOptions, run func(ctx context.Context, answer func(event []byte) (output string, err error)) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s, closeRuntime, err := open(ctx, opts)
	if err != nil {
		return err
	}
	defer closeRuntime()
	go func() {
		down := time.NewTicker(500 * time.Millisecond)
		defer down.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-down.C:
				if err := s.down(); err != nil {
					s.log.Error("stopping", "error", err)
					cancel(err)
					return
				}
			}
		}
	}()
	answer := func(event []byte) (string, error) {
		ev, err := s.opts.Agent.Parse(event)
		if err != nil {
			return hookOutput(s.opts.Agent.unread(event, err, s.opts.FailOpen))
		}
		reply := s.handle(ctx, ev)
		s.pub.Event(ev.Name, map[string]any{"event": ev.Fields, "reply": reply})
		return hookOutput(reply)
	}
	if err := run(ctx, answer); err != nil && context.Cause(ctx) != err {
		return err
	}
	return context.Cause(ctx)
}

// unread is the reply to an event that cannot be read: a guard, or an
// event not yet known not to be one, is blocked (under failOpen, given no
// decision).
func (a *Agent) unread(data []byte, err error, failOpen bool) Reply {
	ev, step := Event{}, Step{Guard: true}
	if name := eventName(data, a.eventKey()); name != "" {
		ev.Name, step = name, a.Events[name]
	}
	return a.decide(ev, outcome{step: step, failure: err.Error(), failOpen: failOpen})
}

// hookOutput is a reply as a hook's JSON output, for an agent that reads
// only that (an mcp_tool hook's result): a block written as exit code 2
// and stderr becomes a decision block with the reason, and an error (any
// other exit code) is returned as an error, which the agent reports, and
// blocks where its hook says onFailure block.
func hookOutput(r Reply) (string, error) {
	switch r.Exit {
	case 0:
		if r.Stdout == "" {
			return "{}", nil
		}
		return r.Stdout, nil
	case 2:
		return encode(map[string]any{"decision": "block", "reason": r.Stderr}), nil
	}
	return "", fmt.Errorf("%s", r.Stderr)
}
