package bridge

import (
	"github.com/hookwire/hookwire/core/protocol"
)

// An abort (abort_turn, hard_abort) ends the turn, but an agent may still
// run the other tool calls of the model's answer it came in: each reaches
// the bridge as an event of its own, and the hook, asked again, may let it
// run. The session's server remembers the abort and blocks every later
// guarded call of the turn itself, in the agent's own form, until the turn
// is over: the user's next prompt or the end of the turn (Step.NewTurn),
// or, where the agent's events name their turn (turnOf), a call of another
// turn.

// abort is a turn a hook aborted.
type abort struct {
	hook, reason string
	// turn is the turn's id in the agent's events; empty where they carry
	// none.
	turn string
}

// turnIDs are the members that name an event's turn, where an agent writes
// one: Codex CLI's turn_id, Cursor's generation_id, Qwen Code's prompt_id.
var turnIDs = []string{"turn_id", "generation_id", "prompt_id"}

// turnOf is the id of an event's turn, or "" when it carries none.
func turnOf(ev Event) string {
	for _, key := range turnIDs {
		if id := ev.str(key); id != "" {
			return id
		}
	}
	return ""
}

// aborts says whether an outcome aborts the turn.
func (o *outcome) aborts() bool {
	return o.ended != nil && (o.ended.action == protocol.ActionAbortTurn || o.ended.action == protocol.ActionHardAbort)
}

// newTurn forgets an abort: the turn it ended is over.
func (s *server) newTurn() {
	s.mu.Lock()
	s.aborted = nil
	s.mu.Unlock()
}

// remember keeps the abort of the event's turn.
func (s *server) remember(ev Event, d *decision) {
	s.mu.Lock()
	s.aborted = &abort{hook: d.hook, reason: d.reason, turn: turnOf(ev)}
	s.mu.Unlock()
	s.log.Info("a hook aborted the turn: its later tool calls are blocked until the next prompt", "hook", d.hook, "event", ev.Name)
}

// abortOf is the abort that holds for an event: one of its turn, or of
// an unknown turn. A call of another turn than the abort's forgets it.
func (s *server) abortOf(ev Event) *abort {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.aborted
	if a != nil && a.turn != "" && turnOf(ev) != "" && turnOf(ev) != a.turn {
		s.aborted, a = nil, nil
	}
	return a
}

// blockAfter is the outcome of a guarded call after an abort of its turn:
// a denial, which every agent writes in its own form of a blocked call
// (the agent's own form of an approver's refusal, at each guarding event).
func blockAfter(a *abort, o outcome) outcome {
	why := "hookwire blocked the call: hook " + a.hook + " aborted this turn"
	if a.reason != "" {
		why += " (" + a.reason + ")"
	}
	why += ", and every later tool call of the turn is blocked; the hook is asked again at the next prompt"
	return outcome{step: o.step, failOpen: o.failOpen, firstTime: o.firstTime,
		approval: &decision{action: protocol.ActionDenyTool, hook: a.hook, reason: why}}
}
