package main

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// eventsPerTurn is what one agent turn in a session of its own raises:
// session start, turn start, LLM request and response, turn end, session end.
const eventsPerTurn = 6

// observe runs the agent loop with no hook, and with each SDK's hook
// observing every event, at three paces: flood, an LLM that answers at
// once, so that the loop is nothing but overhead; flood-wait, the same with
// hooks under observe_overflow "wait", which lose no event and slow the
// loop down instead; and paced, an LLM that takes LLMDelay, still far
// faster than any real one. Each contender's share of a
// round is followed by waiting until its hook has seen every event not
// dropped, so that a hook's backlog does not slow the next contender.
func (b *bench) observe() error {
	none, err := runtime.New(runtime.Config{}, runtime.Options{Logger: b.env.log.logger()})
	if err != nil {
		return err
	}
	if err := none.Start(b.ctx); err != nil {
		return err
	}
	defer none.Close()
	turns := (b.cfg.Events + eventsPerTurn - 1) / eventsPerTurn
	for _, pace := range []struct {
		name  string
		delay time.Duration
		mode  string
	}{{"flood", 0, modeObserve}, {"flood-wait", 0, modeObserveWait}, {"paced", b.cfg.LLMDelay, modeObserve}} {
		observers := []*hook{nil}
		for _, lang := range langs {
			observers = append(observers, b.hook(lang, sdk, pace.mode))
		}
		fmt.Fprintf(b.progress, "  %s: %d contenders, %d agent turns (%d events) each\n", pace.name, len(observers), turns, turns*eventsPerTurn)
		cs := make([]*contender, len(observers))
		emitted := make([]int64, len(observers))
		before := make([]runtime.ObserveStats, len(observers))
		for i, h := range observers {
			hooks := counted{Runtime: none, n: new(atomic.Int64)}
			c := &contender{id: "none", label: "no hook"}
			if h != nil {
				hooks = counted{Runtime: h.rt, n: &h.emitted}
				c.id, c.label = h.id, h.lang+" sdk observes *"
				emitted[i], before[i] = h.emitted.Load(), h.rt.ObserveStats()[h.id]
			}
			a := &agent.Agent{LLM: answerLLM{pace.delay}, Hooks: hooks}
			seq := 0
			c.do = func() error {
				seq++
				key := "session-" + strconv.Itoa(seq)
				res, err := a.RunTurnIn(b.ctx, key, "What is in my notes?")
				a.EndSession(key)
				if err == nil && res.Status != agent.TurnDone {
					err = fmt.Errorf("turn %s: %s", res.Status, res.Reason)
				}
				return err
			}
			cs[i] = c
		}
		interleave(b.rng, len(cs), turns, b.cfg.Rounds, func(i, n int) {
			for range n {
				cs[i].measure(true)
			}
			if h := observers[i]; h != nil {
				if err := b.drain(h); err != nil {
					cs[i].fail(err)
				}
			}
		})
		b.failures(cs)
		base := summarize(cs[0].samples).Median
		for i, c := range cs {
			r := observeRow{Pace: pace.name, ID: c.id, Label: c.label, summary: summarize(c.samples)}
			r.Slowdown = ratio(r.Median, base)
			if h := observers[i]; h != nil {
				r.Events = h.emitted.Load() - emitted[i]
				st := h.rt.ObserveStats()[h.id]
				r.Dropped, r.Waited = st.Dropped-before[i].Dropped, st.Waited-before[i].Waited
			} else {
				r.Events = int64(len(c.samples) * eventsPerTurn)
			}
			b.res.Observe = append(b.res.Observe, r)
		}
	}
	return nil
}

// drain waits until the hook has seen every event the runtime did not drop,
// and fails when it has seen more, or not all of them within a while.
func (b *bench) drain(h *hook) error {
	query := toolCall()
	query.Tool = "bench_events"
	deadline := time.Now().Add(30 * time.Second)
	for {
		want := h.emitted.Load() - int64(h.rt.Dropped()[h.id])
		_, d := h.rt.BeforeTool(b.ctx, query)
		if err := expect(d, protocol.ActionRespond); err != nil {
			return err
		}
		seen, err := strconv.ParseInt(d.Result.ForLLM, 10, 64)
		switch {
		case err != nil:
			return fmt.Errorf("bench_events answered %q", d.Result.ForLLM)
		case seen == want:
			return nil
		case seen > want:
			return fmt.Errorf("the hook saw %d events, but %d were sent", seen, want)
		case time.Now().After(deadline):
			return fmt.Errorf("the hook saw %d events of %d sent, and no more for 30 s", seen, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// counted counts the events the agent raises.
type counted struct {
	*runtime.Runtime
	n *atomic.Int64
}

func (c counted) Emit(ev protocol.RuntimeEvent) {
	c.n.Add(1)
	c.Runtime.Emit(ev)
}

// answerLLM answers every request with the same text, after delay.
type answerLLM struct{ delay time.Duration }

func (l answerLLM) Chat(ctx context.Context, _ protocol.BeforeLLMParams) (protocol.LLMResponse, error) {
	if l.delay > 0 {
		time.Sleep(l.delay)
	}
	return protocol.LLMResponse{Content: ptr("Your notes list three tasks.")}, nil
}
