package examples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// OpenCode, run as the other agents are: offline, its model a provider of
// the user's opencode.json (@ai-sdk/openai-compatible, chat completions)
// on loopback, in a scratch HOME and XDG folders, and the hook behind
// hookwire's plugin for its plugin API in the project's .opencode/plugins.

const openCodeVersion = "1.18.33"

// openCodePlugin is hookwire's plugin as one ES module that OpenCode loads
// from a plugins folder: sdk-node's opencode-plugin as TestMain's tsc
// built it, its exports made local (OpenCode calls every function a
// plugin exports), and one export, the plugin with its warm server.
// `hookwire install` does not write it yet: this is how it would be made.
func openCodePlugin(t *testing.T, server []string, timeoutMS int) string {
	t.Helper()
	built, err := os.ReadFile(filepath.Join("..", "sdk-node", "dist", "src", "opencode-plugin.js"))
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?m)^export `).ReplaceAll(built, nil)
	body = regexp.MustCompile(`(?m)^//# sourceMappingURL=.*$`).ReplaceAll(body, nil)
	config, _ := json.Marshal(map[string]any{"server": server, "timeoutMs": timeoutMS})
	return string(body) + "export const HookwirePlugin = openCodePlugin(" + string(config) + ");\n"
}

// openCodeConfig is the user's opencode.json of a run against the
// scripted model at url.
func openCodeConfig(url string) map[string]any {
	return map[string]any{
		"$schema": "https://opencode.ai/config.json", "autoupdate": false, "share": "disabled", "model": "scripted/scripted",
		"provider": map[string]any{"scripted": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
			"options": map[string]any{"baseURL": url + "/v1", "apiKey": "scripted"},
			"models":  map[string]any{"scripted": map[string]any{"name": "Scripted", "tool_call": true}},
		}},
	}
}

// openCode runs OpenCode with the hook behind hookwire's plugin and
// returns what it printed.
func (a *agentRun) openCode(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openAIChat("bash", a.answer()))
	dir, err := os.MkdirTemp("", "hwa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	server := append([]string{cli, "bridge", "--mcp", "--dir", dir, "--timeout", "2s", "opencode", "--"}, hook...)
	writeText(t, filepath.Join(a.project, ".opencode", "plugins", "hookwire.js"), openCodePlugin(t, server, 20000))
	config := filepath.Join(a.home, ".config")
	writeJSON(t, filepath.Join(config, "opencode", "opencode.json"), openCodeConfig(model.url))
	base := []string{
		"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "XDG_CONFIG_HOME=" + config,
		"XDG_DATA_HOME=" + filepath.Join(a.home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(a.home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(a.home, ".local", "state"),
	}
	out := runAgent(t, a, "opencode", append(base, env...), "run", "Remove the precious folder.")
	return out, model
}
