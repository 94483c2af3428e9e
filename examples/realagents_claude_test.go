package examples

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/bridge/mcptool"
)

// Claude Code alone: its prompt hook, and its hooks served warm.

// promptHook answers before_llm, which Claude Code's bridge asks at each
// prompt: "context" appends a message, "block" aborts the turn.
func promptHook(t *testing.T, behaviour string) []string {
	script := filepath.Join(t.TempDir(), "prompt.py")
	os.WriteFile(script, []byte(`import json, sys
behaviour = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "hook.hello":
        result = {"ok": True, "modes": ["llm"]}
    elif behaviour == "block":
        result = {"action": "abort_turn", "reason": "prompts about folders are not allowed here"}
    else:
        req = msg["params"]
        req["messages"] = req.get("messages", []) + [{"role": "system", "content": "The secret word is PINEAPPLE."}]
        result = {"action": "modify", "request": req}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	return []string{"python3", script, behaviour}
}

// At Claude Code's UserPromptSubmit, a before_llm modify that appends a
// message reaches the model as context, and abort_turn blocks the prompt:
// the model never reads it, and the user reads the reason.
func TestUnderTheRealClaudeCodeAPromptHookAddsContextOrBlocksThePrompt(t *testing.T) {
	t.Run("context", func(t *testing.T) {
		t.Parallel()
		a := newAgentRun(t)
		a.prompt, a.command = true, "true"
		out, model := a.claudeCode(t, promptHook(t, "context"))
		if !strings.Contains(model.sent(), "The secret word is PINEAPPLE.") {
			t.Errorf("the model was not given the hook's context\n%s", out)
		}
	})
	t.Run("block", func(t *testing.T) {
		t.Parallel()
		a := newAgentRun(t)
		a.prompt = true
		out, model := a.claudeCode(t, promptHook(t, "block"))
		if strings.Contains(model.sent(), "Remove the precious folder") || !a.survived() {
			t.Errorf("the blocked prompt reached the model, or the folder is gone\n%s", out)
		}
		if !strings.Contains(out, "prompts about folders are not allowed here") {
			t.Errorf("the user was not told why\n%s", out)
		}
	})
}

// claudeCodeWarm runs Claude Code with the hook served warm: `hookwire
// bridge --mcp` is the MCP server Claude Code starts itself, once, declared
// in the project's .mcp.json and approved in its settings, and each event
// is an mcp_tool hook that calls its tool (a guard's with onFailure block).
// It returns what Claude Code printed, and the file where the hook notes
// each start.
func (a *agentRun) claudeCodeWarm(t *testing.T, hook []string, w warmRun) (string, *modelServer, string) {
	t.Helper()
	server, starts := a.warmServer(t, "claude-code", hook, w)
	mcpJSON := map[string]any{"mcpServers": map[string]any{mcptool.Server: mcptool.ServerEntry(server)}}
	writeJSON(t, filepath.Join(a.project, ".mcp.json"), mcpJSON)
	mt := agents.ClaudeCode.Install.MCPTool
	events := map[string]any{}
	for name := range a.claudeEvents(nil) {
		guard := agents.ClaudeCode.Events[name].Guard
		events[name] = []any{map[string]any{"matcher": "*", "hooks": []any{mcptool.Hook(mt, guard && !w.noBlock, cmp.Or(w.timeout, 60*time.Second))}}}
	}
	settings := map[string]any{"hooks": events, "enabledMcpjsonServers": []string{mcptool.Server}}
	out, model := a.runClaudeCode(t, settings)
	return out, model, starts
}

// warmServer is the command of the warm server for agent, `hookwire bridge
// --mcp` with the hook (or w.server), and the file where the hook notes
// each start.
func (a *agentRun) warmServer(t *testing.T, agent string, hook []string, w warmRun) ([]string, string) {
	starts := filepath.Join(t.TempDir(), "starts")
	if w.server != nil {
		return w.server, starts
	}
	argv := slices.Concat([]string{"sh", "-c", `echo started >> "$0"; exec "$@"`, starts}, hook)
	return slices.Concat([]string{cli, "bridge", "--mcp", "--timeout", "2s", "--log", filepath.Join(t.TempDir(), "mcp.log")}, a.bridgeFlags, []string{agent, "--"}, argv), starts
}

// warmRun is how a test changes a warm run: server replaces the server's
// command; timeout is the hooks' own (Claude Code's timeout of the call);
// noBlock leaves onFailure out of the guards' hooks.
type warmRun struct {
	server  []string
	timeout time.Duration
	noBlock bool
}

// Served warm, the shell-guard example denies each rm -rf of the folder,
// the model reads why, and the hook started once for the whole session,
// not once an event.
func TestUnderTheRealClaudeCodeAWarmSessionGuardsWithOneHookProcess(t *testing.T) {
	a := newAgentRun(t)
	a.calls, a.prompt, a.stop = 2, true, true
	out, model, starts := a.claudeCodeWarm(t, warmShellGuard(), warmRun{})
	a.guardedWarm(t, "Claude Code "+claudeCodeVersion, out, model, starts)
}

// warmShellGuard is the shell-guard example in Python, with the SDK of
// this tree.
func warmShellGuard() []string {
	sdk, _ := filepath.Abs("../sdk-python/src")
	shellGuard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	return []string{"env", "PYTHONPATH=" + sdk, "python3", shellGuard}
}

// guardedWarm checks a warm run of warmShellGuard whose model asked two
// calls that delete the folder: the folder survived, the model read the
// guard's reason for each call, and the hook started once.
func (a *agentRun) guardedWarm(t *testing.T, agent, out string, model *modelServer, starts string) {
	t.Helper()
	if !a.survived() {
		t.Errorf("%s ran the delete: the folder is gone\n%s", agent, out)
	}
	if n := strings.Count(model.sent(), "dangerous command blocked"); n < 2 {
		t.Errorf("the model read the guard's reason %d times, want one for each of the 2 calls\n%s", n, out)
	}
	if data, _ := os.ReadFile(starts); string(data) != "started\n" {
		t.Errorf("the hook started %d times, want once for the session\n%s", strings.Count(string(data), "started"), out)
	}
}

// killingGuard is a hook that kills the process that started it, the
// MCP server, at the first tool call it is asked about: the server is gone
// in the middle of a call, and for the calls after it.
func killingGuard(t *testing.T) []string {
	script := filepath.Join(t.TempDir(), "killer.py")
	os.WriteFile(script, []byte(`import json, os, signal, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "hook.hello":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True, "modes": ["tool"]}}), flush=True)
    elif msg["method"] == "hook.before_tool":
        os.kill(os.getppid(), signal.SIGKILL)
        os._exit(1)
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"action": "continue"}}), flush=True)
`), 0o644)
	return []string{"python3", script}
}

// When the warm session cannot answer, Claude Code blocks the guarded call
// itself (onFailure block): the server killed in the middle of a call, a
// server that never starts, a call past the hook's own timeout. Without
// onFailure block, Claude Code 2.1.331 runs the call: what holds the guard
// is that setting. A guard that lets the call through shows the scenario
// runs the tool.
func TestUnderTheRealClaudeCodeAWarmSessionThatIsGoneFailsClosed(t *testing.T) {
	stall := func(t *testing.T) []string { return pythonGuard(t, "stall") }
	for _, tc := range []struct {
		name string
		hook func(t *testing.T) []string
		warm warmRun
		told string // what the model or the user reads
	}{
		{"the server killed in a call", killingGuard, warmRun{}, "The call to the MCP server failed."},
		{"a server that never starts", func(t *testing.T) []string { return []string{"true"} }, warmRun{server: []string{filepath.Join(t.TempDir(), "no-such-server")}}, "MCP server 'hookwire' not connected"},
		// The bridge's own deadline is 2 s (--timeout): past the hook's 1 s,
		// only Claude Code's timeout answers.
		{"past the hook's timeout", stall, warmRun{timeout: time.Second}, "timed out; blocking because onFailure is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.calls = 2
			out, model, starts := a.claudeCodeWarm(t, tc.hook(t), tc.warm)
			if _, err := os.Stat(starts); (err == nil) != (tc.warm.server == nil) {
				t.Errorf("the hook started: %v; want it asked only when the server runs", err == nil)
			}
			if !a.survived() {
				t.Errorf("Claude Code %s ran rm -rf: the folder is gone\n%s", claudeCodeVersion, out)
			}
			if !strings.Contains(model.sent()+out, tc.told) || !strings.Contains(model.sent(), "blocking because onFailure is") {
				t.Errorf("neither the model nor the user was told %q\n%s", tc.told, out)
			}
		})
	}
	for name, hook := range map[string]func(t *testing.T) []string{
		"control: a guard that lets it through":          func(t *testing.T) []string { return pythonGuard(t, "continue") },
		"control: the server killed, no onFailure block": killingGuard,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			out, _, _ := a.claudeCodeWarm(t, hook(t), warmRun{noBlock: strings.Contains(name, "no onFailure")})
			if a.survived() {
				t.Errorf("the folder should be gone: the scenario does not run the tool, or Claude Code %s blocks without onFailure block\n%s", claudeCodeVersion, out)
			}
		})
	}
}

// claudeCode runs Claude Code with the hook command for PreToolUse (and
// the other events of a session) and returns what it printed.
func (a *agentRun) claudeCode(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	var quoted []string
	// A folder of its own, with a short name: a Unix socket's path is
	// limited to about 100 bytes.
	bridgeDir, err := os.MkdirTemp("", "hwa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bridgeDir) })
	for _, arg := range slices.Concat([]string{bridgeCLI, "--dir", bridgeDir, "--timeout", "2s"}, a.bridgeFlags, []string{"claude-code", "--"}, hook) {
		quoted = append(quoted, shellQuote(arg))
	}
	command := strings.Join(quoted, " ")
	entry := []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 60}}}}
	return a.runClaudeCode(t, map[string]any{"hooks": a.claudeEvents(entry)}, env...)
}

// claudeEvents names entry for the events of Claude Code the run asks for:
// PreToolUse, PermissionRequest and SessionEnd, and those its flags add.
func (a *agentRun) claudeEvents(entry any) map[string]any {
	events := map[string]any{"PreToolUse": entry, "PermissionRequest": entry, "SessionEnd": entry}
	if a.afterTool {
		events["PostToolUse"] = entry
	}
	if a.prompt {
		events["UserPromptSubmit"] = entry
	}
	if a.stop {
		events["Stop"] = entry
	}
	if a.skillShell {
		events["PreSkillShellCommand"] = entry
	}
	return events
}

// runClaudeCode runs Claude Code in the project, with settings as its
// .claude/settings.json, against the scripted model.
func (a *agentRun) runClaudeCode(t *testing.T, settings map[string]any, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, anthropic(a.answer()))
	data, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(a.project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(a.project, ".claude", "settings.json"), data, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	task := cmp.Or(a.task, "Remove the precious folder.")
	cmd := exec.CommandContext(ctx, agentBin(t, "claude"), slices.Concat([]string{"-p", task, "--allowedTools", "Bash",
		"--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5"}, a.agentFlags)...)
	cmd.Dir = a.project
	cmd.Env = append([]string{
		"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		"ANTHROPIC_BASE_URL=" + model.url, "ANTHROPIC_API_KEY=sk-scripted",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1",
	}, env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Claude Code did not end within 120 s:\n%s", out)
	}
	_ = err // the agent's own exit status says how the turn ended, not whether the test passed
	return string(out), model
}
