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

// playExample plays the example's scenario, two turns of one session, with
// the hooks of a configuration file of the example, and returns the
// messages of every LLM call, hook messages by their name.
func playExample(t *testing.T, hooksFile string) []string {
	t.Helper()
	cfg, err := runtime.LoadConfig(filepath.Join(example, hooksFile))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := cfg.Hooks.Processes["skill_hooks"]; ok {
		p.Command[0] = hookwireBin // the file runs the hookwire on PATH
	}
	rt, err := runtime.New(cfg, runtime.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Builtins: builtins})
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
	var sent [][]protocol.Message // what each LLM call was sent, after the hooks
	a.Hooks = rt
	a.OnStep = func(s agent.Step) {
		if s.Kind == agent.StepLLMRequest {
			sent = append(sent, s.Messages)
		}
	}
	results, err := scenario.Play(context.Background(), a)
	if err != nil || len(results) != 2 || results[0].Status != agent.TurnDone || results[1].Status != agent.TurnDone {
		t.Fatalf("%+v, %v", results, err)
	}

	hooks, err := skillhooks.Load(filepath.Join(example, "skills"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, messages := range sent {
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

// The example's first turn has three agent rounds: read_file (which the
// truncated-content hint's tool_filter lets through), echo_text (which it
// filters out), and the answer; its second turn, in the same session, one.
// What each LLM call sees follows the document's tables:
//   - reply-language (after_user_input, persistent) from the first call on,
//     and, in the second turn, kept by the hook: after the history the host
//     sends, before the new question, and not inserted a second time;
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
// the current copies, and the second turn's history is the host's own.
var wantCalls = []string{
	"user What do my notes say about the release? | system [reply-language] | user [one-step] | system [read-first]",
	"user What do my notes say about the release? | system [reply-language] | system [read-first] | assistant -> read_file | tool call-1 | system [truncated-content-hint] | user [one-step]",
	"user What do my notes say about the release? | system [reply-language] | system [read-first] | assistant -> read_file | tool call-1 | assistant -> echo_text | tool call-2 | user [one-step]",
	"user What do my notes say about the release? | assistant -> read_file | tool call-1 | assistant -> echo_text | tool call-2 | " +
		"assistant The release is on Friday, after the last review; who writes the changelog is still open. | " +
		"system [reply-language] | user When is the release, again? | user [one-step] | system [read-first]",
}

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
		if want := wantCalls[i]; calls[i] != want {
			t.Errorf("LLM call %d saw\n  %s\nwant\n  %s", i+1, calls[i], want)
		}
	}
}
