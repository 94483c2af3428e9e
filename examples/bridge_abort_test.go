package examples

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
)

// An abort ends the turn wherever the bridge runs: the agent may still run
// the other tool calls of the model's answer, each an event of its own,
// and the session's server blocks them, in the agent's form, until the
// next prompt or the end of the turn.

// abortingGuard is a Python hook of the tool mode that aborts the turn
// (abort_turn, or hard_abort when the command says "hard") on a command
// that says "abort me". Any other it denies with a reason that names the
// command, so that a test sees it was asked, or, when otherwise is
// "continue", lets it run. With "together", it holds the first call until
// a second comes, then answers the second, then the first: an agent that
// asks about the calls of one answer at once, whose hook answers the call
// it lets go before the one it aborts.
func abortingGuard(t *testing.T, otherwise string) bridgeHook {
	t.Helper()
	script := filepath.Join(t.TempDir(), "guard.py")
	os.WriteFile(script, []byte(`import json, sys
otherwise = sys.argv[1]
held = []
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "hook.hello":
        result = {"ok": True, "modes": ["tool"]}
    elif msg["method"] == "hook.before_tool":
        command = str((msg["params"].get("arguments") or {}).get("command", ""))
        if otherwise == "together":
            held.append((msg, command))
            if len(held) < 2:
                continue
            for m, c in sorted(held, key=lambda h: "abort me" in h[1]):
                result = {"action": "abort_turn", "reason": "the guard stops the turn"} if "abort me" in c else {"action": "continue"}
                print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": result}), flush=True)
            held = []
            continue
        if "abort me" in command:
            action = "hard_abort" if "hard" in command else "abort_turn"
            result = {"action": action, "reason": "the guard stops the turn"}
        elif otherwise == "continue":
            result = {"action": "continue"}
        else:
            result = {"action": "deny_tool", "reason": "the guard was asked about: " + command}
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	return bridgeHook{argv: []string{"python3", script, otherwise}}
}

// shellEvent is the agent's event for command in its shell tool.
func shellEvent(t *testing.T, agent, command string) map[string]any {
	ev := rmEvent(t, agent)
	switch agent {
	case "copilot-cli":
		ev["toolArgs"] = `{"command":` + quoteJSON(command) + `}`
	case "cursor":
		ev["command"] = command
	case "windsurf":
		ev["tool_info"] = map[string]any{"command_line": command, "cwd": "/Users/yourname/project"}
	case "cline":
		ev["tool_call"].(map[string]any)["input"] = map[string]any{"commands": []any{command}}
	default:
		ev["tool_input"] = map[string]any{"command": command}
	}
	return ev
}

// turnMember is the member that names an event's turn, for the agents
// whose events carry one.
var turnMember = map[string]string{"codex-cli": "turn_id", "cursor": "generation_id", "qwen-code": "prompt_id", "windsurf": "execution_id"}

// inTurn is the event in the turn named, where the agent's events name
// their turn.
func inTurn(agent string, ev map[string]any, turn string) map[string]any {
	if key := turnMember[agent]; key != "" {
		ev[key] = turn
	}
	return ev
}

// newTurnEvents are the events of each agent after which a turn is over:
// the user's prompt, and the end of the turn.
var newTurnEvents = map[string][]string{
	"claude-code":   {"UserPromptSubmit", "Stop"},
	"cline":         {"UserPromptSubmit", "TaskComplete"},
	"gemini-cli":    {"BeforeAgent", "AfterAgent"},
	"codex-cli":     {"UserPromptSubmit", "Stop"},
	"copilot-cli":   {"userPromptSubmitted", "agentStop"},
	"cursor":        {"beforeSubmitPrompt", "stop"},
	"factory-droid": {"UserPromptSubmit", "Stop"},
	"goose":         {"UserPromptSubmit", "Stop"},
	"kimi-cli":      {"UserPromptSubmit", "Stop"},
	"mistral-vibe":  {"post_agent"}, // it has no prompt event
	"openhands":     {"UserPromptSubmit", "Stop"},
	"qwen-code":     {"UserPromptSubmit", "Stop"},
	"windsurf":      {"pre_user_prompt", "post_cascade_response"},
}

const abortedReason = "hook guard.py aborted this turn (the guard stops the turn)"

func TestAbortBlocksEveryLaterGuardedCallOfTheTurnInEveryAgentUntilTheNextPrompt(t *testing.T) {
	for _, agent := range allAgents {
		for _, next := range newTurnEvents[agent] {
			t.Run(agent+"/"+next, func(t *testing.T) {
				t.Parallel()
				b := newBridgeRun(t, agent, abortingGuard(t, "deny"))
				turn := func(ev map[string]any) map[string]any { return inTurn(agent, ev, "turn-1") }
				stdout, stderr, exit := b.call(t, turn(shellEvent(t, agent, "abort me")))
				if !blocked(agent, stdout, exit) || !strings.Contains(reads(agent, stdout, stderr), "the guard stops the turn") {
					t.Fatalf("the aborted call: exit %d, stdout %s, stderr %s: want it blocked with the guard's reason", exit, stdout, stderr)
				}
				stdout, stderr, exit = b.call(t, turn(shellEvent(t, agent, "echo after > after.txt")))
				if said := reads(agent, stdout, stderr); !blocked(agent, stdout, exit) || !strings.Contains(said, abortedReason) || strings.Contains(said, "was asked about") {
					t.Errorf("a later call of the aborted turn: exit %d, stdout %s, stderr %s: want it blocked by the bridge, naming the abort and the hook, without asking the hook", exit, stdout, stderr)
				}
				// Every event that guards a tool, in its own form of a block.
				for _, event := range guardEvents(agent) {
					ev := turn(sample(t, agent, event, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "echo after > after.txt"}}))
					if stdout, stderr, exit := b.call(t, ev); decides(stdout, exit) == "" || !strings.Contains(reads(agent, stdout, stderr), abortedReason) {
						t.Errorf("%s after the abort: exit %d, stdout %s, stderr %s: want a decision that blocks it, naming the abort", event, exit, stdout, stderr)
					}
				}
				b.call(t, turn(sample(t, agent, next, nil)))
				stdout, stderr, exit = b.call(t, turn(shellEvent(t, agent, "echo after > after.txt")))
				if !strings.Contains(reads(agent, stdout, stderr), "the guard was asked about: echo after") {
					t.Errorf("a call after %s: exit %d, stdout %s, stderr %s: want the hook asked again", next, exit, stdout, stderr)
				}
			})
		}
	}
}

// hard_abort ends the turn as abort_turn does.
func TestAbortByHardAbortBlocksTheLaterCallsOfTheTurnToo(t *testing.T) {
	b := newBridgeRun(t, "claude-code", abortingGuard(t, "deny"))
	b.call(t, shellEvent(t, "claude-code", "hard abort me"))
	stdout, _, exit := b.call(t, shellEvent(t, "claude-code", "echo after > after.txt"))
	if !blocked("claude-code", stdout, exit) || !strings.Contains(stdout, abortedReason) {
		t.Errorf("a later call after hard_abort: exit %d, stdout %s: want it blocked, naming the abort", exit, stdout)
	}
}

// Where the agent's events name their turn (Codex CLI, Cursor, Qwen Code,
// Windsurf),
// a call of another turn is asked of the hook, though no prompt event
// reached the bridge (the agent's settings may name none for the hook).
func TestAbortHoldsForItsOwnTurnWhereTheEventsNameTheirTurn(t *testing.T) {
	for agent := range turnMember {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			b := newBridgeRun(t, agent, abortingGuard(t, "deny"))
			b.call(t, inTurn(agent, shellEvent(t, agent, "abort me"), "turn-1"))
			stdout, stderr, exit := b.call(t, inTurn(agent, shellEvent(t, agent, "echo after > after.txt"), "turn-1"))
			if !blocked(agent, stdout, exit) || !strings.Contains(reads(agent, stdout, stderr), abortedReason) {
				t.Errorf("a later call of the same turn: exit %d, stdout %s: want it blocked, naming the abort", exit, stdout)
			}
			stdout, stderr, _ = b.call(t, inTurn(agent, shellEvent(t, agent, "echo after > after.txt"), "turn-2"))
			if !strings.Contains(reads(agent, stdout, stderr), "the guard was asked about: echo after") {
				t.Errorf("a call of the next turn: stdout %s: want the hook asked again", stdout)
			}
		})
	}
}

// An agent that asks about the calls of one answer at once (Gemini CLI)
// sends their events together: a call the hook lets go, answered before
// the one it aborts, waits for it, and is blocked.
func TestAbortBlocksACallAskedAtTheSameTimeThatTheHookLetGoFirst(t *testing.T) {
	for _, agent := range []string{"gemini-cli", "claude-code"} {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			b := newBridgeRun(t, agent, abortingGuard(t, "together"))
			b.call(t, sample(t, agent, newTurnEvents[agent][0], nil)) // the hook starts
			replies := make([]string, 2)
			var wg sync.WaitGroup
			for i, command := range []string{"abort me", "echo after > after.txt"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					stdout, stderr, exit := b.call(t, shellEvent(t, agent, command))
					replies[i] = fmt.Sprintf("exit %d, stdout %s, stderr %s", exit, stdout, stderr)
				}()
			}
			wg.Wait()
			if !strings.Contains(replies[0], "the guard stops the turn") {
				t.Errorf("the aborted call: %s: want it blocked with the guard's reason", replies[0])
			}
			if !strings.Contains(replies[1], abortedReason) {
				t.Errorf("the call asked with it: %s: want it blocked, naming the abort", replies[1])
			}
		})
	}
}

// Under the real agents, the model answers with two tool calls at once:
// the first the guard aborts, the second writes after.txt. The turn ends
// at the abort: the second call does not run. The agent's prompt and the
// end of its turn reach the bridge too, where the run names them, and do
// not end the abort early.
func TestUnderTheRealAgentsAnAbortStopsTheOtherCallsOfTheSameAnswer(t *testing.T) {
	for _, agent := range realAgents {
		t.Run(agent.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.command, a.siblings = "echo abort me > aborted.txt", []string{"echo after > after.txt"}
			a.prompt, a.stop = true, true
			// An agent that asks about the calls of one answer at once
			// (Gemini CLI) may send the other call's event before the
			// aborting one's, and the bridge blocks only the calls asked
			// together (docs/bridge.md says so): the guard answers the two
			// once both are asked, the abort first, as a slower guard would.
			guard := "continue"
			if i := slices.IndexFunc(agents.All, func(x *agents.Agent) bool { return x.Title == agent.name }); i >= 0 && agents.All[i].AsksAtOnce {
				guard = "together"
			}
			out, model := agent.run(a, t, abortingGuard(t, guard).argv)
			for _, file := range []string{"aborted.txt", "after.txt"} {
				if _, err := os.Stat(filepath.Join(a.project, file)); err == nil {
					t.Errorf("%s %s ran a call of the aborted turn: %s exists\n%s", agent.name, agent.version, file, out)
				}
			}
			switch {
			case agent.silentStop:
				if !stoppedSilently(model) {
					t.Errorf("%s %s: the turn went on after the abort: the model read a tool's result\n%s", agent.name, agent.version, out)
				}
			case !strings.Contains(model.sent()+out, "the guard stops the turn"):
				t.Errorf("%s %s: neither the model nor the user was told of the abort\n%s", agent.name, agent.version, out)
			}
		})
	}
}

// Where the agent's settings send the hook no prompt event, the bridge
// never learns that the turn is over: the blocked call says so, and how
// to tell it.
func TestAbortWithoutThePromptEventSaysHowToEndTheTurn(t *testing.T) {
	const hint = "Claude Code sends this hook no UserPromptSubmit, so its tool calls stay blocked until the session ends: name UserPromptSubmit for the hook in Claude Code's settings"
	for _, prompt := range []bool{false, true} {
		b := newBridgeRun(t, "claude-code", abortingGuard(t, "deny"))
		if prompt {
			b.call(t, sample(t, "claude-code", "UserPromptSubmit", nil))
		}
		b.call(t, shellEvent(t, "claude-code", "abort me"))
		stdout, _, _ := b.call(t, shellEvent(t, "claude-code", "echo after > after.txt"))
		if !strings.Contains(stdout, abortedReason) || strings.Contains(stdout, hint) == prompt {
			t.Errorf("with the prompt event sent: %v; the blocked call: %s: want the abort named, and the way to end it only without the prompt event", prompt, stdout)
		}
	}
}
