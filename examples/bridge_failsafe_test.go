package examples

import (
	"bytes"
	"encoding/json"
	"github.com/hookwire/hookwire/core/agents"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A guard whose decision lives in before_tool alone (no approve mode) must
// block the tool whenever the bridge cannot get its decision: these tests
// fail open on a bridge that lets the call through.

// guardScript is a Python hook that declares only the tool mode and
// behaves as behaviour says on each before_tool: "crash", "stall", or
// "slow" (deny after 200 ms, one call at a time).
func guardScript(t *testing.T, behaviour string) bridgeHook {
	t.Helper()
	script := filepath.Join(t.TempDir(), "guard.py")
	os.WriteFile(script, []byte(`import json, os, sys, time
behaviour = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "hook.hello":
        result = {"ok": True, "modes": ["tool"]}
    elif behaviour == "crash":
        print("Traceback: the guard fell over", file=sys.stderr, flush=True)
        os._exit(1)
    elif behaviour == "stall":
        time.sleep(3600)
    else:
        time.sleep(0.2)
        result = {"action": "deny_tool", "reason": "not on my watch"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	return bridgeHook{argv: []string{"python3", script, behaviour}}
}

// The shell guard example, one file, blocks rm -rf / in every agent's own
// form: it reads the canonical kind, never a tool's name.
func TestTheShellGuardBlocksRmRfInEveryAgentsForm(t *testing.T) {
	sdk, _ := filepath.Abs("../sdk-python/src")
	guard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	for _, agent := range allAgents {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			b := newBridgeRun(t, agent, bridgeHook{argv: []string{"python3", guard}, env: []string{"PYTHONPATH=" + sdk}})
			stdout, stderr, exit := b.call(t, rmEvent(t, agent))
			if !blocked(agent, stdout, exit) || !strings.Contains(reads(agent, stdout, stderr), "dangerous command blocked: rm -rf /") {
				t.Errorf("exit %d, stdout %s, stderr %s: want the call blocked by the guard", exit, stdout, stderr)
			}
		})
	}
}

func TestAGuardThatCrashesOrStallsBlocksTheToolWithTheReasonAndTheLog(t *testing.T) {
	for _, agent := range allAgents {
		for _, behaviour := range []string{"crash", "stall"} {
			t.Run(agent+"/"+behaviour, func(t *testing.T) {
				t.Parallel()
				b := newBridgeRun(t, agent, guardScript(t, behaviour), "--timeout", "500ms")
				stdout, stderr, exit := b.call(t, rmEvent(t, agent))
				if !blocked(agent, stdout, exit) {
					t.Fatalf("exit %d, stdout %q, stderr %q: want the call blocked", exit, stdout, stderr)
				}
				message := toUser(stdout, stderr)
				outcome := "the tool call was blocked"
				if agents.ByName(agent).Quirks.EndsRun {
					outcome = "whole run was ended" // it stops a call only so
				}
				for _, want := range []string{"hook guard.py failed", outcome, ".log"} {
					if !strings.Contains(message, want) {
						t.Errorf("the message to the user, %q, does not say %q", message, want)
					}
				}
			})
		}
	}
}

func TestABurstOfFiftyCallsToAnOverloadedGuardBlocksEveryOne(t *testing.T) {
	for _, agent := range []string{"claude-code", "gemini-cli"} {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			// One call at a time, 200 ms each: the later calls of the burst
			// miss the 1 s deadline, and must be blocked all the same.
			b := newBridgeRun(t, agent, guardScript(t, "slow"), "--timeout", "1s")
			b.call(t, sample(t, agent, "SessionStart", nil)) // the server and hook, started once
			var wg sync.WaitGroup
			var mu sync.Mutex
			let := 0
			for range 50 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					stdout, stderr, exit := b.call(t, rmEvent(t, agent))
					if !blocked(agent, stdout, exit) {
						mu.Lock()
						let++
						mu.Unlock()
						t.Logf("let through: exit %d, stdout %q, stderr %q", exit, stdout, stderr)
					}
				}()
			}
			wg.Wait()
			if let > 0 {
				t.Errorf("%d of 50 calls let through", let)
			}
		})
	}
}

// stuckSession starts the session's server and hook, then stops them
// with SIGSTOP: a server that takes the event and never answers.
func stuckSession(t *testing.T, b *bridgeRun) {
	t.Helper()
	b.call(t, sample(t, b.agent, "SessionStart", nil))
	for _, pid := range b.processes() {
		syscall.Kill(pid, syscall.SIGSTOP)
	}
	t.Cleanup(func() {
		for _, pid := range b.processes() {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	})
}

func TestTheBridgeClientEndsWithinItsDeadlineAndAtOnceOnSIGTERM(t *testing.T) {
	hook := referenceHooks(t)["python"]
	t.Run("deadline", func(t *testing.T) {
		b := newBridgeRun(t, "claude-code", hook, "--deadline", "1s")
		event := rmEvent(t, "claude-code")
		stuckSession(t, b)
		start := time.Now()
		stdout, stderr, exit := b.call(t, event)
		took := time.Since(start)
		if !blocked("claude-code", stdout, exit) || !strings.Contains(toUser(stdout, stderr), "deadline") {
			t.Errorf("exit %d, stdout %q, stderr %q: want the call blocked for the deadline", exit, stdout, stderr)
		}
		if took > 10*time.Second {
			t.Errorf("the client took %v with a 1s deadline", took)
		}
	})
	t.Run("SIGTERM", func(t *testing.T) {
		b := newBridgeRun(t, "gemini-cli", hook)
		event := rmEvent(t, "gemini-cli")
		stuckSession(t, b)
		data, _ := json.Marshal(event)
		cmd := exec.Command(bridgeCLI, "--dir", b.dir, "gemini-cli", "--")
		cmd.Args = append(cmd.Args, hook.argv...)
		cmd.Env = append(os.Environ(), hook.env...)
		cmd.Stdin = bytes.NewReader(data)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || !blocked("gemini-cli", out.String(), 0) || !strings.Contains(toUser(out.String(), errOut.String()), "interrupted") {
				t.Errorf("after SIGTERM: %v, stdout %q, stderr %q: want the call blocked, interrupted", err, out.String(), errOut.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the client did not end on SIGTERM")
		}
	})
}

func TestAGuardEventThatCannotBeReadIsBlocked(t *testing.T) {
	hook := referenceHooks(t)["go"]
	noSession := rmEvent(t, "claude-code")
	delete(noSession, "session_id")
	noSessionData, _ := json.Marshal(noSession)
	// Over the bridge's 64 MiB: the event's name is read from its start.
	huge := append([]byte(`{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf / `), bytes.Repeat([]byte("x"), 65<<20)...)
	huge = append(huge, `"}}`...)
	for name, data := range map[string][]byte{"without session_id": noSessionData, "over 64 MiB": huge} {
		t.Run(name, func(t *testing.T) {
			b := newBridgeRun(t, "claude-code", hook)
			cmd := exec.Command(bridgeCLI, append([]string{"--dir", b.dir, "claude-code", "--"}, hook.argv...)...)
			cmd.Stdin = bytes.NewReader(data)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			exit := cmd.ProcessState.ExitCode()
			if !blocked("claude-code", stdout.String(), exit) || !strings.Contains(toUser(stdout.String(), stderr.String()), "blocked") {
				t.Errorf("%v: %.300s %.300s: want the call blocked", err, stdout.String(), stderr.String())
			}
		})
	}
}

// Copilot CLI and Cursor run a tool when its hook fails: an event they
// send that the bridge cannot read is denied in their JSON, exit code 0.
func TestAnUnreadableEventIsDeniedInJSONWhereAFailedHookLetsTheToolRun(t *testing.T) {
	for _, agent := range []string{"copilot-cli", "cursor"} {
		cmd := exec.Command(bridgeCLI, agent, "--", "true")
		cmd.Stdin = strings.NewReader(`{"toolName": "bash", "toolArgs": "{\"command\":\"rm -rf /`)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err != nil || !blocked(agent, stdout.String(), 0) {
			t.Errorf("%s: %v, stdout %q, stderr %q: want a deny, exit code 0", agent, err, stdout.String(), stderr.String())
		}
	}
}

// An event full of <, > and & reaches the hook as it came: escaped for
// HTML, 20 MiB of them would be 120 MiB, over the server's limit.
func TestAnEventFullOfHTMLCharactersReachesTheHookUnescaped(t *testing.T) {
	script := filepath.Join(t.TempDir(), "measure.py")
	os.WriteFile(script, []byte(`import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "hook.hello":
        result = {"ok": True, "modes": ["tool"]}
    else:
        result = {"action": "deny_tool", "reason": "length %d" % len(msg["params"]["arguments"]["command"])}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	b := newBridgeRun(t, "claude-code", bridgeHook{argv: []string{"python3", script}})
	event := rmEvent(t, "claude-code")
	event["tool_input"] = map[string]any{"command": strings.Repeat("<&>", 7<<20)}
	stdout, stderr, exit := b.call(t, event)
	if exit != 0 || !strings.Contains(stdout, "length 22020096") {
		t.Errorf("exit %d, stdout %.200q, stderr %.300q: want the hook's deny with the command's length", exit, stdout, stderr)
	}
}

func TestFailurePolicyOpenLetsACrashedGuardsCallGoOnAndSaysSo(t *testing.T) {
	b := newBridgeRun(t, "claude-code", guardScript(t, "crash"), "--failure-policy", "open")
	stdout, stderr, exit := b.call(t, rmEvent(t, "claude-code"))
	if blocked("claude-code", stdout, exit) || !strings.Contains(stderr, "--failure-policy open") {
		t.Errorf("exit %d, stdout %q, stderr %q: want the call to go on, and the policy said", exit, stdout, stderr)
	}
}

// crashingGuard is a Python hook that declares modes (comma-separated) in
// hook.hello and crashes at every call; with modes "never-start" it exits
// before its hello.
func crashingGuard(t *testing.T, modes string) bridgeHook {
	t.Helper()
	script := filepath.Join(t.TempDir(), "guard.py")
	os.WriteFile(script, []byte(`import json, os, sys
modes = sys.argv[1]
if modes == "never-start":
    print("the guard cannot find its rules", file=sys.stderr, flush=True)
    sys.exit(3)
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") != "hook.hello":
        print("Traceback: the guard fell over", file=sys.stderr, flush=True)
        os._exit(1)
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True, "modes": modes.split(",")}}), flush=True)
`), 0o644)
	return bridgeHook{argv: []string{"python3", script, modes}}
}

// Under --failure-policy open, a guard whose hook cannot be asked gets no
// decision in each agent's own terms: no allow (which would skip the
// agent's permission prompt), no input echoed back, no deny, no ask; the
// agent's own permission rules decide, as without a hook. The user is
// still told which hook failed and why.
func TestFailurePolicyOpenGivesAFailedGuardNoDecisionInEveryAgent(t *testing.T) {
	t.Parallel()
	for _, agent := range allAgents {
		// A hook that crashes at each call, by the modes it declares (the
		// tool's stages, the approver, both), and one that never starts.
		for _, modes := range []string{"tool", "approve", "tool,approve", "never-start"} {
			t.Run(agent+"/"+modes, func(t *testing.T) {
				t.Parallel()
				b := newBridgeRun(t, agent, crashingGuard(t, modes), "--failure-policy", "open", "--timeout", "2s")
				for _, event := range guardEvents(agent) {
					ev := rmEvent(t, agent)
					if event != ev["hook_event_name"] {
						ev = sample(t, agent, event, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}})
					}
					stdout, stderr, exit := b.call(t, ev)
					if d := decides(stdout, exit); d != "" {
						t.Errorf("%s: the reply decides (%s): stdout %q, stderr %q; want no decision", event, d, stdout, stderr)
					}
					if !asks(agent, event, modes) {
						continue // the hook has no stage here: it was not asked, and did not fail
					}
					if message := toUser(stdout, stderr); !strings.Contains(message, "hookwire: hook guard.py ") || !strings.Contains(message, "own permission rules decide") {
						t.Errorf("%s: the message to the user, %q, does not name the hook's failure and what became of the call", event, message)
					}
				}
			})
		}
	}
}

// Under the real Claude Code, --failure-policy open leaves the call of a
// guard that crashes (before_tool and its approval alike) to Claude Code's
// own permission rules: where they ask, which a run with -p cannot, Bash
// does not run; where they allow it (--allowedTools Bash), it runs. An
// allow from the bridge would skip the question and run it in both.
func TestUnderTheRealClaudeCodeAnOpenPolicyLeavesACrashedGuardsCallToItsOwnRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		ask  bool // the user's settings ask before Bash runs
	}{{"its rules ask", true}, {"its rules allow", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.bridgeFlags = []string{"--failure-policy", "open"}
			if tc.ask {
				// Claude Code reads ask rules before allow rules: --allowedTools
				// Bash does not answer the question, and -p has no one to ask.
				os.MkdirAll(filepath.Join(a.home, ".claude"), 0o755)
				os.WriteFile(filepath.Join(a.home, ".claude", "settings.json"), []byte(`{"permissions": {"ask": ["Bash"]}}`), 0o644)
			}
			out, _ := a.claudeCode(t, crashingGuard(t, "tool,approve").argv)
			if !strings.Contains(out, "hookwire: hook guard.py failed") {
				t.Errorf("Claude Code did not show its user the hook's failure\n%s", out)
			}
			if tc.ask && !a.survived() {
				t.Errorf("Claude Code's rules ask before Bash runs, and Bash ran: the bridge approved the call for them\n%s", out)
			}
			if !tc.ask && a.survived() {
				t.Errorf("Claude Code's rules allow Bash, and it did not run: the bridge blocked the call\n%s", out)
			}
		})
	}
}
