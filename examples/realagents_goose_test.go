package examples

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Goose, run as the other agents are: offline, with no keyring, its model
// an OpenAI provider whose host is the scripted chat completions on
// loopback, and the hook a plugin of the project's (.agents/plugins).

const gooseVersion = "1.52.0"

// gooseModelEnv is what a run of Goose needs to talk to the scripted model
// at url, in auto mode (it runs every tool without asking).
func gooseModelEnv(url string) []string {
	return []string{
		"GOOSE_PROVIDER=openai", "OPENAI_HOST=" + url, "OPENAI_API_KEY=scripted", "GOOSE_MODEL=scripted",
		"GOOSE_DISABLE_KEYRING=1", "GOOSE_MODE=auto", "GOOSE_TELEMETRY_ENABLED=false",
	}
}

// gooseArgs run Goose once on the prompt, keeping no session.
var gooseArgs = []string{"run", "--no-session", "-t", "Remove the precious folder."}

// goose runs Goose with the hook command for PreToolUse (and the end of
// the session) as a plugin of the project's, and returns what it printed.
func (a *agentRun) goose(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openAIChat("shell", a.answer()))
	entry := []any{map[string]any{"matcher": ".*", "hooks": []any{map[string]any{"type": "command", "command": bridgeCommand(t, "goose", hook), "timeout": 35}}}}
	events := map[string]any{"PreToolUse": entry, "SessionEnd": entry}
	if a.prompt {
		events["UserPromptSubmit"] = entry
	}
	if a.stop {
		events["Stop"] = entry
	}
	writeJSON(t, filepath.Join(a.project, ".agents", "plugins", "hookwire", "hooks", "hooks.json"), map[string]any{"hooks": events})
	out := runAgent(t, a, "goose-binary-linux-x64", slices.Concat([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, gooseModelEnv(model.url), env), gooseArgs...)
	return out, model
}
