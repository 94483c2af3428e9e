package examples

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
)

// OpenCode, and its fork Kilo Code CLI, run as the other agents are:
// offline, the model a provider of the user's settings
// (@ai-sdk/openai-compatible, chat completions) on loopback, in a scratch
// HOME, and the hook behind hookwire's plugin for their plugin API in the
// project's plugins folder.

const openCodeVersion = "1.18.33"

// openCodeFork is OpenCode or a fork of it with its plugin API, as the
// tests run it.
type openCodeFork struct {
	agent   *agents.Agent
	version string
	// program is its command in realagents/node_modules/.bin.
	program string
	// settings is the user's settings file, under the home (the agent runs
	// with no XDG variable), and schema the $schema it names.
	settings, schema string
	// deps, where set, is the npm project under realagents of what the
	// agent installs beside the plugins of each of its config folders at
	// start: each run's folders get its package.json, its lock and a link
	// to its node_modules, so that the agent finds it installed and no run
	// waits on the registry (8 s a run, here).
	deps string
	// offline is the agent's environment that spares a run its waits on
	// services out of reach here (none of them has to do with plugins).
	offline []string
}

var openCode = openCodeFork{agents.OpenCode, openCodeVersion, "opencode", ".config/opencode/opencode.json", "https://opencode.ai/config.json", "opencode-plugins", nil}

// config is the user's settings of a run against the scripted model at url.
func (f openCodeFork) config(url string) map[string]any {
	return map[string]any{
		"$schema": f.schema, "autoupdate": false, "share": "disabled", "model": "scripted/scripted",
		"provider": map[string]any{"scripted": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
			"options": map[string]any{"baseURL": url + "/v1", "apiKey": "scripted"},
			"models":  map[string]any{"scripted": map[string]any{"name": "Scripted", "tool_call": true}},
		}},
	}
}

// run runs the agent with the hook behind hookwire's plugin and returns
// what it printed.
func (f openCodeFork) run(a *agentRun, t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	return f.runWith(a, t, openAIChat("bash", distinctCalls(a.answer())), hook, env...)
}

// runWith is run against a model that answers as answer does.
func (f openCodeFork) runWith(a *agentRun, t *testing.T, answer func(w http.ResponseWriter, r *http.Request, body []byte), hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, answer)
	dir, err := os.MkdirTemp("", "hwa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	server := append([]string{cli, "bridge", "--mcp", "--dir", dir, "--timeout", "2s", f.agent.Name, "--"}, hook...)
	// The module hookwire install writes, with a server of the test's
	// (its folder, a short deadline), in the project's plugins folder.
	plugin := filepath.Join(a.project, filepath.FromSlash(f.agent.Install.Files[agents.Project]))
	writeText(t, plugin, string(install.PluginModule(install.PluginConfig{Server: server, TimeoutMS: 20000})))
	f.setup(t, a, model.url)
	out := f.runAgent(t, a, append([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env...))
	return out, model
}

// distinctCalls makes each repeat of a command differ by a shell comment:
// OpenCode 1.18.33 rejects a third identical call of a tool itself (its
// doom_loop permission, auto-rejected under run) before any plugin is
// asked, and the test is of what the hook decides. Kilo Code CLI 7.7.7's
// binary has the same doom_loop permission.
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

// setup writes the user's settings, in their folder under the scratch
// home, and gives both config folders, the user's and the project's, what
// the agent installs beside plugins.
func (f openCodeFork) setup(t *testing.T, a *agentRun, url string) {
	settings := filepath.Join(a.home, filepath.FromSlash(f.settings))
	writeJSON(t, settings, f.config(url))
	if f.deps == "" {
		return
	}
	deps, _ := filepath.Abs(filepath.Join("realagents", f.deps))
	project := filepath.Dir(filepath.Dir(filepath.Join(a.project, filepath.FromSlash(f.agent.Install.Files[agents.Project]))))
	for _, folder := range []string{filepath.Dir(settings), project} {
		for _, name := range []string{"package.json", "package-lock.json"} {
			data, err := os.ReadFile(filepath.Join(deps, name))
			if err != nil {
				t.Fatal(err)
			}
			writeText(t, filepath.Join(folder, name), string(data))
		}
		if err := os.Symlink(filepath.Join(deps, "node_modules"), filepath.Join(folder, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
}

// doctor is how doctor's test runs the agent: no folder trust, and no hook
// but the one `hookwire install` writes.
func (f openCodeFork) doctor() doctorAgent {
	return doctorAgent{
		name: f.agent.Title, version: f.version,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIChat("bash", []string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) { f.setup(t, a, url) },
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return f.runAgent(t, a, env)
		},
	}
}

// openCodeRuns lets one run of OpenCode or its fork go at a time: runs of
// several at once sometimes never ended (three started at once in a CI
// run each waited 180 s, printing nothing; the cause is not found yet),
// and a run takes 6 to 9 s here.
var openCodeRuns sync.Mutex

// runAgent runs the agent once, headless, on the prompt, as no other run
// of OpenCode or its fork goes.
func (f openCodeFork) runAgent(t *testing.T, a *agentRun, env []string) string {
	t.Helper()
	openCodeRuns.Lock()
	defer openCodeRuns.Unlock()
	return runAgent(t, a, f.program, append(env, f.offline...), openCodeArgs...)
}

// openCodeArgs run OpenCode, or its fork, once, headless, on the prompt.
var openCodeArgs = []string{"run", "Remove the precious folder."}
