package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shellGuardForms are the languages of the shell guard: one hook, the
// same decisions in each.
var shellGuardForms = []string{"python", "go", "typescript"}

// shellCase is one line of shell-guard/cases.json: a command and what the
// guard must do with it ("deny", "allow" or "refuse").
type shellCase struct {
	Command string `json:"command"`
	Expect  string `json:"expect"`
	Note    string `json:"note"`
}

func shellCases(t *testing.T) []shellCase {
	t.Helper()
	var cases []shellCase
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join("shell-guard", "cases.json"))), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("cases.json has %d cases, want at least 40", len(cases))
	}
	return cases
}

// shellToolNames are the names agents give their shell: the cases are
// asked under each in turn, since the guard reads the canonical kind only.
var shellToolNames = []string{"shell", "Bash", "run_shell_command", "exec", "bash", "Shell", "Execute"}

// The guard's reasons start so: a delete or the like found, or a command
// it cannot read.
const (
	deniedPrefix  = "dangerous command blocked: "
	refusedPrefix = "command refused, it cannot be read: "
)

// verdict names what an answer of the guard does: "allow", "deny",
// "refuse", or the answer itself when it is none of them.
func verdict(action, reason string) string {
	switch {
	case action == "continue" && reason == "":
		return "allow"
	case action == "deny_tool" && strings.HasPrefix(reason, deniedPrefix):
		return "deny"
	case action == "deny_tool" && strings.HasPrefix(reason, refusedPrefix):
		return "refuse"
	}
	return action + ": " + reason
}

// Each case of cases.json, asked of the guard in each language as a
// process of its own through `hookwire call`, under one agent's tool name
// or another's, gets the answer the case expects.
func TestShellGuardHoldsEveryCaseUnderHookwireCall(t *testing.T) {
	t.Parallel()
	cases := shellCases(t)
	for _, form := range shellGuardForms {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			hooks, _ := config(t, filepath.Join("shell-guard", form, "hooks.json"))
			h := hooks[0]
			for i, c := range cases {
				tool := shellToolNames[i%len(shellToolNames)]
				params, _ := json.Marshal(map[string]any{"tool": tool, "arguments": map[string]any{"command": c.Command}})
				cmd := exec.Command(cli, append(append([]string{"call", "--timeout", "20s", "--"}, h.Command...), "hook.before_tool", "-")...)
				cmd.Dir, cmd.Env, cmd.Stdin = h.Dir, environ(h.Env), bytes.NewReader(params)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				var reply struct {
					Result struct {
						Action string `json:"action"`
						Reason string `json:"reason"`
					} `json:"result"`
				}
				if err != nil || json.Unmarshal(out, &reply) != nil {
					t.Errorf("%s %q: %v\n%s%s", tool, c.Command, err, out, stderr.String())
					continue
				}
				if got := verdict(reply.Result.Action, reply.Result.Reason); got != c.Expect {
					t.Errorf("%s %q: %s (%s), want %s (%s)", tool, c.Command, got, reply.Result.Reason, c.Expect, c.Note)
				}
			}
		})
	}
}

// The cases again, as one agent's turns under `hookwire run`: the guard,
// a long-lived process in each language, denies or lets through each
// call as the case expects, and the demo agent runs only the calls let
// through.
func TestShellGuardHoldsEveryCaseUnderHookwireRun(t *testing.T) {
	cases := shellCases(t)
	var turns []any
	for _, c := range cases {
		turns = append(turns, map[string]any{"prompt": "Run it.", "replies": []any{
			map[string]any{"tool_calls": []any{map[string]any{"name": "shell", "arguments": map[string]any{"command": c.Command}}}},
			map[string]any{"content": "Done."},
		}})
	}
	scenario := filepath.Join(t.TempDir(), "scenario.json")
	b, _ := json.Marshal(map[string]any{"tools": []string{"shell"}, "turns": turns})
	if err := os.WriteFile(scenario, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, form := range shellGuardForms {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			calls := ofType(play(t, filepath.Join("shell-guard", form, "hooks.json"), scenario, nil), "tool")
			if len(calls) != len(cases) {
				t.Fatalf("%d tool calls, want one for each of the %d cases:\n%s", len(calls), len(cases), lines(calls))
			}
			for i, c := range cases {
				r := calls[i]
				got := fmt.Sprintf("%s by %s: %s", r.Outcome, r.By, r.Reason)
				switch {
				case r.Outcome == "ran" && r.Result != nil && r.Result.ForLLM == "would run: "+c.Command:
					got = "allow"
				case r.Outcome == "denied" && r.By == "shell_guard":
					got = verdict("deny_tool", r.Reason)
				}
				if got != c.Expect {
					t.Errorf("%q: %s, want %s (%s)", c.Command, got, c.Expect, c.Note)
				}
			}
		})
	}
}

// The three forms are one hook: on the example's scenario they give the
// same transcript, record for record, apart from timings, and it is the
// one the README tells.
func TestShellGuardIsTheSameInEveryLanguage(t *testing.T) {
	scenario := filepath.Join("shell-guard", "scenario.json")
	want := []string{
		"shell denied by shell_guard: " + deniedPrefix + "rm -rf / (a recursive delete)",
		"shell denied by shell_guard: " + deniedPrefix + "rm --recursive --force / (a recursive delete, run by sudo)",
		"shell denied by shell_guard: " + deniedPrefix + "rm -r -f build (a recursive delete, run by bash)",
		"shell ran: would run: grep -rn \"rm -rf\" docs",
		"shell denied by shell_guard: " + refusedPrefix + "shell-stdin (sh)",
		"shell ran: would run: ls",
		"shell ran: would run: echo DEPLOY_TOKEN=***",
	}
	var first []string
	for _, form := range shellGuardForms {
		records := play(t, filepath.Join("shell-guard", form, "hooks.json"), scenario, nil)
		equal(t, form+" tool calls", tools(records), want)
		var got []string
		for _, r := range records {
			got = append(got, r.line)
		}
		if first == nil {
			first = got
		} else if strings.Join(got, "\n") != strings.Join(first, "\n") {
			t.Errorf("%s transcript:\n%s\nwant (python):\n%s", form, strings.Join(got, "\n"), strings.Join(first, "\n"))
		}
	}
}
