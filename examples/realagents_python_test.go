package examples

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/protocol"
)

// The real agents written in Python, each installed by `go tool mage deps`
// into a virtual environment of its own (realagents/venvs/NAME) from its
// pins (realagents/python/NAME.txt), with the Python those name.

const openHandsVersion = "1.16.0"

// pythonAgentBin is a Python agent's program, installed by `go tool mage
// deps`; or, where HOOKWIRE_REAL_PYTHON_AGENTS names another folder of
// virtual environments (`go tool mage newestAgents` sets it to the newest
// releases), from there.
func pythonAgentBin(t *testing.T, agent, name string) string {
	t.Helper()
	venvs := cmp.Or(os.Getenv("HOOKWIRE_REAL_PYTHON_AGENTS"), filepath.Join("realagents", "venvs"))
	bin, err := filepath.Abs(filepath.Join(venvs, agent, "bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is not installed: run `go tool mage deps` (it installs the pinned agents of examples/realagents)", name)
	}
	return bin
}

// openHandsModel is the scripted model as OpenHands calls it: its
// terminal tool requires the call's security_risk, and takes no other
// member than its own.
func openHandsModel(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return openAIChatWith("terminal", a.answer(), func(command string) map[string]any {
		return map[string]any{"command": command, "security_risk": "LOW"}
	})
}

// openHands runs OpenHands headless, its model the scripted one (chat
// completions, through LiteLLM), with the hook command for the events
// `hookwire install` names for a guard (PreToolUse, the prompt, the end of
// the session) in the project's .openhands/hooks.json, and returns what it
// printed: with --json, its events, which hold each hook's reply and what
// the model read of it.
func (a *agentRun) openHands(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openHandsModel(a))
	entry := []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": bridgeCommand(t, "openhands", hook), "timeout": 60}}}}
	events := map[string]any{}
	for _, event := range install.Events(agents.ByName("openhands"), []protocol.Mode{protocol.ModeTool, protocol.ModeApprove}) {
		events[event] = entry
	}
	if a.afterTool {
		events["PostToolUse"] = entry
	}
	if a.stop {
		events["Stop"] = entry
	}
	data, _ := json.Marshal(events)
	os.MkdirAll(filepath.Join(a.project, ".openhands"), 0o755)
	os.WriteFile(filepath.Join(a.project, ".openhands", "hooks.json"), data, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, pythonAgentBin(t, "openhands", "openhands"), "--override-with-envs", "--headless", "--json", "-t", "Remove the precious folder.")
	cmd.Dir = a.project
	cmd.Env = slices.Concat([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, openHandsEnv(t, model.url), env)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("OpenHands did not end within 180 s:\n%s", out)
	}
	return string(out), model
}

// openHandsEnv is what OpenHands needs to run on the scripted model at
// url, offline. Its terminal runs in a tmux server that outlives it: one
// of the run's own, in a folder with a short name (a socket's path is
// limited), stopped with the test.
func openHandsEnv(t *testing.T, url string) []string {
	t.Helper()
	tmux, err := os.MkdirTemp("", "hwt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop := exec.Command("tmux", "-L", "openhands", "kill-server")
		stop.Env = append(os.Environ(), "TMUX_TMPDIR="+tmux)
		stop.Run()
		os.RemoveAll(tmux)
	})
	return []string{
		"LLM_MODEL=openai/scripted", "LLM_BASE_URL=" + url + "/v1", "LLM_API_KEY=scripted",
		// LiteLLM's table of models from the package, not the internet.
		"LITELLM_LOCAL_MODEL_COST_MAP=True", "OPENHANDS_SUPPRESS_BANNER=1", "TMUX_TMPDIR=" + tmux,
	}
}
