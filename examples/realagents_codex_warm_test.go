package examples

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/bridge/mcptool"
)

// Codex CLI's mcp_tool hooks: its hooks served warm by `hookwire bridge
// --mcp`, and what Codex CLI does when that server cannot answer.

// codexCLIWarm runs Codex CLI with the hook served warm: `hookwire bridge
// --mcp codex-cli` is the MCP server Codex CLI starts itself, once,
// declared in ~/.codex/config.toml ([mcp_servers.hookwire]), and its
// PreToolUse is an mcp_tool hook that calls the server's tool. It returns
// what Codex CLI printed, and the file where the hook notes each start.
func (a *agentRun) codexCLIWarm(t *testing.T, hook []string, w warmRun) (string, *modelServer, string) {
	t.Helper()
	server, starts := a.warmServer(t, "codex-cli", hook, w)
	var args []string
	for _, arg := range server[1:] {
		args = append(args, fmt.Sprintf("%q", arg))
	}
	config := fmt.Sprintf("\n[mcp_servers.%s]\ncommand = %q\nargs = [%s]\n", mcptool.Server, server[0], strings.Join(args, ", "))
	h := mcptool.Hook(agents.CodexCLI.Install.MCPTool, false, cmp.Or(w.timeout, 60*time.Second))
	events := map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{h}}}}
	out, model := a.runCodexCLI(t, events, config)
	return out, model, starts
}

// Served warm, the shell-guard example denies each rm -r of the folder,
// the model reads why, and the hook started once for the whole session,
// not once an event.
func TestUnderTheRealCodexCLIAWarmSessionGuardsWithOneHookProcess(t *testing.T) {
	a := newAgentRun(t)
	a.calls = 2
	out, model, starts := a.codexCLIWarm(t, warmShellGuard(), warmRun{})
	a.guardedWarm(t, "Codex CLI "+codexCLIVersion, out, model, starts)
}

// When the warm session cannot answer, Codex CLI 0.171.0 runs the guarded
// call: the server killed in the middle of a call, a server that never
// starts, a call past the hook's own timeout. It has no onFailure: a
// failed mcp_tool hook blocks nothing (hooks/src/events/pre_tool_use.rs),
// so hookwire installs no warm form for it (agents.CodexCLI's
// MCPTool.FailsOpen). Each run shows it: the folder is gone, and Codex CLI
// says the hook failed. A guard that lets the call through is the control.
func TestUnderTheRealCodexCLIAWarmSessionThatIsGoneFailsOpen(t *testing.T) {
	stall := func(t *testing.T) []string { return pythonGuard(t, "stall") }
	for _, tc := range []struct {
		name string
		hook func(t *testing.T) []string
		warm warmRun
	}{
		{"the server killed in a call", killingGuard, warmRun{}},
		{"a server that never starts", func(t *testing.T) []string { return []string{"true"} }, warmRun{server: []string{filepath.Join(t.TempDir(), "no-such-server")}}},
		// The bridge's own deadline is 2 s (--timeout): past the hook's 1 s,
		// only Codex CLI's timeout answers.
		{"past the hook's timeout", stall, warmRun{timeout: time.Second}},
		{"control: a guard that lets it through", func(t *testing.T) []string { return pythonGuard(t, "continue") }, warmRun{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			out, _, starts := a.codexCLIWarm(t, tc.hook(t), tc.warm)
			if _, err := os.Stat(starts); (err == nil) != (tc.warm.server == nil) {
				t.Errorf("the hook started: %v; want it asked only when the server runs", err == nil)
			}
			if a.survived() {
				t.Errorf("the folder is still there: the scenario does not run the tool, or Codex CLI %s now blocks a guarded call whose mcp_tool hook failed (then hookwire can install its warm form)\n%s", codexCLIVersion, out)
			}
			if want := cmp.Or(map[bool]string{true: "hook: PreToolUse Completed"}[strings.HasPrefix(tc.name, "control")], "hook: PreToolUse Failed"); !strings.Contains(out, want) {
				t.Errorf("Codex CLI did not say %q\n%s", want, out)
			}
		})
	}
}
