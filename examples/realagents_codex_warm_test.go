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
// PreToolUse is an mcp_tool hook that calls the server's tool, written as
// a guard's is for Claude Code (onFailure block, unless w.noBlock), which
// Codex CLI 0.171.0 takes without a word and ignores. It returns
// what Codex CLI printed, and the file where the hook notes each start.
func (a *agentRun) codexCLIWarm(t *testing.T, hook []string, w warmRun) (string, *modelServer, string) {
	t.Helper()
	server, starts := a.warmServer(t, "codex-cli", hook, w)
	var args []string
	for _, arg := range server[1:] {
		args = append(args, fmt.Sprintf("%q", arg))
	}
	config := fmt.Sprintf("\n[mcp_servers.%s]\ncommand = %q\nargs = [%s]\n", mcptool.Server, server[0], strings.Join(args, ", "))
	h := mcptool.Hook(agents.CodexCLI.Install.MCPTool, !w.noBlock, cmp.Or(w.timeout, 60*time.Second))
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

// fakeWarmServer is an MCP server on stdio whose tool answers every call
// with text, as an error (isError) where isError is set: a server that
// answers, but not with a hook's JSON output.
func fakeWarmServer(t *testing.T, text string, isError bool) []string {
	script := filepath.Join(t.TempDir(), "server.py")
	os.WriteFile(script, []byte(`import json, sys
text, is_error = sys.argv[1], sys.argv[2] == "error"
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg["method"]
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "event", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": text}], "isError": is_error}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	return []string{"python3", script, text, map[bool]string{true: "error", false: "text"}[isError]}
}

// When the warm session cannot answer, Codex CLI 0.171.0 runs the guarded
// call: the server killed in the middle of a call, a server that never
// starts, a call past the hook's own timeout, a tool that answers with an
// error or with what is not a hook's output. It has no onFailure (the
// hooks say onFailure block, and it runs the call all the same): a failed
// mcp_tool hook blocks nothing (hooks/src/events/pre_tool_use.rs), so
// hookwire installs no warm form for it (agents.CodexCLI's
// MCPTool.FailsOpen). Each run shows it: the folder is gone, and Codex CLI
// says how the hook ended. A guard that lets the call through is the
// control.
func TestUnderTheRealCodexCLIAWarmSessionThatIsGoneFailsOpen(t *testing.T) {
	stall := func(t *testing.T) []string { return pythonGuard(t, "stall") }
	none := func(t *testing.T) []string { return []string{"true"} }
	const failed, completed = "hook: PreToolUse Failed", "hook: PreToolUse Completed"
	for _, tc := range []struct {
		name string
		hook func(t *testing.T) []string
		warm warmRun
		said string // how Codex CLI says the hook ended
	}{
		{"the server killed in a call", killingGuard, warmRun{}, failed},
		{"a server that never starts", none, warmRun{server: []string{filepath.Join(t.TempDir(), "no-such-server")}}, failed},
		// The bridge's own deadline is 2 s (--timeout): past the hook's 1 s,
		// only Codex CLI's timeout answers.
		{"past the hook's timeout", stall, warmRun{timeout: time.Second}, failed},
		{"an error (isError)", none, warmRun{server: fakeWarmServer(t, `{"decision":"block","reason":"no"}`, true)}, failed},
		{"JSON that is not a hook's output", none, warmRun{server: fakeWarmServer(t, `{"decision":"maybe"}`, false)}, failed},
		{"text that is not JSON", none, warmRun{server: fakeWarmServer(t, "blocked", false)}, completed},
		{"control: a guard that lets it through", func(t *testing.T) []string { return pythonGuard(t, "continue") }, warmRun{}, completed},
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
			if !strings.Contains(out, tc.said) {
				t.Errorf("Codex CLI did not say %q\n%s", tc.said, out)
			}
		})
	}
}
