package bridge

import (
	"log/slog"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

// Every agent's prompt ends a turn a hook aborted, and so does the end of
// its turn where it has one (the one event that does, for an agent with no
// prompt event: Mistral Vibe); a subagent's end does not: the turn that ran
// it goes on.
func TestEveryAgentsPromptAndTurnEndEndAnAbortedTurnAndASubagentsEndDoesNot(t *testing.T) {
	for name, agent := range Agents {
		over := agent.TurnOverEvent()
		if prompt := agent.PromptEvent(); prompt != "" && (over != prompt || agent.Events[prompt].Kind != protocol.KindTurnStart) ||
			prompt == "" && (over == "" || agent.Events[over].Kind != protocol.KindTurnEnd) {
			t.Errorf("%s: neither its prompt nor its turn's end ends an aborted turn (got %q)", name, over)
		}
		ends := 0
		for event, step := range agent.Events {
			switch {
			case step.Kind == protocol.KindTurnEnd && step.NewTurn:
				ends++
			case step.NewTurn && step.Kind != protocol.KindTurnStart:
				t.Errorf("%s: %s ends an aborted turn, but it is neither a prompt nor a turn's end", name, event)
			}
			if step.NewTurn && (step.Guard || step.Kind == protocol.KindTurnEnd && event != "Stop" && event != "TaskComplete" && event != "AfterAgent" && event != "agentStop" && event != "stop" && event != "post_cascade_response" && event != "post_agent" && event != "session.idle") {
				t.Errorf("%s: %s ends an aborted turn: a subagent's end, or a guard, never does", name, event)
			}
		}
		if ends != 1 {
			t.Errorf("%s: %d turn-end events end an aborted turn, want its one turn end", name, ends)
		}
	}
}

func TestTheTurnOfAnEventIsTheIDItsAgentGivesIt(t *testing.T) {
	for _, tc := range []struct {
		agent  string
		fields map[string]any
		want   string
	}{
		{"codex-cli", map[string]any{"turn_id": "t1"}, "t1"},
		{"cursor", map[string]any{"generation_id": "g1"}, "g1"},
		{"qwen-code", map[string]any{"prompt_id": "s########1"}, "s########1"},
		{"windsurf", map[string]any{"execution_id": "e1"}, "e1"},
		{"claude-code", map[string]any{"session_id": "s", "turn_id": "t1"}, ""}, // none
	} {
		if got := Agents[tc.agent].turnOf(Event{Fields: tc.fields}); got != tc.want {
			t.Errorf("%s: turnOf(%v) = %q, want %q", tc.agent, tc.fields, got, tc.want)
		}
	}
}

// The end of a turn that comes late, once the next turn began and a hook
// aborted it, leaves that abort standing; the end of the aborted turn, or
// the next prompt, ends it.
func TestTheEndOfAnEarlierTurnLeavesTheAbortOfTheNextOne(t *testing.T) {
	a := Agents["windsurf"]
	s := &server{opts: ServeOptions{Agent: a}, log: slog.New(slog.DiscardHandler)}
	in := func(event, turn string) (Event, Step) {
		return Event{Name: event, Fields: map[string]any{"execution_id": turn}}, a.Events[event]
	}
	abortTurn2 := func() {
		ev, _ := in("pre_run_command", "turn-2")
		s.remember(ev, &decision{action: protocol.ActionAbortTurn, hook: "guard"})
	}
	abortTurn2()
	s.newTurn(in("post_cascade_response", "turn-1"))
	if s.aborted == nil {
		t.Fatal("the late end of turn 1 ended the abort of turn 2")
	}
	s.newTurn(in("post_cascade_response", "turn-2"))
	if s.aborted != nil {
		t.Error("the end of turn 2 did not end its abort")
	}
	abortTurn2()
	s.newTurn(in("pre_user_prompt", "turn-3"))
	if s.aborted != nil {
		t.Error("the next prompt did not end the abort")
	}
}
