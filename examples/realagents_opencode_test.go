package examples

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookwire/hookwire/core/install"
)

// OpenCode, run as the other agents are: offline, its model a provider of
// the user's opencode.json (@ai-sdk/openai-compatible, chat completions)
// on loopback, in a scratch HOME, and the hook behind
// hookwire's plugin for its plugin API in the project's .opencode/plugins.

const openCodeVersion = "1.18.33"

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
	model := serveModel(t, openAIChat("bash", distinctCalls(a.answer())))
	dir, err := os.MkdirTemp("", "hwa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	server := append([]string{cli, "bridge", "--mcp", "--dir", dir, "--timeout", "2s", "opencode", "--"}, hook...)
	// The module hookwire install writes, with a server of the test's
	// (its folder, a short deadline).
	writeText(t, filepath.Join(a.project, ".opencode", "plugins", "hookwire.js"), string(install.PluginModule(install.PluginConfig{Server: server, TimeoutMS: 20000})))
	openCodeSetup(t, a, model.url)
	out := runAgent(t, a, "opencode", append([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env...), openCodeArgs...)
	return out, model
}

// distinctCalls makes each repeat of a command differ by a shell comment:
// OpenCode 1.18.33 rejects a third identical call of a tool itself (its
// doom_loop permission, auto-rejected under run) before any plugin is
// asked, and the test is of what the hook decides.
func distinctCalls(commands []string) []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c
		if slices.Contains(commands[:i], c) {
			out[i] = fmt.Sprintf("%s # %d", c, i+1)
		}
	}
	return out
}

// openCodeSetup writes the user's opencode.json, in its folder under the
// scratch home (~/.config/opencode: the agent runs with no XDG variable).
func openCodeSetup(t *testing.T, a *agentRun, url string) {
	writeJSON(t, filepath.Join(a.home, ".config", "opencode", "opencode.json"), openCodeConfig(url))
}

// openCodeArgs run OpenCode once, headless, on the prompt.
var openCodeArgs = []string{"run", "Remove the precious folder."}
