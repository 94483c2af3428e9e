package skillhooks_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/skillhooks"
)

const example = "../../examples/skill-prompts"

// recorder is an LLM that keeps the messages of every request it gets.
type recorder struct {
	llm   agent.LLM
	calls [][]protocol.Message
}

func (r *recorder) Chat(ctx context.Context, req protocol.BeforeLLMParams) (protocol.LLMResponse, error) {
	r.calls = append(r.calls, req.Messages)
	return r.llm.Chat(ctx, req)
}

// playExample plays the example's scenario, then a second turn of the same
// session, with the hooks of a configuration file of the example, and
// returns the messages of every LLM call, hook messages by their name.
func playExample(t *testing.T, hooksFile string) []string {
	t.Helper()
	cfg, err := runtime.LoadConfig(filepath.Join(example, hooksFile))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := cfg.Hooks.Processes["skill_hooks"]; ok {
		p.Command[0] = hookwireBin // the file runs the hookwire on PATH
	}
	rt, err := runtime.New(cfg, runtime.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer rt.Close()

	scenario, err := agent.LoadScenario(filepath.Join(example, "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	a := scenario.Agent()
	llm := &recorder{llm: agent.NewScripted(append(scenario.Replies, agent.Reply{Content: "Friday."}))}
	a.LLM, a.Hooks = llm, rt
	for _, prompt := range []string{scenario.Prompt, "When is the release, again?"} {
		if res, err := a.RunTurn(context.Background(), prompt); err != nil || res.Status != agent.TurnDone {
			t.Fatalf("turn %q: %+v, %v", prompt, res, err)
		}
	}

	hooks, err := skillhooks.Load(filepath.Join(example, "skills"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, messages := range llm.calls {
		var seen []string
		for _, m := range messages {
			seen = append(seen, label(m, hooks))
		}
		calls = append(calls, strings.Join(seen, " | "))
	}
	return calls
}

// label shows a message in short: a hook's by its role and [name], the
// host's by role and what it says or calls.
func label(m protocol.Message, hooks []skillhooks.Hook) string {
	content := ""
	if m.Content != nil {
		content = *m.Content
	}
	for _, h := range hooks {
		if content == h.Content {
			return m.Role + " [" + h.Name + "]"
		}
	}
	switch {
	case m.Role == "tool":
		return "tool " + *m.ToolCallID
	case len(m.ToolCalls) > 0:
		return "assistant -> " + m.ToolCalls[0].Function.Name
	}
	return m.Role + " " + content
}

// The example's turn has three agent rounds: read_file (which the
// truncated-content hint's tool_filter lets through), echo_text (which it
// filters out), and the answer. What each LLM call sees follows the
// document's tables:
//   - reply-language (after_user_input, persistent) from the first call on,
//     and, in the second turn, as history before the new question;
//   - read-first (before_first_agent) inserted in round 1, visible to the
//     end of the loop, gone in the next turn until its own round 1;
//   - one-step (before_each_agent, a user message) in every round, at the
//     end, never twice: each round's replaces the previous one's;
//   - truncated-content-hint (after_tool_call) after read_file's result, in
//     round 2 only: round 2's echo_text removes it and adds nothing;
//   - plan-briefly (before_planning) never: the reference loop makes no
//     planning call.
//
// The host's history never holds a hook message: each request carries only
// the current copies.
var wantCalls = []string{
	"user What do my notes say about the release? | system [reply-language] | user [one-step] | system [read-first]",
	"user What do my notes say about the release? | system [reply-language] | system [read-first] | assistant -> read_file | tool call-1 | system [truncated-content-hint] | user [one-step]",
	"user What do my notes say about the release? | system [reply-language] | system [read-first] | assistant -> read_file | tool call-1 | assistant -> echo_text | tool call-2 | user [one-step]",
	"HISTORY system [reply-language] | user When is the release, again? | user [one-step] | system [read-first]",
}

// history stands for the host's messages before the second question: the
// first turn's, for a host that keeps them, or none.
const history = "HISTORY "

func TestTheExampleTurnUnderTheBuiltin(t *testing.T) {
	check(t, playExample(t, "hooks.json"))
}

func TestTheExampleTurnUnderTheProcessHook(t *testing.T) {
	check(t, playExample(t, "hooks.process.json"))
}

func check(t *testing.T, calls []string) {
	t.Helper()
	if len(calls) != len(wantCalls) {
		t.Fatalf("%d LLM calls, want %d:\n%s", len(calls), len(wantCalls), strings.Join(calls, "\n"))
	}
	for i := range calls {
		want := wantCalls[i]
		if rest, ok := strings.CutPrefix(want, history); ok {
			// The host's own messages, whatever they are, then the hooks'.
			before, _, _ := strings.Cut(calls[i], "system [reply-language] | user When")
			if strings.Contains(before, "[") {
				t.Errorf("LLM call %d: the history before the question holds hook messages: %s", i+1, before)
			}
			want = before + rest
		}
		if calls[i] != want {
			t.Errorf("LLM call %d saw\n  %s\nwant\n  %s", i+1, calls[i], want)
		}
	}
}
