package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

func say(text string) []Reply { return []Reply{{Content: text}} }

func TestSessionEventsComeInOrderOverTwoSessions(t *testing.T) {
	dir := t.TempDir()
	watch, legacy := filepath.Join(dir, "watch"), filepath.Join(dir, "legacy")
	rt := startHooks(t, runtime.DefaultsConfig{}, map[string]runtime.ProcessConfig{
		"watch":  fixture(nil, []string{"agent.session.*", "agent.turn.*"}, "-record", watch),
		"legacy": fixture(nil, []string{"turn_start", "turn_end", "error"}, "-record", legacy),
	})
	s := Scenario{Root: dir, Turns: []Turn{
		{Session: "alice", Prompt: "hi", Replies: say("hello alice")},
		{Session: "bob", Prompt: "hi", Replies: say("hello bob")},
		{Session: "alice", Prompt: "bye", Replies: say("bye alice"), EndSession: true},
	}}
	a := s.Agent()
	a.Hooks = rt
	if _, err := s.Play(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	a.Close() // again: nothing is left to end
	rt.Close()

	describe := func(evs []protocol.RuntimeEvent) []string {
		var out []string
		for _, ev := range evs {
			line := ev.Kind + " " + *ev.Scope.SessionKey
			if strings.HasPrefix(ev.Kind, "agent.session.") {
				line += " " + string(ev.Payload)
				if ev.Scope.TurnID != nil {
					line += " in a turn"
				}
			}
			out = append(out, line)
		}
		return out
	}
	want := []string{
		`agent.session.start alice {"SessionKey":"alice"}`,
		"agent.turn.start alice", "agent.turn.end alice",
		`agent.session.start bob {"SessionKey":"bob"}`,
		"agent.turn.start bob", "agent.turn.end bob",
		"agent.turn.start alice", "agent.turn.end alice",
		`agent.session.end alice {"Reason":"ended","SessionKey":"alice","Turns":2}`,
		`agent.session.end bob {"Reason":"closed","SessionKey":"bob","Turns":1}`,
	}
	if got := describe(received[protocol.RuntimeEvent](t, watch, protocol.MethodRuntimeEvent)); !slices.Equal(got, want) {
		t.Errorf("the observer got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var turnsOnly []string
	for _, w := range want {
		if strings.HasPrefix(w, "agent.turn.") {
			turnsOnly = append(turnsOnly, w)
		}
	}
	if got := describe(received[protocol.RuntimeEvent](t, legacy, protocol.MethodRuntimeEvent)); !slices.Equal(got, turnsOnly) {
		t.Errorf("an observer of legacy names got\n%s\nwant the turns only: session events have no legacy name", strings.Join(got, "\n"))
	}
}

func TestASessionRemembersItsTurnsUntilItEnds(t *testing.T) {
	s := Scenario{Root: t.TempDir(), Turns: []Turn{
		{Session: "alice", Prompt: "my name is Alice", Replies: []Reply{echo("Alice"), {Content: "noted"}}},
		{Session: "bob", Prompt: "who am I?", Replies: say("no idea")},
		{Session: "alice", Prompt: "who am I?", Replies: say("Alice"), EndSession: true},
		{Session: "alice", Prompt: "who am I?", Replies: say("no idea")},
	}}
	a := s.Agent()
	var seen []string // what each turn's first LLM request held
	var events []string
	a.OnStep = func(st Step) {
		switch {
		case st.Kind == StepLLMRequest && st.Iteration == 1:
			var roles []string
			for _, m := range st.Messages {
				roles = append(roles, m.Role+":"+deref(m.Content))
			}
			seen = append(seen, strings.Join(roles, " | "))
		case st.Kind == StepEvent && strings.HasPrefix(st.Event, "agent.session."):
			events = append(events, st.Event)
		}
	}
	if _, err := s.Play(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"user:my name is Alice",
		"user:who am I?",
		"user:my name is Alice | assistant: | tool:Alice | assistant:noted | user:who am I?",
		"user:who am I?",
	}
	if !slices.Equal(seen, want) {
		t.Errorf("the LLM saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	wantEvents := []string{
		protocol.KindSessionStart, protocol.KindSessionStart, protocol.KindSessionEnd, // alice, bob, alice ended
		protocol.KindSessionStart, protocol.KindSessionEnd, protocol.KindSessionEnd, // alice anew; Play closes bob and alice
	}
	if !slices.Equal(events, wantEvents) {
		t.Errorf("session events %v, want %v", events, wantEvents)
	}
}

func TestRunTurnUsesTheAgentsSessionAndEndSessionEndsIt(t *testing.T) {
	a := &Agent{LLM: NewScripted(append(say("one"), say("two")...)), SessionKey: "desk"}
	var events []string
	a.OnStep = func(st Step) {
		if st.Kind == StepEvent && strings.HasPrefix(st.Event, "agent.session.") {
			events = append(events, st.Event)
		}
	}
	a.RunTurn(context.Background(), "a")
	a.RunTurnIn(context.Background(), "desk", "b")
	a.EndSession("elsewhere") // never started: nothing to end
	a.EndSession("desk")
	a.EndSession("desk")
	a.Close()
	if want := []string{protocol.KindSessionStart, protocol.KindSessionEnd}; !slices.Equal(events, want) {
		t.Errorf("session events %v, want %v", events, want)
	}
}

func TestPlayStopsAtAFailedTurnAndNamesIt(t *testing.T) {
	s := Scenario{Root: t.TempDir(), Turns: []Turn{
		{Prompt: "a", Replies: say("fine")},
		{Prompt: "b", Replies: []Reply{echo("x")}}, // the script runs out
		{Prompt: "c", Replies: say("never played")},
	}}
	res, err := s.Play(context.Background(), s.Agent())
	if err == nil || !strings.HasPrefix(err.Error(), "turn 2 failed: scripted LLM: request 2 has no reply left") || len(res) != 2 {
		t.Errorf("results %+v, error %v", res, err)
	}
}

func TestLoadScenarioWithTurns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	os.WriteFile(path, []byte(`{"tools":["echo_text"],"turns":[
		{"session":"alice","prompt":"p","replies":[{"content":"x"}],"end_session":true},
		{"prompt":"q","replies":[{"content":"y"}]}]}`), 0o644)
	s, err := LoadScenario(path)
	if err != nil || len(s.Turns) != 2 || !s.Turns[0].EndSession || s.Turns[1].Session != "" {
		t.Errorf("scenario = %+v, %v", s, err)
	}
	for body, want := range map[string]string{
		`{"prompt":"p","replies":[{}],"turns":[{"prompt":"q","replies":[{}]}]}`: "turns: a scenario has either prompt and replies, or turns",
		`{"turns":[{"prompt":"p","replies":[{}]},{"replies":[{}]}]}`:            "turns[1].prompt: required",
		`{"turns":[{"prompt":"p"}]}`:                                            "turns[0].replies: at least one is needed",
		`{"turns":[{"prompt":"p","replies":[{"tool_calls":[{}]}]}]}`:            "turns[0].replies[0].tool_calls[0].name: required",
		`{"turns":[{"prompt":"p","replies":[{}],"end":true}]}`:                  "turns[0].end: unknown key",
	} {
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := LoadScenario(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

func ExampleScenario_Play() {
	s := Scenario{Turns: []Turn{
		{Session: "alice", Prompt: "Hi", Replies: []Reply{{Content: "Hello Alice."}}},
		{Session: "bob", Prompt: "Hi", Replies: []Reply{{Content: "Hello Bob."}}},
		{Session: "alice", Prompt: "Bye", Replies: []Reply{{Content: "Bye."}}, EndSession: true},
	}}
	a := s.Agent()
	a.OnStep = func(st Step) {
		if st.Kind == StepEvent && (strings.HasPrefix(st.Event, "agent.session.") || st.Event == protocol.KindTurnStart) {
			fmt.Println(st.Event)
		}
	}
	results, _ := s.Play(context.Background(), a)
	for _, r := range results {
		fmt.Println(r.Status+":", r.Answer)
	}
	// Output:
	// agent.session.start
	// agent.turn.start
	// agent.session.start
	// agent.turn.start
	// agent.turn.start
	// agent.session.end
	// agent.session.end
	// done: Hello Alice.
	// done: Hello Bob.
	// done: Bye.
}
