package examples

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
)

// rewritingHook is a hook on the Python SDK that rewrites every shell
// command, in words every agent shares (rewrite(call, command=...)), to one
// that touches marker.
func rewritingHook(t *testing.T, marker string) ([]string, []string) {
	sdk, _ := filepath.Abs("../sdk-python/src")
	script := filepath.Join(t.TempDir(), "rewriter.py")
	os.WriteFile(script, []byte(`import sys
from hookwire import Hook, canonical_tool, rewrite

hook = Hook("rewriter")

@hook.before_tool
def safer(call):
    if canonical_tool(call).get("kind") == "shell":
        return rewrite(call, command="touch " + sys.argv[1])
    return None

hook.run()
`), 0o644)
	return []string{"python3", script, marker}, []string{"PYTHONPATH=" + sdk}
}

// One way to rewrite a call: the hook sets the canonical command, and each
// agent runs the new command in its own field, with no approver, as its
// own permission rules allow it (each run allows the shell tool), or,
// where the agent cannot take a rewritten call, runs neither and says so.
func TestUnderTheRealAgentsARewriteRunsTheNewCommand(t *testing.T) {
	for _, agent := range realAgents {
		t.Run(agent.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			marker := filepath.Join(a.project, "rewritten")
			hook, env := rewritingHook(t, marker)
			out, model := agent.run(a, t, hook, env...)
			if !a.survived() {
				t.Fatalf("%s ran the command the hook rewrote: the folder is gone\n%s", agent.name, out)
			}
			_, err := os.Stat(marker)
			ran := err == nil
			if cannot := rewriteUnsupported[agent.name]; cannot != "" {
				if ran || !strings.Contains(model.sent()+out, cannot) {
					t.Errorf("%s cannot take a rewritten call: it should run nothing and say %q (ran: %v)\n%s", agent.name, cannot, ran, out)
				}
				return
			}
			if !ran {
				t.Errorf("%s %s did not run the rewritten command\n%s", agent.name, agent.version, out)
			}
		})
	}
}

// rewriteUnsupported is what the model or the user reads under the agents
// that cannot take a rewritten call.
var rewriteUnsupported = map[string]string{
	"Qwen Code": "cannot take a rewritten call",
	"Goose":     "cannot take a rewritten call",
	"Kimi CLI":  "cannot take a rewritten call",
	"OpenHands": "cannot take a rewritten call",
	"Cline":     "Cline cannot take a rewritten call",
}

// A rewrite is neither an approval nor a denial: where the agent can take
// new arguments with no decision, its own rules decide the new call, and
// here they refuse it.
func TestUnderTheRealAgentsARewriteIsNoApproval(t *testing.T) {
	for _, tc := range []struct {
		agent string
		run   func(a *agentRun, t *testing.T, hook []string, env ...string) (string, *modelServer)
		rule  []string // the agent's own rule that refuses the new command
	}{
		{"Claude Code", (*agentRun).claudeCode, []string{"--disallowedTools", "Bash(touch:*)"}},
		{"GitHub Copilot CLI", (*agentRun).copilotCLI, []string{"--deny-tool", "shell(touch)"}},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.agentFlags = tc.rule
			marker := filepath.Join(a.project, "rewritten")
			hook, env := rewritingHook(t, marker)
			out, _ := tc.run(a, t, hook, env...)
			if !a.survived() {
				t.Fatalf("%s ran the command the hook rewrote: the folder is gone\n%s", tc.agent, out)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("%s ran the rewritten command that its own rules refuse: the hook approved it\n%s", tc.agent, out)
			}
		})
	}
}

// The same rewrite under `hookwire run`, as each host takes it: the
// reference runtime and PicoClaw's rules run the new command in the tool's
// own argument, as do the agents' forms, but for those that take no new
// arguments (Qwen Code, Goose, Windsurf), which deny the call.
func TestARewriteReachesTheToolUnderEveryHost(t *testing.T) {
	dir := t.TempDir()
	hook, env := rewritingHook(t, "/tmp/rewritten")
	cfg, _ := json.Marshal(map[string]any{"version": 3, "hooks": map[string]any{"enabled": true, "processes": map[string]any{
		"rewriter": map[string]any{"enabled": true, "command": hook, "dir": dir, "intercept": []string{"before_tool"}}}}})
	scenario := `{"tools": ["shell"], "turns": [{"prompt": "Clean.", "replies": [
		{"tool_calls": [{"name": "shell", "arguments": {"command": "rm -rf victim"}}]}, {"content": "Done."}]}]}`
	write(t, filepath.Join(dir, "hooks.json"), string(cfg))
	write(t, filepath.Join(dir, "scenario.json"), scenario)
	for _, host := range append([]string{"reference", "picoclaw"}, allAgents...) {
		cmd := exec.Command(cli, "run", "--host", host, "--hooks", filepath.Join(dir, "hooks.json"), filepath.Join(dir, "scenario.json"))
		name, value, _ := strings.Cut(env[0], "=")
		cmd.Env = environ(map[string]string{name: value})
		out, _ := cmd.CombinedOutput()
		want := "would run: touch /tmp/rewritten"
		if a := agents.ByName(host); a != nil && a.Quirks.NoNewArguments {
			want = "takes no new arguments at " + firstGuardEvent(a) + ": the call is denied"
			if a.Quirks.EndsRun {
				want = "takes no new arguments at " + firstGuardEvent(a) + ": " + a.Title + "'s whole run is ended"
			}
		}
		if !strings.Contains(string(out), want) || strings.Contains(string(out), "would run: rm") {
			t.Errorf("--host %s: the transcript does not say %q\n%s", host, want, out)
		}
	}
}

// firstGuardEvent is the first by name of the agent's events that asks
// before_tool, where a host names the event a rewrite is denied at.
func firstGuardEvent(a *agents.Agent) string {
	for _, name := range slices.Sorted(maps.Keys(a.Events)) {
		if slices.Contains(a.Events[name].Calls, agents.BeforeTool) {
			return name
		}
	}
	return ""
}
