package bridge

import (
	"fmt"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// An abort (abort_turn, hard_abort) ends the turn, but an agent may still
// run the other tool calls of the model's answer it came in: each reaches
// the bridge as an event of its own, and the hook, asked again, may let it
// run. The session's server remembers the abort and blocks every later
// guarded call of the turn itself, in the agent's own form, until the turn
// is over: the user's next prompt or the end of the turn (Step.NewTurn),
// or, where the agent's events name their turn (agents.Agent.TurnID), a
// call of another turn. An agent that asks about the calls of one answer
// at once (as Gemini CLI does) sends them to the server together: a call
// the hook lets go waits until those being asked with it are decided, and
// is blocked if one of them aborted the turn. A call decided before the aborting one reached
// the server is not: the agent runs it.

// abort is a turn a hook aborted.
type abort struct {
	hook, reason string
	// turn is the turn's id in the agent's events; empty where they carry
	// none.
	turn string
}

// turnOf is the id of an event's turn, or "" when the agent's events
// carry none.
func (a *Agent) turnOf(ev Event) string {
	if a.TurnID == "" {
		return ""
	}
	return ev.str(a.TurnID)
}

// aborts says whether an outcome aborts the turn.
func (o *outcome) aborts() bool {
	return o.ended != nil && (o.ended.action == protocol.ActionAbortTurn || o.ended.action == protocol.ActionHardAbort)
}

// newTurn forgets an abort: the turn it ended is over. The end of a turn
// forgets only the abort of its own turn, where the agent's events name
// it: an end that comes after the next turn began (Windsurf runs its hook
// asynchronously) leaves an abort of that next turn standing.
func (s *server) newTurn(ev Event, step Step) {
	turn := s.opts.Agent.turnOf(ev)
	s.mu.Lock()
	if a := s.aborted; step.Kind != protocol.KindTurnEnd || a == nil || a.turn == "" || turn == "" || a.turn == turn {
		s.aborted = nil
	}
	s.turns = true
	s.mu.Unlock()
}

// remember keeps the abort of the event's turn.
func (s *server) remember(ev Event, d *decision) {
	s.mu.Lock()
	s.aborted = &abort{hook: d.hook, reason: d.reason, turn: s.opts.Agent.turnOf(ev)}
	s.mu.Unlock()
	s.log.Info("a hook aborted the turn: its later tool calls are blocked until the next prompt", "hook", d.hook, "event", ev.Name)
}

// abortOf is the abort that holds for an event: one of its turn, or of
// an unknown turn. A call of another turn than the abort's forgets it.
func (s *server) abortOf(ev Event) *abort {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.aborted
	turn := s.opts.Agent.turnOf(ev)
	if a != nil && a.turn != "" && turn != "" && turn != a.turn {
		s.aborted, a = nil, nil
	}
	return a
}

// blockAfter is the outcome of a guarded call after an abort of its turn:
// a denial, which every agent writes in its own form of a blocked call
// (the agent's own form of an approver's refusal, at each guarding event).
func (s *server) blockAfter(a *abort, o outcome) outcome {
	why := "hookwire blocked the call: hook " + a.hook + " aborted this turn"
	if a.reason != "" {
		why += " (" + a.reason + ")"
	}
	why += ", and every later tool call of the turn is blocked; the hook is asked again at the next prompt"
	s.mu.Lock()
	turns := s.turns
	s.mu.Unlock()
	if prompt := s.opts.Agent.TurnOverEvent(); !turns && a.turn == "" && prompt != "" {
		// Without the prompt (or the turn's end, where the agent has no
		// prompt event), the bridge never learns that the turn is over:
		// say so, and how to tell it.
		why += fmt.Sprintf(" (%s sends this hook no %s, so its tool calls stay blocked until the session ends: name %s for the hook in %s's settings, as hookwire install does)",
			s.opts.Agent.Title, prompt, prompt, s.opts.Agent.Title)
	}
	return outcome{step: o.step, failOpen: o.failOpen, firstTime: o.firstTime,
		approval: &decision{action: protocol.ActionDenyTool, hook: a.hook, reason: why}}
}

// asked notes a guard event being asked of the hook; the function it
// returns notes it decided, once, whenever it is called again.
func (s *server) asked() func() {
	done := make(chan struct{})
	s.mu.Lock()
	if s.asking == nil {
		s.asking = map[chan struct{}]bool{}
	}
	s.asking[done] = true
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.asking, done)
			s.mu.Unlock()
			close(done)
		})
	}
}

// awaitOthers waits until the guard events being asked now are decided,
// at most for the invocations' deadline: each of them is bounded by it.
func (s *server) awaitOthers() {
	s.mu.Lock()
	var others []chan struct{}
	for done := range s.asking {
		others = append(others, done)
	}
	s.mu.Unlock()
	if len(others) == 0 {
		return
	}
	bound := time.NewTimer(s.deadline)
	defer bound.Stop()
	for _, done := range others {
		select {
		case <-done:
		case <-bound.C:
			s.log.Warn("guard events asked at the same time were not decided within the deadline", "deadline", s.deadline)
			return
		}
	}
}
