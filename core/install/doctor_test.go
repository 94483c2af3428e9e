package install

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clone is a project as a cloned repository brings it: Claude Code's,
// Gemini CLI's, Qwen Code's and Codex CLI's project files each name a
// bridge command whose hook creates marker.
type clone struct {
	home, dir, bridge, marker string
}

func newClone(t *testing.T) *clone {
	t.Helper()
	root := t.TempDir()
	c := &clone{home: filepath.Join(root, "home"), dir: filepath.Join(root, "repo"), marker: filepath.Join(root, "MARKER")}
	c.bridge = filepath.Join(root, "bin", BridgeName)
	writeFile(t, c.bridge, "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(c.bridge, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude-code", "gemini-cli", "qwen-code", "codex-cli"} {
		c.project(t, name, c.bridge)
	}
	if err := os.MkdirAll(c.home, 0o755); err != nil {
		t.Fatal(err)
	}
	return c
}

// project writes the agent's project file, with one hook for its tool
// event run through bridge.
func (c *clone) project(t *testing.T, agent, bridge string) {
	t.Helper()
	a := Agents[agent]
	event := map[string]string{"claude-code": "PreToolUse", "gemini-cli": "BeforeTool", "qwen-code": "PreToolUse", "codex-cli": "PreToolUse", "copilot-cli": "preToolUse"}[agent]
	command := Command(bridge, agent, []string{"sh", "-c", "id > " + c.marker})
	var entry any = map[string]any{"type": "command", a.Command: command, a.Timeout.Field: a.timeoutValue(120e9)}
	if a.Layout == Grouped {
		entry = map[string]any{"matcher": a.Matcher, "hooks": []any{entry}}
	}
	settings := map[string]any{"hooks": map[string]any{event: []any{entry}}}
	if a.Layout == Flat {
		settings["version"] = 1
	}
	data, _ := json.Marshal(settings)
	writeFile(t, filepath.Join(c.dir, filepath.FromSlash(a.Files[Project])), string(data))
}

func (c *clone) ran() bool {
	_, err := os.Stat(c.marker)
	return err == nil
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// installTestdata writes the agent's realistic file of testdata (named
// testdata) as its file of scope in the clone, then installs hook there
// for a guard's events; it returns the change, written, and the events.
func installTestdata(t *testing.T, c *clone, a *Agent, scope Scope, testdata string, hook Hook) (Change, []string) {
	t.Helper()
	file, err := a.Path(scope, c.home, c.dir)
	if err != nil {
		t.Fatal(err)
	}
	original, err := os.ReadFile(filepath.Join("testdata", testdata))
	if err != nil {
		t.Fatal(err)
	}
	return installGuard(t, a, file, original, hook)
}

// texts are a report's findings, hooks' first, as lines.
func texts(r *Report) string {
	var b strings.Builder
	r.Write(&b)
	return b.String()
}

// Plain doctor starts nothing a project's files name: each hook says it
// was not started and how to check it, and that is no problem.
func TestDoctorStartsNoHookUnlessAsked(t *testing.T) {
	c := newClone(t)
	for _, name := range []string{"claude-code", "gemini-cli", "qwen-code", "codex-cli"} {
		r := Doctor(context.Background(), Agents[name], c.home, c.dir, DoctorOptions{})
		out := texts(r)
		if len(r.Hooks) != 1 {
			t.Fatalf("%s: found %d hooks\n%s", name, len(r.Hooks), out)
		}
		for _, want := range []string{"note    the hook was not started", "hookwire doctor --start-hooks " + name, "hookwire conformance -- sh -c 'id > "} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: doctor does not say %q\n%s", name, want, out)
			}
		}
		if r.Hooks[0].Started {
			t.Errorf("%s: the hook is marked started", name)
		}
	}
	if c.ran() {
		t.Fatal("doctor ran the command a cloned repository names")
	}
	// For Claude Code, which loads the project's hooks, that is ready as
	// the files say.
	r := Doctor(context.Background(), Agents["claude-code"], c.home, c.dir, DoctorOptions{})
	if !r.OK() || !strings.Contains(texts(r), "ready: 1 hook(s) would run, as the files say (not started: --start-hooks checks them)") {
		t.Errorf("claude-code: not ready\n%s", texts(r))
	}
}

// With --start-hooks, doctor starts a hook only where the agent would run
// it: never a project's hook in a folder or project the agent does not
// trust, never one whose bridge is not there; it says why.
func TestDoctorStartHooksOnlyWhereTheAgentRunsThem(t *testing.T) {
	c := newClone(t)
	opts := DoctorOptions{StartHooks: true}
	// Qwen Code's folder trust is off by default: the user turns it on.
	writeFile(t, filepath.Join(c.home, ".qwen", "settings.json"), `{"security": {"folderTrust": {"enabled": true}}}`)
	writeFile(t, filepath.Join(c.home, ".gemini", "trustedFolders.json"), fmt.Sprintf(`{%q: "DO_NOT_TRUST"}`, c.dir))
	for _, name := range []string{"gemini-cli", "qwen-code", "codex-cli"} {
		r := Doctor(context.Background(), Agents[name], c.home, c.dir, opts)
		out := texts(r)
		if r.OK() || !strings.Contains(out, "not trusted") || !strings.Contains(out, "the hook was not started: "+name+" does not load this file's hooks here") {
			t.Errorf("%s in an untrusted folder:\n%s", name, out)
		}
	}
	if c.ran() {
		t.Fatal("doctor --start-hooks ran a hook the agent would not load")
	}

	// A bridge that is not there: the agent would not run the hook either.
	missing := newClone(t)
	missing.project(t, "claude-code", filepath.Join(missing.dir, "no-such", BridgeName))
	r := Doctor(context.Background(), Agents["claude-code"], missing.home, missing.dir, opts)
	if out := texts(r); r.OK() || !strings.Contains(out, "is not there") || !strings.Contains(out, "the hook was not started: its bridge is not there") {
		t.Errorf("a missing bridge:\n%s", out)
	}
	// Relative to the project's folder, as the agent's shell finds it.
	missing.project(t, "claude-code", "./"+BridgeName)
	r = Doctor(context.Background(), Agents["claude-code"], missing.home, missing.dir, opts)
	if out := texts(r); r.OK() || !strings.Contains(out, "the hook was not started: its bridge is not there") {
		t.Errorf("a relative bridge not in the project:\n%s", out)
	}
	if missing.ran() {
		t.Fatal("doctor --start-hooks ran a hook whose bridge is not there")
	}

	// Where the agent would run it, doctor starts it (and it fails the
	// handshake: it is no hook).
	r = Doctor(context.Background(), Agents["claude-code"], c.home, c.dir, opts)
	if out := texts(r); !c.ran() || !r.Hooks[0].Started || !strings.Contains(out, "the hook does not start") {
		t.Errorf("claude-code with --start-hooks: ran %v\n%s", c.ran(), out)
	}
}

// Codex CLI 0.171.0 loads a project's hooks only where its config.toml
// trusts the project's folder or its git repository's root.
func TestDoctorCodexProjectTrust(t *testing.T) {
	for _, c := range []struct {
		name, trust string // trust: "dir", "root" or a trust_level for dir
		git         bool
		ok          bool
		want        string
	}{
		{"untrusted", "", false, false, "the project is not trusted: codex-cli loads no project hooks"},
		{"trusted folder", "dir", false, true, "the project is trusted"},
		{"trusted git root", "root", true, true, "the project is trusted"},
		{"explicitly untrusted", "untrusted", false, false, `sets trust_level = "untrusted"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClone(t)
			dir := cl.dir
			if c.git {
				dir = filepath.Join(cl.dir, "sub")
				if err := os.MkdirAll(filepath.Join(cl.dir, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
				cl.dir = dir
				cl.project(t, "codex-cli", cl.bridge)
				cl.dir = filepath.Dir(dir)
			}
			config := "model = \"o4\"\n"
			switch c.trust {
			case "dir":
				config += fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", dir)
			case "root":
				config += fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", cl.dir)
			case "":
			default:
				config += fmt.Sprintf("[projects.%q]\ntrust_level = %q\n", dir, c.trust)
			}
			writeFile(t, filepath.Join(cl.home, ".codex", "config.toml"), config)
			r := Doctor(context.Background(), Agents["codex-cli"], cl.home, dir, DoctorOptions{})
			if out := texts(r); r.OK() != c.ok || !strings.Contains(out, c.want) || !strings.Contains(out, "--dangerously-bypass-hook-trust") {
				t.Errorf("ready %v, want %v\n%s", r.OK(), c.ok, out)
			}
		})
	}
}

// A Codex config.toml that does not parse stops Codex CLI: it is a
// problem naming the file and where, never "hooks are on".
func TestDoctorCodexConfigThatDoesNotParse(t *testing.T) {
	for name, config := range map[string]string{
		"syntax error":    "[features\nhooks = false\n",
		"byte-order mark": "\ufeff[features]\nhooks = false\n",
		"table twice":     "[features]\nhooks = false\n[features]\nother = 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			home, dir := t.TempDir(), t.TempDir()
			file := filepath.Join(home, ".codex", "config.toml")
			writeFile(t, file, config)
			writeFile(t, filepath.Join(home, ".codex", "hooks.json"), `{"hooks": {}}`)
			r := Doctor(context.Background(), Agents["codex-cli"], home, dir, DoctorOptions{})
			out := texts(r)
			if r.OK() || !strings.Contains(out, "PROBLEM "+file+" does not parse: line ") || strings.Contains(out, "hooks are on") {
				t.Errorf("doctor:\n%s", out)
			}
			if strings.Count(out, "does not parse") != 1 {
				t.Errorf("the file is one problem:\n%s", out)
			}
		})
	}
}

// A settings file with a key given twice is a problem naming the key and
// its line; doctor no longer says the hook of the first would run.
func TestDoctorRefusesADuplicateKey(t *testing.T) {
	c := newClone(t)
	file := filepath.Join(c.dir, ".claude", "settings.json")
	data, _ := os.ReadFile(file)
	writeFile(t, file, strings.Replace(string(data), "{", "{\n\"hooks\": {},\n", 1))
	r := Doctor(context.Background(), Agents["claude-code"], c.home, c.dir, DoctorOptions{})
	if out := texts(r); r.OK() || len(r.Hooks) != 0 || !strings.Contains(out, `line 3: the key "hooks" is there twice (first on line 2)`) {
		t.Errorf("doctor:\n%s", out)
	}
}

// Copilot CLI 1.0.102 run with -p loads no .github/hooks: a hook of the
// project's scope is a problem, with the user's scope as its fix.
func TestDoctorCopilotProjectScope(t *testing.T) {
	c := newClone(t)
	c.project(t, "copilot-cli", c.bridge)
	r := Doctor(context.Background(), Agents["copilot-cli"], c.home, c.dir, DoctorOptions{})
	if out := texts(r); r.OK() || !strings.Contains(out, "loads no .github/hooks") || !strings.Contains(out, "fix: install it with --scope user") {
		t.Errorf("doctor:\n%s", out)
	}
}

// A started hook's output is bounded: a hook that writes without end is a
// problem that says so, found without reading gigabytes.
func TestDoctorBoundsAHooksOutput(t *testing.T) {
	yes, err := exec.LookPath("yes")
	if err != nil {
		t.Fatal(err)
	}
	c := newClone(t)
	a := Agents["claude-code"]
	command := Command(c.bridge, a.Name, []string{yes})
	writeFile(t, filepath.Join(c.home, ".claude", "settings.json"),
		`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": `+strconvQuote(command)+`, "timeout": 60}]}]}}`)
	r := Doctor(context.Background(), a, c.home, t.TempDir(), DoctorOptions{StartHooks: true})
	if out := texts(r); r.OK() || !strings.Contains(out, fmt.Sprintf("the hook wrote more than %d bytes on stdout", MaxHookOutput)) {
		t.Errorf("doctor of yes:\n%s", out)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pythonHook writes a hook in plain Python whose hello declares modes (a
// JSON list) and whose answer to any other request is what the body of
// answer(method, params) returns (None: no such method); it returns the
// command that runs it.
func pythonHook(t *testing.T, modes, answer string) []string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "hook.py")
	writeFile(t, script, `import json, sys
def answer(method, params):
`+answer+`    return None
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if not isinstance(m, dict) or not m.get("id"):  # id 0 is a notification
        continue
    if m.get("method") == "hook.hello":
        r = {"ok": True, "name": "hook", "modes": `+modes+`}
    else:
        r = answer(m.get("method"), m.get("params") or {})
    out = {"jsonrpc": "2.0", "id": m["id"], "result": r}
    if r is None:
        out = {"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "no such method"}}
    print(json.dumps(out), flush=True)
`)
	return []string{python, script}
}

// With --start-hooks, what the agent does not honour of a hook's replies
// is named: here the tools a before_llm modify adds, which no agent of
// the bridge takes from a hook.
func TestDoctorNamesPluginToolsTheAgentDrops(t *testing.T) {
	c := newClone(t)
	hook := pythonHook(t, `["llm"]`, `    if method == "hook.before_llm":
        req = dict(params)
        req["tools"] = list(req.get("tools") or []) + [{"type": "function", "function": {"name": "word_count", "description": "counts words", "parameters": {"type": "object"}}}]
        return {"action": "modify", "request": req}
    if method == "hook.after_llm":
        return {"action": "continue"}
`)
	a := Agents["claude-code"]
	command := Command(c.bridge, a.Name, hook)
	writeFile(t, filepath.Join(c.home, ".claude", "settings.json"),
		`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": `+strconvQuote(command)+`, "timeout": 60}]}]}}`)
	r := Doctor(context.Background(), a, c.home, t.TempDir(), DoctorOptions{StartHooks: true})
	if out := texts(r); !strings.Contains(out, "note    claude-code does not honour this: hook.before_llm: tools change") || !strings.Contains(out, "word_count") {
		t.Errorf("doctor:\n%s", out)
	}
}

// Gemini CLI trusts the folder it runs in when GEMINI_CLI_TRUST_WORKSPACE
// is true, and then loads the project's hooks: doctor, run with it, says
// so.
func TestDoctorGeminiTrustFromTheEnvironment(t *testing.T) {
	c := newClone(t)
	r := Doctor(context.Background(), Agents["gemini-cli"], c.home, c.dir, DoctorOptions{})
	if out := texts(r); r.OK() || !strings.Contains(out, "GEMINI_CLI_TRUST_WORKSPACE=true trusts it for a run") {
		t.Errorf("doctor without the variable:\n%s", out)
	}
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
	r = Doctor(context.Background(), Agents["gemini-cli"], c.home, c.dir, DoctorOptions{})
	if out := texts(r); !r.OK() || !strings.Contains(out, "the folder is trusted: GEMINI_CLI_TRUST_WORKSPACE=true") {
		t.Errorf("doctor with the variable:\n%s", out)
	}
}

// Windsurf runs the action when a hook fails in any way but exit code 2,
// and has no switch to fail closed: install and doctor say what that
// leaves unguarded; the entry install writes shows the bridge's messages
// to the user.
func TestWindsurfFailsOpenIsSaidAtInstallAndDoctor(t *testing.T) {
	c := newClone(t)
	a := Agents["windsurf"]
	hook := Hook{Command: Command(c.bridge, a.Name, []string{"/srv/venv/bin/python", "/srv/guard.py"})}
	ch, events := installTestdata(t, c, a, Project, "windsurf.json", hook)
	var written struct {
		Hooks map[string][]map[string]any
	}
	if err := json.Unmarshal(ch.After, &written); err != nil {
		t.Fatal(err)
	}
	entries := written.Hooks["pre_run_command"]
	if last := entries[len(entries)-1]; last["command"] != hook.Command || last["show_output"] != true || len(entries) != 2 {
		t.Errorf("pre_run_command's entries: %v; want the user's, then the hook's with show_output", entries)
	}
	const unguarded = "if hookwire-bridge itself is missing or cannot start, Cascade runs every command, read, write and MCP call unguarded"
	if caveats := strings.Join(Caveats(a, Project, events), "\n"); !strings.Contains(caveats, unguarded) {
		t.Errorf("install's caveats do not say Windsurf fails open:\n%s", caveats)
	}
	r := Doctor(context.Background(), a, c.home, c.dir, DoctorOptions{})
	if out := texts(r); !r.OK() || !strings.Contains(out, unguarded) {
		t.Errorf("doctor:\n%s", out)
	}
}

// installGuard writes original at file and installs hook into it for a
// guard's events, as hookwire install does (the state folder's write):
// the change and the events.
func installGuard(t *testing.T, a *Agent, file string, original []byte, hook Hook) (Change, []string) {
	t.Helper()
	writeFile(t, file, string(original))
	events := Events(a.facts(), guardModes)
	ch, err := Install(a, file, hook, events)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ch.Write(); err != nil {
		t.Fatal(err)
	}
	return ch, events
}
