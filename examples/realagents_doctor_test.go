package examples

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// doctorAgent is how the doctor test runs one real agent: the user's
// settings it needs to run offline against the scripted model (and no
// hook: `hookwire install` writes that), the model, and the run itself.
type doctorAgent struct {
	name, version string
	// model is the scripted model, asking for the run's command.
	model func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte)
	// setup writes the user's settings; trusted says whether the project's
	// folder is trusted, where the agent has folder or project trust.
	setup func(t *testing.T, a *agentRun, url string, trusted bool)
	// run runs the agent on the prompt, in the project.
	run func(t *testing.T, a *agentRun, url string, env []string) string
}

// doctorAgents are the real agents, as doctor's test runs them.
var doctorAgents = map[string]doctorAgent{
	"claude-code": {
		name: "Claude Code", version: claudeCodeVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return anthropic([]string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "claude", append(env, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-scripted",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
				"DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1"),
				"-p", "Remove the precious folder.", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5")
		},
	},
	"gemini-cli": {
		name: "Gemini CLI", version: geminiCLIVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return gemini([]string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			writeJSON(t, filepath.Join(a.home, ".gemini", "settings.json"), map[string]any{
				"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
				"telemetry": map[string]any{"enabled": false},
				"privacy":   map[string]any{"usageStatisticsEnabled": false},
			})
			if trusted {
				writeJSON(t, filepath.Join(a.home, ".gemini", "trustedFolders.json"), map[string]any{a.project: "TRUST_FOLDER"})
			}
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "gemini", append(env, "GOOGLE_GEMINI_BASE_URL="+url, "GEMINI_API_KEY=scripted",
				"GEMINI_CLI_NO_RELAUNCH=true", "NO_BROWSER=true"),
				"-p", "Remove the precious folder.", "--yolo", "--output-format", "json")
		},
	},
	"qwen-code": {
		name: "Qwen Code", version: qwenCodeVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIChat("run_shell_command", []string{a.command})
		},
		// Qwen Code's folder trust is off unless the user turns it on: the
		// untrusted case turns it on and trusts no folder.
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			writeJSON(t, filepath.Join(a.home, ".qwen", "settings.json"), map[string]any{
				"security":  map[string]any{"auth": map[string]any{"selectedType": "openai"}, "folderTrust": map[string]any{"enabled": !trusted}},
				"telemetry": map[string]any{"enabled": false},
				"privacy":   map[string]any{"usageStatisticsEnabled": false},
			})
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "qwen", append(env, "OPENAI_BASE_URL="+url+"/v1", "OPENAI_API_KEY=scripted", "OPENAI_MODEL=scripted",
				"QWEN_CODE_SUPPRESS_YOLO_WARNING=1"),
				"-p", "Remove the precious folder.", "--approval-mode", "yolo", "--output-format", "json")
		},
	},
	"codex-cli": {
		name: "Codex CLI", version: codexCLIVersion,
		// Codex CLI refuses an rm -rf itself: the model asks for rm -r.
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIResponses([]string{strings.Replace(a.command, "rm -rf ", "rm -r ", 1)})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			config := codexConfig(url)
			if trusted {
				config += fmt.Sprintf("\n[projects.%q]\ntrust_level = \"trusted\"\n", a.project)
			}
			writeText(t, filepath.Join(a.home, ".codex", "config.toml"), config)
		},
		// No user reviews a hook here (the TUI's /hooks): the run passes
		// --dangerously-bypass-hook-trust, which doctor notes, and which
		// does not lift project trust.
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "codex", append(env, "CODEX_HOME="+filepath.Join(a.home, ".codex"), "SCRIPTED_API_KEY=scripted"),
				"exec", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", "Remove the precious folder.")
		},
	},
	"factory-droid": {
		name: "Factory Droid", version: factoryDroidVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIChat("Execute", []string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			writeJSON(t, filepath.Join(a.home, ".factory", "settings.json"), droidSettings(url, nil))
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "droid", env, droidArgs...)
		},
	},
	"goose": {
		name: "Goose", version: gooseVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIChat("shell", []string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "goose-binary-linux-x64", append(env, gooseModelEnv(url)...), gooseArgs...)
		},
	},
	"cline": {
		name: "Cline", version: clineVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return clineChat([]string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) { clineAuth(t, a, url) },
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "cline", append(env, clineEnv...), clineArgs...) + "\n" + clineEnded(a)
		},
	},
	"copilot-cli": {
		name: "GitHub Copilot CLI", version: copilotCLIVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIChat("bash", []string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			writeJSON(t, filepath.Join(a.home, ".copilot", "settings.json"), map[string]any{"trustedFolders": []string{a.project}})
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runAgent(t, a, "copilot", append(env, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+url+"/v1",
				"COPILOT_PROVIDER_API_KEY=scripted", "COPILOT_MODEL=scripted"),
				"-p", "Remove the precious folder.", "--allow-all-tools")
		},
	},
	// Kimi CLI reads the user's config.toml alone (no project file), or
	// the one of $KIMI_SHARE_DIR where that is set.
	"kimi-cli": {
		name: "Kimi CLI", version: kimiCLIVersion,
		model: func(a *agentRun) func(w http.ResponseWriter, r *http.Request, body []byte) {
			return openAIChat("Shell", []string{a.command})
		},
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			writeText(t, filepath.Join(a.home, ".kimi", "config.toml"), kimiUserConfig(url))
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runProgram(t, a, pythonAgentBin(t, "kimi", "kimi"), env, kimiArgs...)
		},
	},
	// OpenHands has no folder trust; it reads the project's hooks.json,
	// where there is one, instead of the user's: the untrusted case is a
	// project with a hooks.json of its own (a hook of the team's at Stop).
	"openhands": {
		name: "OpenHands", version: openHandsVersion,
		model: openHandsModel,
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			if !trusted {
				writeJSON(t, filepath.Join(a.project, ".openhands", "hooks.json"), map[string]any{
					"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "true"}}}}})
			}
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			return runProgram(t, a, pythonAgentBin(t, "openhands", "openhands"), append(env, openHandsEnv(t, url)...),
				"--override-with-envs", "--headless", "--json", "-t", "Remove the precious folder.")
		},
	},
	"opencode":  openCode.doctor(),
	"kilo-code": kiloCode.doctor(),
	"mistral-vibe": {
		name: "Mistral Vibe", version: vibeVersion,
		model: vibeModel,
		setup: func(t *testing.T, a *agentRun, url string, trusted bool) {
			writeText(t, filepath.Join(a.home, ".vibe", "config.toml"), vibeConfig(url))
			if trusted {
				writeText(t, filepath.Join(a.home, ".vibe", "trusted_folders.toml"), fmt.Sprintf("trusted = [%q]\nuntrusted = []\n", a.project))
			}
		},
		run: func(t *testing.T, a *agentRun, url string, env []string) string {
			// Without --trust: the folder is trusted by the rules or not.
			return runProgram(t, a, pythonAgentBin(t, "vibe", "vibe"), append(env, "SCRIPTED_API_KEY=scripted"),
				"--auto-approve", "--output", "streaming", "-p", "Remove the precious folder.")
		},
	},
}

// For each real agent and each scope it has, a denying guard installed by
// the real `hookwire install`: `hookwire doctor AGENT --start-hooks` says
// "ready" exactly when the agent ran the guard, that is when the folder
// the model asks to delete survived. The cases where the agent loads no
// hook are the ones doctor must catch: Codex CLI in a project it does not
// trust, Copilot CLI's project scope under -p, Factory Droid's local scope
// under exec, Gemini CLI, Qwen Code and Mistral Vibe in a folder they do
// not trust. It takes about a minute, the agents run in
// parallel.
func TestDoctorReadyHoldsExactlyWhenTheRealAgentRunsTheHook(t *testing.T) {
	t.Parallel()
	sdk, _ := filepath.Abs("../sdk-python/src")
	guard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	for _, c := range []struct {
		agent, scope string
		trusted      bool
		env          []string // of the user's shell, where doctor and the agent run
		ready        bool     // what the agent does, as found: doctor must agree
	}{
		{"claude-code", "user", true, nil, true},
		{"claude-code", "project", true, nil, true},
		{"gemini-cli", "user", true, nil, true},
		{"gemini-cli", "project", true, nil, true},
		// Gemini CLI 0.61.0 does not run headless in a folder it does not
		// trust; told to (GEMINI_CLI_TRUST_WORKSPACE, --skip-trust), it runs.
		{"gemini-cli", "project", false, nil, false},
		{"gemini-cli", "project", false, []string{"GEMINI_CLI_TRUST_WORKSPACE=true"}, true},
		{"qwen-code", "user", true, nil, true},
		{"qwen-code", "project", true, nil, true},
		{"qwen-code", "project", false, nil, false},
		{"codex-cli", "user", false, nil, true},
		{"codex-cli", "project", true, nil, true},
		{"codex-cli", "project", false, nil, false},
		{"factory-droid", "user", true, nil, true},
		{"factory-droid", "project", true, nil, true},
		// droid exec 0.215.0 runs no hook of .factory/settings.local.json.
		{"factory-droid", "local", true, nil, false},
		{"goose", "user", true, nil, true},
		{"goose", "project", true, nil, true},
		{"cline", "user", true, nil, true},
		{"cline", "project", true, nil, true},
		{"copilot-cli", "user", true, nil, true},
		{"copilot-cli", "project", true, nil, false},
		{"kimi-cli", "user", true, nil, true},
		// Its folder moved (relative: under the project): Kimi CLI reads
		// a config.toml there, with no model and no hook.
		{"kimi-cli", "user", true, []string{"KIMI_SHARE_DIR=.kimi-elsewhere"}, false},
		{"openhands", "user", true, nil, true},
		{"openhands", "project", true, nil, true},
		// The project's own hooks.json: the user's is not read.
		{"openhands", "user", false, nil, false},
		// Vibe 3.0.2 loads the user's hooks.toml anywhere, a project's only
		// in a folder its trusted_folders.toml trusts.
		{"mistral-vibe", "user", false, nil, true},
		{"mistral-vibe", "project", true, nil, true},
		{"mistral-vibe", "project", false, nil, false},
		// OpenCode 1.18.33 loads every plugin of both folders, with no trust.
		{"opencode", "user", true, nil, true},
		{"opencode", "project", true, nil, true},
		// Its "run without external plugins", by the variable: no guard.
		{"opencode", "project", true, []string{"OPENCODE_PURE=1"}, false},
		// Kilo Code CLI 7.7.7 too, from its own folders.
		{"kilo-code", "user", true, nil, true},
		{"kilo-code", "project", true, nil, true},
	} {
		d := doctorAgents[c.agent]
		name := fmt.Sprintf("%s/%s/trusted=%v", c.agent, c.scope, c.trusted)
		if len(c.env) > 0 {
			name += "/" + strings.Join(c.env, ",")
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			model := serveModel(t, d.model(a))
			d.setup(t, a, model.url, c.trusted)
			env := bridgeEnv(t, a, append([]string{"PYTHONPATH=" + sdk}, c.env...)...)

			install := runHookwire(t, a, env, "install", "--scope", c.scope, c.agent, "--", "python3", guard)
			if !strings.Contains(install, "installed shell_guard into ") {
				t.Fatalf("hookwire install:\n%s", install)
			}
			doctor := runHookwire(t, a, env, "doctor", "--start-hooks", c.agent)
			ready := strings.Contains(doctor, "\n  ready: 1 hook(s) would run\n")

			out := d.run(t, a, model.url, env)
			// The guard ran when its reason reached the model or the user;
			// then the folder survived. A folder that survived without it
			// is an agent that ran no tool at all (an untrusted folder).
			ran := strings.Contains(model.sent()+out, "dangerous command blocked")
			if ran && !a.survived() {
				t.Errorf("%s %s: the guard denied the call, and the folder is gone\n%s", d.name, d.version, out)
			}
			if ready != ran {
				t.Errorf("%s %s: doctor says ready=%v, but the guard ran=%v (the folder survived=%v)\ndoctor:\n%s\nagent:\n%s",
					d.name, d.version, ready, ran, a.survived(), doctor, out)
			}
			if ran != c.ready {
				t.Errorf("%s %s: the guard ran=%v, the test expected %v (the folder survived=%v): the agent changed\nagent:\n%s", d.name, d.version, ran, c.ready, a.survived(), out)
			}
		})
	}
}

// bridgeEnv is the environment of hookwire, the agent and the bridge: a
// scratch home and a short runtime folder of the test's own (a Unix
// socket's path is limited to about 100 bytes), whose session servers end
// with the test.
func bridgeEnv(t *testing.T, a *agentRun, extra ...string) []string {
	t.Helper()
	runtime, err := os.MkdirTemp("", "hwd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopStartedIn(runtime)
		os.RemoveAll(runtime)
	})
	env := []string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "XDG_RUNTIME_DIR=" + runtime}
	if root := os.Getenv("PYENV_ROOT"); root != "" {
		env = append(env, "PYENV_ROOT="+root) // python3 may be pyenv's shim, which finds its root by it or by HOME
	}
	return append(env, extra...)
}

// stopStartedIn ends the processes this test started whose environment
// names its runtime folder: a session's server, and its hook, outlive an
// agent that sends no SessionEnd (Qwen Code's -p) by their idle time.
func stopStartedIn(runtime string) {
	marker := []byte("XDG_RUNTIME_DIR=" + runtime + "\x00")
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range procs {
		env, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(env), string(marker)) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil && pid != os.Getpid() {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}

// runHookwire runs the hookwire CLI in the project, and returns what it printed.
func runHookwire(t *testing.T, a *agentRun, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, args...)
	cmd.Dir, cmd.Env = a.project, env
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("hookwire %s did not end within 120 s:\n%s", strings.Join(args, " "), out)
	}
	return string(out)
}

// runAgent runs an agent's program in the project, and returns what it
// printed. A session's server may hold the agent's output open after it
// exits: WaitDelay bounds that wait.
func runAgent(t *testing.T, a *agentRun, program string, env []string, args ...string) string {
	t.Helper()
	return runProgram(t, a, agentBin(t, program), env, args...)
}

// runProgram is runAgent of a program by its path.
func runProgram(t *testing.T, a *agentRun, program string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Env, cmd.WaitDelay = a.project, env, 5*time.Second
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s did not end within 180 s:\n%s", program, out)
	}
	return string(out)
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeText(t, path, string(data))
}

func writeText(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
