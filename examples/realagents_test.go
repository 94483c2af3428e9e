package examples

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The real agents, run here against a model API scripted on loopback: the
// model asks for one shell command, `rm -rf` of a scratch folder, and the
// tests look at what happened: whether the folder survived, what the
// model was told, what the agent printed. The agents are pinned in
// realagents/package.json and installed by `go tool mage deps`.

const claudeCodeVersion = "2.1.331"

// agentBin is an agent's program, installed by `go tool mage deps`.
func agentBin(t *testing.T, name string) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("realagents", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is not installed: run `go tool mage deps` (it installs the pinned agents of examples/realagents)", name)
	}
	return bin
}

// modelServer is a scripted model API: what it was sent, by request.
type modelServer struct {
	url      string
	mu       sync.Mutex
	requests []string
}

func (m *modelServer) sent() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.requests, "\n")
}

// serveModel listens on loopback and answers each request with answer,
// given the request's body; the server stops with the test.
func serveModel(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, body []byte)) *modelServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &modelServer{url: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		m.requests = append(m.requests, r.Method+" "+r.URL.Path+" "+string(body))
		m.mu.Unlock()
		answer(w, r, body)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

// anthropic answers the Messages API as Claude Code calls it: a request
// that offers the Bash tool and has no tool result yet gets a tool_use of
// Bash for each of commands, in one answer; any other, a short text.
func anthropic(commands []string) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"input_tokens": 10}`)
			return
		}
		var req struct {
			Stream bool `json:"stream"`
			Tools  []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		json.Unmarshal(body, &req)
		offersBash := false
		for _, tool := range req.Tools {
			offersBash = offersBash || tool.Name == "Bash"
		}
		useTool := offersBash && !bytes.Contains(body, []byte(`"tool_result"`))
		// The blocks of the answer, each with its start and its delta.
		type block struct{ start, delta map[string]any }
		blocks := []block{{map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "Done."}}}
		content := []any{map[string]any{"type": "text", "text": "Done."}}
		stop := "end_turn"
		if useTool {
			blocks, content, stop = nil, nil, "tool_use"
			for i, command := range commands {
				input := map[string]any{"command": command, "description": "Remove the scratch folder"}
				partial, _ := json.Marshal(input)
				id := fmt.Sprintf("toolu_%02d", i+1)
				blocks = append(blocks, block{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{}},
					map[string]any{"type": "input_json_delta", "partial_json": string(partial)}})
				content = append(content, map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": input})
			}
		}
		message := map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-scripted",
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}
		if !req.Stream {
			message["content"], message["stop_reason"] = content, stop
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(message)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(name string, data map[string]any) {
			data["type"] = name
			line, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, line)
		}
		event("message_start", map[string]any{"message": message})
		for i, b := range blocks {
			event("content_block_start", map[string]any{"index": i, "content_block": b.start})
			event("content_block_delta", map[string]any{"index": i, "delta": b.delta})
			event("content_block_stop", map[string]any{"index": i})
		}
		event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		event("message_stop", map[string]any{})
	}
}

// agentRun is one non-interactive run of an agent in a scratch home and
// project, with a folder the model's command would delete.
type agentRun struct {
	home, project, victim string
	// command is the shell command the model asks for: rm -rf of the
	// folder, unless a test says otherwise.
	command string
	// calls is how many calls of the command the model makes at once.
	calls int
	// siblings are more commands the model asks for in the same answer,
	// after the calls of command.
	siblings []string
	// afterTool adds the event after a tool ran (PostToolUse, AfterTool)
	// to the events the hook is named for.
	afterTool bool
	// prompt adds Claude Code's UserPromptSubmit.
	prompt bool
	// stop adds the end of a turn: Claude Code's Stop, Gemini CLI's
	// AfterModel and AfterAgent.
	stop bool
	// bridgeFlags are more flags of the bridge (Claude Code's runs).
	bridgeFlags []string
	// agentFlags are more flags of the agent's own (its permission rules).
	agentFlags []string
}

func newAgentRun(t *testing.T) *agentRun {
	t.Helper()
	root := t.TempDir()
	a := &agentRun{home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), calls: 1}
	a.victim = filepath.Join(a.project, "precious")
	a.command = "rm -rf " + a.victim
	for _, dir := range []string{a.home, a.victim} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(a.victim, "data.txt"), []byte("keep me\n"), 0o644)
	return a
}

// answer is the commands of the model's one answer with tool calls:
// calls calls of command, then the siblings.
func (a *agentRun) answer() []string {
	return append(slices.Repeat([]string{a.command}, a.calls), a.siblings...)
}

func (a *agentRun) survived() bool {
	_, err := os.Stat(filepath.Join(a.victim, "data.txt"))
	return err == nil
}

// shellQuote quotes an argument for the sh -c the agents run a hook with.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// claudeCode runs Claude Code with the hook command for PreToolUse (and
// the other events of a session) and returns what it printed.
func (a *agentRun) claudeCode(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, anthropic(a.answer()))
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
	settings := map[string]any{"hooks": events}
	data, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(a.project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(a.project, ".claude", "settings.json"), data, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentBin(t, "claude"), slices.Concat([]string{"-p", "Remove the precious folder.", "--allowedTools", "Bash",
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

// pythonGuard is a hook in plain Python that decides every tool call as
// the behaviour says.
func pythonGuard(t *testing.T, behaviour string) []string {
	script := filepath.Join(t.TempDir(), "guard.py")
	os.WriteFile(script, []byte(`import json, os, sys, time
behaviour = sys.argv[1]
if behaviour == "never-start":
    print("the guard cannot find its rules", file=sys.stderr)
    sys.exit(3)
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg["method"]
    if method == "hook.hello":
        result = {"ok": True, "modes": ["approve"] if behaviour in ("approval-deny", "abstain") else ["tool"]}
    elif behaviour == "crash":
        os._exit(1)
    elif behaviour == "stall":
        time.sleep(3600)
    elif behaviour == "slow":  # one call at a time: the later ones of a burst miss their deadline
        time.sleep(1.5)
        result = {"action": "deny_tool", "reason": "the guard says no"}
    elif behaviour == "deny":
        result = {"action": "deny_tool", "reason": "the guard says no"}
    elif behaviour == "abort":
        result = {"action": "abort_turn", "reason": "the guard stops the turn"}
    elif behaviour == "approval-deny":
        result = {"approved": False, "reason": "the approver says no"}
    elif behaviour == "abstain":
        result = {"approved": False, "abstain": True}
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644)
	return []string{"python3", script, behaviour}
}

// realAgents are the agents the tests run, each with how to run it.
var realAgents = []struct {
	name, version string
	run           func(a *agentRun, t *testing.T, hook []string, env ...string) (string, *modelServer)
	// quiet: run this way, the agent prints no systemMessage; a failure
	// shows as the reason the call was blocked for (model and user alike).
	quiet bool
	// blind: the agent reads nothing back after a tool, nor at the end of
	// a turn (Copilot CLI, as the bridge speaks it).
	blind bool
}{
	{"Claude Code", claudeCodeVersion, (*agentRun).claudeCode, false, false},
	{"Gemini CLI", geminiCLIVersion, (*agentRun).geminiCLI, false, false},
	{"Codex CLI", codexCLIVersion, (*agentRun).codexCLI, true, false},
	{"Qwen Code", qwenCodeVersion, (*agentRun).qwenCode, true, false},
	{"GitHub Copilot CLI", copilotCLIVersion, (*agentRun).copilotCLI, true, true},
	// OpenHands reads nothing a hook answers after a tool, and at the end
	// of a turn a deny keeps it going: docs/agent-events.md says so.
	{"OpenHands", openHandsVersion, (*agentRun).openHands, true, true},
}

func TestUnderTheRealAgentsEveryGuardOutcomeKeepsTheFolder(t *testing.T) {
	sdk, _ := filepath.Abs("../sdk-python/src")
	dangerous, _ := filepath.Abs("lifecycle-dangerous-commands/python/dangerous_commands.py")
	shellGuard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	for _, agent := range realAgents {
		for _, tc := range []struct {
			name, told string // told: what the model or the user reads
			shown      string // what the agent shows its user, when it is a failure
			hook       []string
			env        []string
			calls      int // the model's calls at once; 1 when zero
		}{
			{"deny", "the guard says no", "", pythonGuard(t, "deny"), nil, 0},
			{"abort", "the guard stops the turn", "", pythonGuard(t, "abort"), nil, 0},
			{"approval denied", "the approver says no", "", pythonGuard(t, "approval-deny"), nil, 0},
			{"crashing guard", "hook guard.py failed", "hookwire: hook guard.py failed", pythonGuard(t, "crash"), nil, 0},
			{"stalled guard", "hook guard.py failed", "hookwire: hook guard.py failed", pythonGuard(t, "stall"), nil, 0},
			// The agent asks the guard about its calls at once (Gemini CLI) or
			// one by one (Claude Code): each is denied, or blocked at its deadline.
			{"overloaded guard", "hook guard.py failed|the guard says no", "", pythonGuard(t, "slow"), nil, 4},
			{"guard that never starts", "the guard cannot find its rules", "hookwire: hook guard.py did not start", pythonGuard(t, "never-start"), nil, 0},
			{"the dangerous-commands example", "dangerous command blocked", "", []string{"python3", dangerous}, []string{"PYTHONPATH=" + sdk}, 0},
			// It checks the canonical kind only, never a tool's name.
			{"the shell-guard example", "dangerous command blocked", "", []string{"python3", shellGuard}, []string{"PYTHONPATH=" + sdk}, 0},
		} {
			t.Run(agent.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				a := newAgentRun(t)
				a.calls = max(tc.calls, 1)
				out, model := agent.run(a, t, tc.hook, tc.env...)
				if !a.survived() {
					t.Errorf("%s %s ran rm -rf: the folder is gone\n%s", agent.name, agent.version, out)
				}
				if !slices.ContainsFunc(strings.Split(tc.told, "|"), func(told string) bool { return strings.Contains(model.sent()+out, told) }) {
					t.Errorf("neither the model nor the user was told %q\n%s", tc.told, out)
				}
				// The failure's message, with the session's log, is the
				// agent's to show: it never reaches the model.
				switch {
				case tc.shown == "":
				case agent.quiet:
					if blocked := strings.Replace(tc.shown, "hookwire: ", "hookwire blocked the call: ", 1); !strings.Contains(out, blocked) {
						t.Errorf("%s did not show its user %q\n%s", agent.name, blocked, out)
					}
				case !strings.Contains(out, tc.shown) || !strings.Contains(out, "its log: ") || strings.Contains(model.sent(), "its log: "):
					t.Errorf("%s did not show its user %q and the log, or told the model\n%s", agent.name, tc.shown, out)
				}
			})
		}
		t.Run(agent.name+"/the shell-guard example, every spelling", func(t *testing.T) {
			t.Parallel()
			underTheRealAgentTheShellGuardHoldsEverySpelling(t, agent.run, theShellGuardExample())
		})
		t.Run(agent.name+"/the shell guard as a policy, every spelling", func(t *testing.T) {
			t.Parallel()
			underTheRealAgentTheShellGuardHoldsEverySpelling(t, agent.run, theShellGuardPolicy())
		})
		t.Run(agent.name+"/control: a guard that lets it through", func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			out, _ := agent.run(a, t, pythonGuard(t, "continue"))
			if a.survived() {
				t.Errorf("with a guard that lets the call through, the folder should be gone: the scenario does not run the tool\n%s", out)
			}
		})
	}
}

func TestUnderTheRealClaudeCodeAnApproverThatAbstainsLeavesItToItsOwnRules(t *testing.T) {
	a := newAgentRun(t)
	out, _ := a.claudeCode(t, pythonGuard(t, "abstain"))
	if a.survived() {
		t.Errorf("Bash is allowed by --allowedTools and no approver had an opinion: the tool should have run\n%s", out)
	}
}

// The secret-redactor example, as shipped, under each real agent: the
// model runs a command whose output holds a token (the command itself
// does not), and what the model reads back has it masked.
func TestUnderTheRealAgentsTheSecretRedactorMasksAToolsOutput(t *testing.T) {
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
				if strings.Contains(sent, "hunter2-made-up-example") || !masked {
					t.Errorf("%s %s: the model read the secret, or not the masked output\nthe model was sent:\n%s\nthe agent printed:\n%s", agent.name, agent.version, sent, out)
				}
			})
		}
	}
}

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
	for _, agent := range realAgents {
		if agent.blind {
			continue
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
