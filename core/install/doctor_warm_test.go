package install

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// warmSetup is a home and a project with the warm form's hooks in the
// settings of scope, as install writes them, and a hookwire program.
type warmSetup struct {
	home, dir, hookwire, settings string
}

func newWarmSetup(t *testing.T, scope Scope, enable bool) *warmSetup {
	t.Helper()
	root := t.TempDir()
	w := &warmSetup{home: filepath.Join(root, "home"), dir: filepath.Join(root, "repo"), hookwire: filepath.Join(root, "bin", "hookwire")}
	writeFile(t, w.hookwire, "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(w.hookwire, 0o755); err != nil {
		t.Fatal(err)
	}
	w.settings, _ = Agents["claude-code"].Path(scope, w.home, w.dir)
	ch, err := install(Agents["claude-code"], w.settings, nil, Hook{Timeout: warmHook.Timeout, Warm: true, Enable: enable}, warmEvents)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, w.settings, string(ch.After))
	os.MkdirAll(w.dir, 0o755)
	return w
}

// declare writes file (under the project's folder, or home for
// .claude.json and ~/.claude's files) with the server hookwire as argv.
func (w *warmSetup) declare(t *testing.T, file string, argv []string) {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"hookwire": map[string]any{"type": "stdio", "command": argv[0], "args": argv[1:]}}})
	writeFile(t, file, string(data))
}

func (w *warmSetup) ours() []string {
	return WarmServer(w.hookwire, "claude-code", []string{"python3", "/srv/guard.py"})
}

// Doctor checks the server the warm form's hooks call, as Claude Code
// finds it: declared where it reads it for the hooks' scope, enabled
// where it is the project's, and hookwire's own.
func TestDoctorChecksTheWarmFormsServer(t *testing.T) {
	cases := []struct {
		name  string
		scope Scope
		// enable writes enabledMcpjsonServers with the hooks.
		enable bool
		setup  func(t *testing.T, w *warmSetup)
		want   string // a problem doctor reports; "" for none
	}{
		{"project's, enabled", Project, true, func(t *testing.T, w *warmSetup) { w.declare(t, filepath.Join(w.dir, ".mcp.json"), w.ours()) }, ""},
		{"user's in ~/.claude.json", User, false, func(t *testing.T, w *warmSetup) { w.declare(t, filepath.Join(w.home, ".claude.json"), w.ours()) }, ""},
		// Claude Code's local scope of servers: the user's file, under the project.
		{"local, in ~/.claude.json's entry of the project", Local, false, func(t *testing.T, w *warmSetup) {
			entry, _ := json.Marshal(map[string]any{"projects": map[string]any{w.dir: map[string]any{"mcpServers": map[string]any{"hookwire": map[string]any{"type": "stdio", "command": w.hookwire, "args": w.ours()[1:]}}}}})
			writeFile(t, filepath.Join(w.home, ".claude.json"), string(entry))
		}, ""},
		{"project's, not enabled", Project, false, func(t *testing.T, w *warmSetup) { w.declare(t, filepath.Join(w.dir, ".mcp.json"), w.ours()) },
			"declares the MCP server \"hookwire\", but no settings enable it"},
		{"project's, disabled", Project, true, func(t *testing.T, w *warmSetup) {
			w.declare(t, filepath.Join(w.dir, ".mcp.json"), w.ours())
			writeFile(t, filepath.Join(w.dir, ".claude", "settings.local.json"), `{"disabledMcpjsonServers": ["hookwire"]}`)
		}, "the local settings disable it"},
		{"declared nowhere", Project, true, func(t *testing.T, w *warmSetup) {}, "which neither"},
		// Claude Code 2.1.331 does not read mcpServers in ~/.claude/settings.json.
		{"user's in ~/.claude/settings.json", User, false, func(t *testing.T, w *warmSetup) {
			data, _ := os.ReadFile(w.settings)
			writeFile(t, w.settings, strings.Replace(string(data), "{", `{"mcpServers": {"hookwire": {"command": "`+w.hookwire+`", "args": ["bridge", "--mcp", "claude-code", "--", "true"]}},`, 1))
		}, "reads a user's servers only there"},
		{"user's hooks, the server only the project's", User, false, func(t *testing.T, w *warmSetup) {
			w.declare(t, filepath.Join(w.dir, ".mcp.json"), w.ours())
			writeFile(t, filepath.Join(w.dir, ".claude", "settings.json"), `{"enabledMcpjsonServers": ["hookwire"]}`)
		}, "reads a user's servers only there"},
		{"not hookwire's", Project, true, func(t *testing.T, w *warmSetup) {
			w.declare(t, filepath.Join(w.dir, ".mcp.json"), []string{"sh", "-c", "id > " + filepath.Join(w.dir, "MARKER")})
		}, "that is not hookwire's (hookwire bridge --mcp claude-code)"},
		{"hookwire not there", User, false, func(t *testing.T, w *warmSetup) {
			w.declare(t, filepath.Join(w.home, ".claude.json"), w.ours())
			os.Remove(w.hookwire)
		}, "the MCP server's program"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWarmSetup(t, c.scope, c.enable)
			c.setup(t, w)
			// Started, the ready ones' hook would not: it is not there.
			r := Doctor(context.Background(), Agents["claude-code"], w.home, w.dir, DoctorOptions{StartHooks: c.want != ""})
			out := texts(r)
			if len(r.Hooks) != 1 || r.Hooks[0].Command != warmMarker {
				t.Fatalf("doctor did not find the warm form's hooks\n%s", out)
			}
			if c.want == "" {
				if !r.OK() || !strings.Contains(out, "bridge --mcp") {
					t.Errorf("not ready\n%s", out)
				}
				return
			}
			if r.OK() || !strings.Contains(out, "PROBLEM") || !strings.Contains(out, c.want) {
				t.Errorf("doctor does not report %q as a problem\n%s", c.want, out)
			}
			if _, err := os.Stat(filepath.Join(w.dir, "MARKER")); err == nil {
				t.Error("doctor started a server that is not hookwire's")
			}
			if r.Hooks[0].Started != (c.name == "user's hooks, the server only the project's") { // here, Claude Code runs the project's
				t.Errorf("doctor started the hook: %v; want it started only where Claude Code would run it\n%s", r.Hooks[0].Started, out)
			}
		})
	}
}

// A project's server that install did not write here is hookwire's
// bridge, but with a hook the repository names: doctor says which, as a
// note, and starts it only when asked.
func TestDoctorNamesTheHookOfAProjectsServer(t *testing.T) {
	w := newWarmSetup(t, Project, true)
	marker := filepath.Join(w.dir, "MARKER")
	w.declare(t, filepath.Join(w.dir, ".mcp.json"), WarmServer(w.hookwire, "claude-code", []string{"sh", "-c", "id > " + marker}))
	r := Doctor(context.Background(), Agents["claude-code"], w.home, w.dir, DoctorOptions{})
	out := texts(r)
	if !strings.Contains(out, "which hookwire install did not write here: it runs the hook sh -c 'id > ") || !strings.Contains(out, "the hook was not started") {
		t.Errorf("doctor does not name the project's hook\n%s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("doctor ran the hook a project's server names, unasked")
	}
}
