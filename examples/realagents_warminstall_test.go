package examples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `hookwire install claude-code --warm` into a scratch home and project,
// then the real Claude Code asked twice to rm -rf a folder: in the
// project's scope (.mcp.json, enabled in .claude/settings.json) and the
// user's (~/.claude.json, hooks in ~/.claude/settings.json), doctor finds
// it ready, the folder survives, the model reads the guard's reason for
// each call, and the hook started once for the session. The control takes
// the server's declaration out: doctor says so, and Claude Code blocks
// each call itself (onFailure block) without starting the hook.
func TestUnderTheRealClaudeCodeInstallWarmGuardsWithOneHookProcess(t *testing.T) {
	sdk, _ := filepath.Abs("../sdk-python/src")
	guard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	for _, c := range []struct {
		scope    string
		declared bool
	}{{"project", true}, {"user", true}, {"project", false}, {"user", false}} {
		name := c.scope
		if !c.declared {
			name += "/control: the server's declaration taken out"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.calls = 2
			model := serveModel(t, anthropic(a.answer()))
			env := bridgeEnv(t, a, "PYTHONPATH="+sdk)
			starts := filepath.Join(t.TempDir(), "starts")
			install := runHookwire(t, a, env, "install", "--warm", "--scope", c.scope, "claude-code", "--",
				"sh", "-c", `echo started >> "$0"; exec "$@"`, starts, "python3", guard)
			servers := map[string]string{"project": filepath.Join(a.project, ".mcp.json"), "user": filepath.Join(a.home, ".claude.json")}[c.scope]
			if !strings.Contains(install, "installed hookwire's MCP server into "+servers) {
				t.Fatalf("hookwire install --warm:\n%s", install)
			}
			os.Remove(starts) // install started the hook once, to read its modes
			if !c.declared {
				undeclare(t, servers)
			}
			doctor := runHookwire(t, a, env, "doctor", "claude-code")
			if ready := strings.Contains(doctor, "\n  ready: 1 hook(s) would run"); ready != c.declared || (!c.declared && !strings.Contains(doctor, `call the MCP server "hookwire", which`)) {
				t.Errorf("doctor says ready=%v, want %v, and the missing server as a problem when it is\n%s", ready, c.declared, doctor)
			}

			out := doctorAgents["claude-code"].run(t, a, model.url, env)
			if !a.survived() {
				t.Fatalf("Claude Code %s ran rm -rf: the folder is gone\n%s", claudeCodeVersion, out)
			}
			started, _ := os.ReadFile(starts)
			if c.declared {
				if n := strings.Count(model.sent(), "dangerous command blocked"); n < 2 {
					t.Errorf("the model read the guard's reason %d times, want one for each of the 2 calls\n%s", n, out)
				}
				if string(started) != "started\n" {
					t.Errorf("the hook started %d times, want once for the session\n%s", strings.Count(string(started), "started"), out)
				}
				return
			}
			if len(started) > 0 || !strings.Contains(model.sent(), "blocking because onFailure is") {
				t.Errorf("without its server, the hook started (%q), or Claude Code did not block the call itself\n%s", started, out)
			}
		})
	}
}

// undeclare takes the server hookwire out of a file of MCP servers.
func undeclare(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	servers, _ := v["mcpServers"].(map[string]any)
	if _, ok := servers["hookwire"]; !ok {
		t.Fatalf("no server hookwire in %s", file)
	}
	delete(servers, "hookwire")
	writeJSON(t, file, v)
}
