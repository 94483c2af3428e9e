package examples

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The bridge's session servers: one per hook and flags, what they keep
// from the hook, how they end, and what they tell the user of a hook that
// fails.

// A settings file may name one hook in two entries with other flags: each
// entry's events must reach a server that runs with its own flags, not
// with those of whichever entry came first.
func TestAnEntryOfTheSameHookWithOtherFlagsGetsAServerOfItsOwn(t *testing.T) {
	t.Run("failure policy", func(t *testing.T) {
		open := newBridgeRun(t, "claude-code", guardScript(t, "crash"), "--failure-policy", "open", "--timeout", "1ms")
		open.call(t, sample(t, "claude-code", "SessionStart", nil))
		closed := open.withFlags()
		stdout, stderr, exit := closed.call(t, rmEvent(t, "claude-code"))
		if !blocked("claude-code", stdout, exit) {
			t.Errorf("the closed entry's call: exit %d, stdout %q, stderr %q; want it blocked, as its own policy says", exit, stdout, stderr)
		}
	})
	t.Run("env-clear", func(t *testing.T) {
		script := filepath.Join(t.TempDir(), "env.py")
		os.WriteFile(script, []byte(envHook), 0o644)
		t.Setenv("HOOKWIRE_TEST_SECRET", "hunter2")
		plain := newBridgeRun(t, "claude-code", bridgeHook{argv: []string{"python3", script}})
		plain.call(t, sample(t, "claude-code", "SessionStart", nil))
		cleared := plain.withFlags("--env-clear")
		stdout, stderr, _ := cleared.call(t, rmEvent(t, "claude-code"))
		if strings.Contains(stdout, "hunter2") || !strings.Contains(stdout, "secret=absent") {
			t.Errorf("the --env-clear entry's hook: stdout %q, stderr %q; want secret=absent", stdout, stderr)
		}
	})
}

// envHook answers a tool call, under the bridge or `hookwire mcp`, with
// the value of HOOKWIRE_TEST_SECRET as it sees it.
const envHook = `import json, os, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg["method"]
    if method == "hook.hello":
        result = {"ok": True, "modes": ["llm", "tool"]}
    elif method == "hook.before_llm":
        request = msg["params"]
        request["tools"] = (request.get("tools") or []) + [{"type": "function", "function": {"name": "env", "parameters": {"type": "object"}}}]
        result = {"action": "modify", "request": request}
    elif method == "hook.before_tool":
        result = {"action": "respond", "result": {"for_llm": "secret=" + os.environ.get("HOOKWIRE_TEST_SECRET", "absent")}}
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`

func TestEnvClearKeepsTheAgentsSecretsFromTheHook(t *testing.T) {
	script := filepath.Join(t.TempDir(), "env.py")
	os.WriteFile(script, []byte(envHook), 0o644)
	t.Setenv("HOOKWIRE_TEST_SECRET", "hunter2")
	for flags, want := range map[string]string{"": "secret=hunter2", "--env-clear": "secret=absent", "--env-clear --env-passthrough HOOKWIRE_TEST_*": "secret=hunter2"} {
		t.Run("bridge "+flags, func(t *testing.T) {
			b := newBridgeRun(t, "claude-code", bridgeHook{argv: []string{"python3", script}}, strings.Fields(flags)...)
			stdout, stderr, _ := b.call(t, rmEvent(t, "claude-code"))
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout %q, stderr %q: want %s", stdout, stderr, want)
			}
		})
		t.Run("mcp "+flags, func(t *testing.T) {
			args := append(append([]string{"mcp"}, strings.Fields(flags)...), "--", "python3", script)
			cmd := exec.Command(cli, args...)
			cmd.Stdin = strings.NewReader(strings.Join([]string{mcpInitialize, mcpInitialized,
				`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"env","arguments":{}}}`}, "\n") + "\n")
			out, err := cmd.Output()
			if err != nil || !strings.Contains(string(out), want) {
				t.Errorf("%v: %s: want %s", err, out, want)
			}
		})
	}
}

func TestAHookThatIgnoresEOFDiesWithItsSessionsServer(t *testing.T) {
	script := filepath.Join(t.TempDir(), "stubborn.py")
	os.WriteFile(script, []byte(`import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "hook.hello":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True, "modes": ["tool"]}}), flush=True)
while True:  # stdin closed: stay anyway
    time.sleep(1)
`), 0o644)
	b := newBridgeRun(t, "claude-code", bridgeHook{argv: []string{"python3", script}})
	b.call(t, sample(t, "claude-code", "SessionStart", nil))
	killed := false
	for _, pid := range b.processes() {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "cmdline"))
		if bytes.Contains(cmdline, []byte("--serve")) {
			syscall.Kill(pid, syscall.SIGKILL)
			killed = true
		}
	}
	if !killed {
		t.Fatal("no session server found")
	}
	b.noneLeft(t, "after the session's server was killed")
}

func TestTheSessionLogIsCappedAndTheSessionLeavesNoSocketOrLock(t *testing.T) {
	script := filepath.Join(t.TempDir(), "chatty.py")
	os.WriteFile(script, []byte(`import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "hook.hello":
        for i in range(25000):  # 25 MiB of chatter
            print("chatter %06d " % i + "x" * 1000, file=sys.stderr)
        sys.stderr.flush()
        result = {"ok": True, "modes": ["tool"]}
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	b := newBridgeRun(t, "claude-code", bridgeHook{argv: []string{"python3", script}})
	b.call(t, sample(t, "claude-code", "SessionStart", nil))
	b.call(t, rmEvent(t, "claude-code"))
	b.call(t, sample(t, "claude-code", "SessionEnd", nil))
	b.noneLeft(t, "after SessionEnd")
	var total int64
	entries, _ := os.ReadDir(b.dir)
	for _, e := range entries {
		info, _ := e.Info()
		switch {
		case strings.HasSuffix(e.Name(), ".log"), strings.HasSuffix(e.Name(), ".log.1"):
			total += info.Size()
		case e.Name() == "start.lock":
		default:
			t.Errorf("left in the sessions' folder: %s", e.Name())
		}
	}
	if total == 0 || total > 2*10<<20+1<<20 {
		t.Errorf("the session's logs take %d bytes: want at most twice the 10 MiB cap", total)
	}
}

func TestASocketFolderOthersMayEnterIsNamedWithTheWayOut(t *testing.T) {
	b := newBridgeRun(t, "gemini-cli", referenceHooks(t)["go"])
	os.Chmod(b.dir, 0o755)
	stdout, stderr, exit := b.call(t, rmEvent(t, "gemini-cli"))
	message := toUser(stdout, stderr)
	if !blocked("gemini-cli", stdout, exit) || !strings.Contains(message, b.dir) || !strings.Contains(message, "--dir") || !strings.Contains(message, "XDG_RUNTIME_DIR") {
		t.Errorf("exit %d, stdout %q, stderr %q: want the call blocked, the folder named, and --dir or XDG_RUNTIME_DIR as the way out", exit, stdout, stderr)
	}
}

// The hello grants the modes of the stages the agent's events call: both
// agents call before_llm (Claude Code at each prompt, Gemini CLI at each
// model call), so both grant llm; neither grants a mode no event asks.
func TestTheHelloGrantsOnlyTheModesTheAgentWillAsk(t *testing.T) {
	script := filepath.Join(t.TempDir(), "modes.py")
	os.WriteFile(script, []byte(`import json, sys
granted = []
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "hook.hello":
        granted = msg["params"].get("modes", [])
        result = {"ok": True, "modes": ["tool"]}
    else:
        result = {"action": "deny_tool", "reason": "granted " + ",".join(granted)}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	for agent, want := range map[string]string{"claude-code": "granted observe,llm,tool,approve", "gemini-cli": "granted observe,llm,tool,approve"} {
		b := newBridgeRun(t, agent, bridgeHook{argv: []string{"python3", script}})
		stdout, stderr, _ := b.call(t, rmEvent(t, agent))
		if !strings.Contains(stdout, want+`"`) {
			t.Errorf("%s: stdout %q, stderr %q: want %q", agent, stdout, stderr, want)
		}
	}
}

// A hook that raises, one with a syntax error and one that hangs: under
// each agent, the call is blocked and the user is shown the hook's name,
// the error and the session's log.
func TestAFailingHookIsNamedToTheUserWithItsErrorAndLog(t *testing.T) {
	dir := t.TempDir()
	badPython := filepath.Join(dir, "guard.py")
	os.WriteFile(badPython, []byte("def before_tool(call)\n    return None\n"), 0o644)
	badScript := filepath.Join(dir, "guard.mjs")
	os.WriteFile(badScript, []byte("export function beforeTool( {\n"), 0o644)
	refs := referenceHooks(t)
	cases := []struct {
		name  string
		hook  bridgeHook
		tool  string
		error string // what the message quotes of the error
		hook_ string // the hook's name in it
	}{
		{"a Go handler that fails", refs["go"], "error", "the reference hook failed, as asked", "reference-go"},
		{"a Python handler that raises", refs["python"], "error", "RuntimeError: the reference hook failed, as asked", "reference.py"},
		{"a TypeScript handler that throws", refs["typescript"], "error", "the reference hook failed, as asked", "reference-hook.js"},
		{"Python with a syntax error", bridgeHook{argv: []string{"python3", badPython}}, "Bash", "SyntaxError", "guard.py"},
		{"JavaScript with a syntax error", bridgeHook{argv: []string{"node", badScript}}, "Bash", "SyntaxError", "guard.mjs"},
		{"a hook that hangs", guardScript(t, "stall"), "Bash", "no reply within", "guard.py"},
	}
	for _, agent := range []string{"claude-code", "gemini-cli"} {
		for _, tc := range cases {
			t.Run(agent+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				b := newBridgeRun(t, agent, tc.hook, "--timeout", "1s")
				event := rmEvent(t, agent)
				event["tool_name"] = tc.tool
				stdout, stderr, exit := b.call(t, event)
				if !blocked(agent, stdout, exit) || exit != 0 {
					t.Fatalf("exit %d, stdout %q, stderr %q: want the call blocked, in JSON", exit, stdout, stderr)
				}
				message := toUser(stdout, stderr)
				for _, want := range []string{"hookwire: hook " + tc.hook_ + " ", tc.error, "its log: " + b.dir} {
					if !strings.Contains(message, want) {
						t.Errorf("the message to the user does not say %q:\n%s", want, message)
					}
				}
			})
		}
	}
}
