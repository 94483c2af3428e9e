package examples

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/protocol"
)

// Mistral Vibe, run as the other agents are: offline, its model a generic
// provider whose API base is the scripted chat completions on loopback,
// with the hook in the project's .vibe/hooks.toml, which Vibe loads in a
// folder it trusts (--trust: for this run).

const vibeVersion = "3.0.2"

// vibeModel is the scripted model as Vibe calls it: its bash tool takes
// the command alone (and a timeout), no other member.
func vibeModel(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return openAIChatWith("bash", a.answer(), func(command string) map[string]any { return map[string]any{"command": command} })
}

// vibeConfig is Vibe's config.toml with its one model the scripted one at
// url, through its generic (OpenAI-compatible) backend.
func vibeConfig(url string) string {
	return fmt.Sprintf(`active_model = "scripted"
enable_update_checks = false
enable_auto_update = false
enable_telemetry = false
enable_connectors = false

[[providers]]
name = "scripted"
api_base = "%s/v1"
api_key_env_var = "SCRIPTED_API_KEY"
backend = "generic"

[[models]]
name = "scripted"
provider = "scripted"
alias = "scripted"
`, url)
}

// vibeHook is a [[hooks]] entry of hooks.toml; strict only where given.
func vibeHook(name, kind, command string, strict bool) string {
	entry := fmt.Sprintf("[[hooks]]\nname = %q\ntype = %q\ncommand = %q\ntimeout = 60\n", name, kind, command)
	if strict {
		entry += "strict = true\n"
	}
	return entry + "\n"
}

// vibeArgs run Vibe once on the prompt, headless, trusting the folder for
// this run and running every tool without asking; its streaming output
// holds each tool call's state, with the reason of one a hook denied.
var vibeArgs = []string{"--trust", "--auto-approve", "--output", "streaming", "-p", "Remove the precious folder."}

// runVibe runs Vibe in the project, with the scripted model at url.
func (a *agentRun) runVibe(t *testing.T, url string, env []string, args ...string) string {
	t.Helper()
	writeText(t, filepath.Join(a.home, ".vibe", "config.toml"), vibeConfig(url))
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, pythonAgentBin(t, "vibe", "vibe"), args...)
	cmd.Dir, cmd.WaitDelay = a.project, 5*time.Second
	cmd.Env = slices.Concat([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "SCRIPTED_API_KEY=scripted"}, env)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Vibe did not end within 120 s:\n%s", out)
	}
	return string(out)
}

// mistralVibe runs Vibe with the hook command for the events `hookwire
// install` names for a guard (pre_tool, strict, and post_agent, the end of
// a turn), and post_tool where the test asks, and returns what it printed.
func (a *agentRun) mistralVibe(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, vibeModel(a))
	command := bridgeCommand(t, "mistral-vibe", hook, "--idle", "5s")
	events := install.Events(agents.ByName("mistral-vibe"), []protocol.Mode{protocol.ModeTool, protocol.ModeApprove})
	if a.afterTool {
		events = append(events, "post_tool")
	}
	var hooks strings.Builder
	for _, event := range events {
		hooks.WriteString(vibeHook("hookwire-"+event, event, command, agents.ByName("mistral-vibe").Events[event].Guard))
	}
	writeText(t, filepath.Join(a.project, ".vibe", "hooks.toml"), hooks.String())
	return a.runVibe(t, model.url, env, vibeArgs...), model
}

// Vibe runs the call when a hook that is not strict fails: a hook that
// exits 1, and the bridge itself missing (what no answer of the bridge
// can cover). The control is what install writes, a strict guard, which
// blocks it; the model is told why.
func TestUnderTheRealVibeAFailingHookLetsTheCallRunUnlessItIsStrict(t *testing.T) {
	t.Parallel()
	missing := strings.Replace(bridgeCommand(t, "mistral-vibe", pythonGuard(t, "deny")), shellQuote(bridgeCLI), shellQuote(filepath.Join(t.TempDir(), "hookwire-bridge")), 1)
	for name, hook := range map[string]struct{ command, told string }{
		"a hook that exits 1":        {"echo the guard is broken >&2; exit 1", "the guard is broken"},
		"a bridge that is not there": {missing, "not found"},
	} {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", name, strict), func(t *testing.T) {
				t.Parallel()
				a := newAgentRun(t)
				model := serveModel(t, vibeModel(a))
				writeText(t, filepath.Join(a.project, ".vibe", "hooks.toml"), vibeHook("guard", "pre_tool", hook.command, strict))
				out := a.runVibe(t, model.url, nil, vibeArgs...)
				switch {
				case strict && !a.survived():
					t.Errorf("a strict pre_tool hook that fails let rm -rf run\n%s", out)
				case strict && !strings.Contains(model.sent(), hook.told):
					t.Errorf("the model was not told why the call was denied (%q)\n%s", hook.told, out)
				case !strict && a.survived():
					t.Errorf("Vibe %s ran no tool after a failed hook that is not strict: it fails closed now, and install's and doctor's notes say otherwise\n%s", vibeVersion, out)
				}
			})
		}
	}
}
