package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/install"
)

// installBins builds hookwire and hookwire-bridge into one folder, as a
// user installs them, once per test run.
var installBins = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "hookwire-cmd-test")
	if err != nil {
		return "", err
	}
	for name, pkg := range map[string]string{"hookwire": ".", "hookwire-bridge": "../hookwire-bridge"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg).CombinedOutput(); err != nil {
			return "", &buildError{pkg, err, out}
		}
	}
	return dir, nil
})

// installed runs the built hookwire with HOME set to home, in dir.
func installed(t *testing.T, home, dir string, args ...string) (int, string) {
	t.Helper()
	bin, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "hookwire"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// hookCopy is a copy of the conformance suite's reference hook in dir.
func hookCopy(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(build(t, "../../conformance/testdata/hook", "hook"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "guard")
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// scopeOf is the scope an agent's test installs into: the user's, where
// the agent has one.
func scopeOf(a *install.Agent) install.Scope {
	if _, ok := a.Files[install.User]; ok {
		return install.User
	}
	return install.Project
}

// Install, then doctor, on a fresh configuration of each agent: the hook
// is ready, a second install changes nothing, and a dry run writes
// nothing.
func TestInstallThenDoctorReady(t *testing.T) {
	for name, a := range install.Agents {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), t.TempDir()
			hook := hookCopy(t, dir)
			scope := string(scopeOf(a))
			file, _ := a.Path(scopeOf(a), home, dir)

			code, out := installed(t, home, dir, "install", "--dry-run", "--scope", scope, name, "--", "./guard")
			if code != exitOK || !strings.Contains(out, "+++ "+file) || !strings.Contains(out, hook) {
				t.Fatalf("install --dry-run: exit %d\n%s", code, out)
			}
			if _, err := os.Stat(file); !os.IsNotExist(err) {
				t.Fatalf("a dry run wrote %s", file)
			}
			if code, out = installed(t, home, dir, "install", "--scope", scope, name, "--", "./guard"); code != exitOK {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
			if code, out = installed(t, home, dir, "install", "--scope", scope, name, "--", "./guard"); code != exitOK || !strings.Contains(out, "nothing to change") {
				t.Fatalf("a second install: exit %d\n%s", code, out)
			}
			code, out = installed(t, home, dir, "doctor", "--start-hooks", name)
			if code != exitOK || !strings.Contains(out, "ready: 1 hook(s) would run") || !strings.Contains(out, "passes conformance") {
				t.Fatalf("doctor: exit %d\n%s", code, out)
			}
			if code, out = installed(t, home, dir, "uninstall", "--scope", scope, name); code != exitOK {
				t.Fatalf("uninstall: exit %d\n%s", code, out)
			}
			left, err := os.ReadDir(file) // an agent whose hooks are files: their folder stays, empty
			if _, statErr := os.Stat(file); (a.Layout != install.Executables || err != nil || len(left) > 0) && !os.IsNotExist(statErr) {
				t.Fatalf("uninstall left %s %v", file, left)
			}
		})
	}
}

// Doctor catches each thing that stops an installed hook, and says how to
// fix it.
func TestDoctorFindsEachProblem(t *testing.T) {
	type setup struct {
		agent string
		// breaks the installation, given the settings file, the hook and
		// the bridge.
		breaks func(t *testing.T, file, hook, bridge string)
		want   []string
	}
	edit := func(old, new string) func(t *testing.T, file, hook, bridge string) {
		return func(t *testing.T, file, _, _ string) {
			data, _ := os.ReadFile(file)
			if !strings.Contains(string(data), old) {
				t.Fatalf("no %s in\n%s", old, data)
			}
			if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, -1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(which int) func(t *testing.T, file, hook, bridge string) {
		return func(t *testing.T, _, hook, bridge string) {
			if err := os.Remove([]string{hook, bridge}[which]); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := map[string]setup{
		"missing bridge":   {"claude-code", remove(1), []string{"the bridge", "is not there", "fix: install hookwire-bridge there"}},
		"hook not started": {"gemini-cli", remove(0), []string{"the hook does not start", "fix: run it by hand"}},
		"gemini timeout in seconds": {"gemini-cli", edit(`"timeout": 60000`, `"timeout": 5`),
			[]string{`"timeout" is 5, in milliseconds (5ms): a value in seconds?`, `fix: set "timeout" to 60000 (milliseconds)`}},
		"claude timeout in milliseconds": {"claude-code", edit(`"timeout": 60`, `"timeout": 5000`),
			[]string{`"timeout" is 5000, in seconds (1h23m20s): a value in milliseconds?`, `fix: set "timeout" to 60 (seconds)`}},
		"claude timeout below the deadline": {"claude-code", edit(`"timeout": 60`, `"timeout": 20`),
			[]string{"the agent stops the hook after 20s, before the bridge's deadline of 50s: a guard would let the call run"}},
		"claude hooks off": {"claude-code", edit(`{`, `{"disableAllHooks": true, `),
			[]string{"hooks are off:", "sets disableAllHooks to true", "fix: set disableAllHooks to false in"}},
		"gemini hooks off": {"gemini-cli", edit(`{`, `{"hooksConfig": {"enabled": false}, `),
			[]string{"hooks are off:", "sets hooksConfig.enabled to false", "fix: set hooksConfig.enabled to true in"}},
		"codex hooks off": {"codex-cli", func(t *testing.T, file, _, _ string) {
			config := filepath.Join(filepath.Dir(file), "config.toml")
			if err := os.WriteFile(config, []byte("model = \"o4\"\n\n[features]\nhooks = false\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"hooks are off:", "config.toml sets features.hooks to false", "fix: set features.hooks to true in"}},
		"qwen hooks off": {"qwen-code", edit(`{`, `{"disableAllHooks": true, `),
			[]string{"hooks are off:", "sets disableAllHooks to true", "fix: set disableAllHooks to false in"}},
		"gemini hook disabled by name": {"gemini-cli", edit(`{`, `{"hooksConfig": {"disabled": ["guard"]}, `),
			[]string{`the hook "guard" is disabled by name`, `fix: take "guard" out of hooksConfig.disabled`}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), t.TempDir()
			hook := hookCopy(t, dir)
			bins, err := installBins()
			if err != nil {
				t.Fatal(err)
			}
			bridge := filepath.Join(dir, "hookwire-bridge")
			data, _ := os.ReadFile(filepath.Join(bins, "hookwire-bridge"))
			if err := os.WriteFile(bridge, data, 0o755); err != nil {
				t.Fatal(err)
			}
			if code, out := installed(t, home, dir, "install", "--bridge", bridge, c.agent, "--", hook); code != exitOK {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
			file, _ := install.Agents[c.agent].Path(install.User, home, dir)
			c.breaks(t, file, hook, bridge)
			code, out := installed(t, home, dir, "doctor", "--start-hooks", c.agent)
			if code != exitFail || !strings.Contains(out, "NOT READY") {
				t.Fatalf("doctor: exit %d, want %d\n%s", code, exitFail, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("doctor does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

// Gemini CLI loads a project's hooks only in a trusted folder.
func TestDoctorGeminiFolderTrust(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	hookCopy(t, dir)
	if code, out := installed(t, home, dir, "install", "--scope", "project", "gemini-cli", "--", "./guard"); code != exitOK {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	code, out := installed(t, home, dir, "doctor", "gemini-cli")
	if code != exitFail || !strings.Contains(out, "the folder is not trusted yet") || !strings.Contains(out, `"TRUST_FOLDER" to `+filepath.Join(home, ".gemini", "trustedFolders.json")) {
		t.Fatalf("doctor in an untrusted folder: exit %d\n%s", code, out)
	}
	trust := `{"` + filepath.Dir(dir) + `": "TRUST_FOLDER"}`
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), []byte(trust), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out = installed(t, home, dir, "doctor", "gemini-cli"); code != exitOK || !strings.Contains(out, "the folder is trusted") {
		t.Fatalf("doctor in a trusted folder: exit %d\n%s", code, out)
	}
}

func TestInstallErrorsNameTheFix(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"install", "vim", "--", "true"}, `unknown agent "vim" (known: ` + strings.Join(slices.Sorted(func(yield func(string) bool) {
			for k := range install.Agents {
				if !yield(k) {
					return
				}
			}
		}), ", ")},
		{[]string{"install", "claude-code"}, "need the hook's command, after --"},
		{[]string{"install", "--scope", "local", "gemini-cli", "--", "true"}, "gemini-cli has no local configuration file (its scopes: user, project)"},
		{[]string{"install", "claude-code", "--", "no-such-hook-program"}, `the hook's program "no-such-hook-program" is not on PATH`},
		{[]string{"install", "--events", "Nope", "claude-code", "--", "true"}, `claude-code has no event "Nope"`},
	} {
		code, out := installed(t, home, dir, c.args...)
		if code == exitOK || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d\n%s\nwant %q", c.args, code, out, c.want)
		}
	}
}

// The install commands of the READMEs run as written, from a project with
// a Python guard in its virtual environment: docs/install.md's (a dry run,
// install, doctor, uninstall) and then the root README's, one agent a line,
// and doctor finds every hook ready. The command written for Claude Code
// and Gemini CLI then blocks rm -rf / as the agents run it: through sh -c,
// from another folder.
func TestInstallAsTheREADMEsSay(t *testing.T) {
	bins, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	guard, err := os.ReadFile("../../../examples/shell-guard/python/shell_guard.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guard.py"), guard, 0o644); err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(dir, ".venv")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v\n%s", err, out)
	}
	site, err := exec.Command(filepath.Join(venv, "bin", "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").Output()
	if err != nil {
		t.Fatal(err)
	}
	sdk, _ := filepath.Abs("../../../sdk-python/src")
	if err := os.WriteFile(filepath.Join(strings.TrimSpace(string(site)), "hookwire.pth"), []byte(sdk+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runtimeDir, err := os.MkdirTemp("", "hwi") // short: a socket's path has a limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtimeDir) })
	environ := []string{"PATH=" + bins + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + runtimeDir}
	sh := func(script, in string) string {
		t.Helper()
		cmd := exec.Command("sh", "-e", "-c", script)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, environ, strings.NewReader(in)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	block := func(path, has string) string {
		for _, b := range shBlocks(t, path) {
			if strings.Contains(b, has) {
				return b
			}
		}
		t.Fatalf("%s has no sh block with %q", path, has)
		return ""
	}

	out := sh(block("../../../docs/install.md", "hookwire install --dry-run claude-code"), "")
	for _, want := range []string{"+++ " + filepath.Join(home, ".claude", "settings.json"), "ready: 1 hook(s) would run", "uninstalled from"} {
		if !strings.Contains(out, want) {
			t.Errorf("docs/install.md's commands do not say %q:\n%s", want, out)
		}
	}
	// OpenCode's plugin, as docs/install.md and the TypeScript SDK's README
	// write it (a TypeScript hook built to dist/main.js).
	os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
	os.WriteFile(filepath.Join(dir, "dist", "main.js"), nil, 0o644)
	for _, doc := range []string{"../../../docs/install.md", "../../../sdk-node/README.md"} {
		out := sh(block(doc, "hookwire install --scope project opencode"), "")
		if plugin := filepath.Join(dir, ".opencode", "plugins", "hookwire.js"); !strings.Contains(out, "ready: 1 hook(s) would run") || !strings.Contains(out, plugin) {
			t.Errorf("%s's OpenCode commands do not install and check %s:\n%s", doc, plugin, out)
		}
		sh("hookwire uninstall opencode", "")
	}
	out = sh(block("../../../README.md", "hookwire install qwen-code"), "")
	if n := strings.Count(out, "ready: 1 hook(s) would run"); n != len(install.Agents) || strings.Contains(out, "PROBLEM") {
		t.Fatalf("doctor after the root README's installs: %d agents ready of %d\n%s", n, len(install.Agents), out)
	}

	// The command as the agent runs it.
	command := func(file, event string) string {
		data, err := os.ReadFile(filepath.Join(home, file))
		if err != nil {
			t.Fatal(err)
		}
		var settings struct {
			Hooks map[string][]struct{ Hooks []struct{ Command string } }
		}
		if err := json.Unmarshal(data, &settings); err != nil {
			t.Fatal(err)
		}
		return settings.Hooks[event][0].Hooks[0].Command
	}
	for _, c := range []struct{ file, event, tool, end, deny string }{
		{".claude/settings.json", "PreToolUse", "Bash", "SessionEnd", `"permissionDecision":"deny"`},
		{".gemini/settings.json", "BeforeTool", "run_shell_command", "SessionEnd", `"decision":"deny"`},
	} {
		run := "cd / && " + command(c.file, c.event)
		out := sh(run, `{"hook_event_name":"`+c.event+`","session_id":"s1","cwd":"/","tool_name":"`+c.tool+`","tool_input":{"command":"rm -rf /"}}`)
		if !strings.Contains(out, c.deny) || !strings.Contains(out, "dangerous command blocked") {
			t.Errorf("%s %s rm -rf /: %s", c.file, c.event, out)
		}
		sh("cd / && "+command(c.file, c.end), `{"hook_event_name":"`+c.end+`","session_id":"s1","cwd":"/"}`)
	}
}
