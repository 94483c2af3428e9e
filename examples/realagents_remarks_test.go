package examples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
)

// What the real agents make of a hook's remarks and changes after a tool,
// at the prompt and at the end of a turn.

// The secret-redactor example, as shipped, under each real agent: the
// model runs a command whose output holds a token (the command itself
// does not), and what the model reads back has it masked.
func TestUnderTheRealAgentsTheSecretRedactorMasksAToolsOutput(t *testing.T) {
	t.Parallel()
	sdk, _ := filepath.Abs("../sdk-python/src")
	shellGuard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	hooks := map[string][]string{
		"secret-redactor": {goHook(t, filepath.Join("secret-redactor", "go"))},
		// The same file as the rm -rf guard: it reads the output in the
		// one shape the bridge gives it, whatever the agent.
		"shell-guard": {"env", "PYTHONPATH=" + sdk, "python3", shellGuard},
	}
	// The same output followed by over 1 MiB: the masked output no longer
	// fits a line of the bridge's session, and is cut to fit, never let
	// through as it was.
	const long = "; head -c 1200000 /dev/zero | tr '\\0' x"
	for _, agent := range realAgents {
		if agent.blind {
			continue // nothing to mask with: docs/agent-events.md says so
		}
		for name, hook := range map[string][]string{"secret-redactor": hooks["secret-redactor"], "secret-redactor, over 1 MiB": hooks["secret-redactor"], "shell-guard": hooks["shell-guard"]} {
			t.Run(agent.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				a := newAgentRun(t)
				// GITHUB_TOKEN=hunter2-made-up-example, base64 in the command.
				a.command = "echo R0lUSFVCX1RPS0VOPWh1bnRlcjItbWFkZS11cC1leGFtcGxl | base64 -d"
				if strings.HasSuffix(name, "over 1 MiB") {
					a.command += long
				}
				a.afterTool = true
				out, model := agent.run(a, t, hook)
				sent := model.sent()
				// Over 1 MiB, an agent may cut the output itself before the
				// model reads it (Qwen Code keeps it in a file and says so):
				// the secret must never reach the model either way.
				masked := strings.Contains(sent, "GITHUB_TOKEN=***") || strings.HasSuffix(name, "over 1 MiB")
				if agentTitled(agent.name).Quirks.NewOutput == agents.OutputContextAfter {
					// The agent takes no new output (docs/agent-events.md
					// says so): the masked text reaches the model as context
					// after the output, which it still reads.
					if !masked {
						t.Errorf("%s %s: the model did not read the masked output after the output\n%s", agent.name, agent.version, out)
					}
					return
				}
				if strings.Contains(sent, "hunter2-made-up-example") || !masked {
					t.Errorf("%s %s: the model read the secret, or not the masked output\nthe model was sent:\n%s\nthe agent printed:\n%s", agent.name, agent.version, sent, out)
				}
			})
		}
	}
}

// remarkingHook is a hook in plain Python that declares mode, lets
// everything through, and adds remarks (context, message) to its answers
// of method.
func remarkingHook(t *testing.T, mode, method string, remarks map[string]string) []string {
	script := filepath.Join(t.TempDir(), "remarks.py")
	os.WriteFile(script, []byte(`import json, sys
mode, method, remarks = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = {"action": "continue"}
    if msg["method"] == "hook.hello":
        result = {"ok": True, "modes": [mode]}
    elif msg["method"] == method:
        result.update(remarks)
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	encoded, _ := json.Marshal(remarks)
	return []string{"python3", script, mode, method, string(encoded)}
}

// After a tool, a hook's context reaches the model with its next request,
// and its message the user, in every agent that reads something back after
// a tool (and prints messages, run this way).
func TestUnderTheRealAgentsAHooksContextReachesTheModelAndItsMessageTheUser(t *testing.T) {
	t.Parallel()
	for _, agent := range realAgents {
		if agent.blind {
			continue
		}
		t.Run(agent.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.command, a.afterTool = "echo listed", true
			out, model := agent.run(a, t, remarkingHook(t, "tool", "hook.after_tool",
				map[string]string{"context": "The secret word is PINEAPPLE.", "message": "remarks: the tool's output was checked"}))
			if !strings.Contains(model.sent(), "The secret word is PINEAPPLE.") {
				t.Errorf("%s %s: the model was not given the hook's context\n%s", agent.name, agent.version, out)
			}
			if !agent.quiet && !strings.Contains(out, "the tool's output was checked") {
				t.Errorf("%s %s: the user was not shown the hook's message\n%s", agent.name, agent.version, out)
			}
		})
	}
}

// At the end of a turn (Claude Code's Stop, Gemini CLI's AfterAgent),
// context on the last answer keeps the turn going: the agent asks the model
// once more, with the context, and then stops, though the hook asks again,
// and the user is told why.
func TestUnderTheRealAgentsContextOnTheLastAnswerKeepsTheTurnGoingOnce(t *testing.T) {
	t.Parallel()
	for _, agent := range realAgents {
		if agent.blind || !agentTitled(agent.name).Calls(agents.AfterLLM) {
			continue // no last answer to remark on: docs/agent-events.md says so
		}
		t.Run(agent.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			a.command, a.stop = "echo listed", true
			out, model := agent.run(a, t, remarkingHook(t, "llm", "hook.after_llm", map[string]string{"context": "Check your work once more before you stop."}))
			asked := 0
			for _, r := range model.requests {
				if strings.Contains(r, "Check your work once more before you stop.") {
					asked++
				}
			}
			if asked != 1 {
				t.Errorf("%s %s: %d requests to the model had the hook's context, want one\n%s", agent.name, agent.version, asked, out)
			}
			if !agent.quiet && !strings.Contains(out, "the turn ends here, so that no hook keeps it going forever") {
				t.Errorf("%s %s: the user was not told why the turn ended\n%s", agent.name, agent.version, out)
			}
		})
	}
}
