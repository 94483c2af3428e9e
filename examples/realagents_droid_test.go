package examples

import (
	"os"
	"path/filepath"
	"testing"
)

// Factory Droid, run as the other agents are: offline, with no login, its
// model a custom one of the user's settings (customModels, chat
// completions) on loopback, and the hooks in the same settings.json.

const factoryDroidVersion = "0.215.0"

// droidSettings is the user's ~/.factory/settings.json of a run against
// the scripted model at url: one custom model, which `droid exec -m
// custom:scripted` names, and hooks, where the run has any.
func droidSettings(url string, hooks map[string]any) map[string]any {
	settings := map[string]any{"customModels": []any{map[string]any{
		"model": "scripted", "displayName": "Scripted", "baseUrl": url + "/v1", "apiKey": "scripted",
		"provider": "generic-chat-completion-api", "maxOutputTokens": 4096,
	}}}
	if hooks != nil {
		settings["hooks"] = hooks
	}
	return settings
}

// droidArgs are the arguments of a non-interactive run of Droid on the
// prompt that lets it run any command (its own risk levels would refuse
// rm -rf before any hook is asked).
var droidArgs = []string{"exec", "--skip-permissions-unsafe", "-m", "custom:scripted", "-o", "stream-json", "Remove the precious folder."}

// factoryDroid runs Factory Droid with the hook command for PreToolUse
// (and the end of the session) and returns what it printed.
func (a *agentRun) factoryDroid(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openAIChat("Execute", a.answer()))
	entry := []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": bridgeCommand(t, "factory-droid", hook), "timeout": 60}}}}
	events := map[string]any{"PreToolUse": entry, "SessionEnd": entry}
	if a.afterTool {
		events["PostToolUse"] = entry
	}
	if a.stop {
		events["Stop"] = entry
	}
	writeJSON(t, filepath.Join(a.home, ".factory", "settings.json"), droidSettings(model.url, events))
	out := runAgent(t, a, "droid", append([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env...), droidArgs...)
	return out, model
}
