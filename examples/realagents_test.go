package examples

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agents"
)

// The real agents, run here against a model API scripted on loopback: the
// model asks for one shell command, `rm -rf` of a scratch folder, and the
// tests look at what happened: whether the folder survived, what the
// model was told, what the agent printed. The agents are pinned in
// realagents/package.json and installed by `go tool mage deps`.

const claudeCodeVersion = "2.1.332"

// agentBin is an agent's program, installed by `go tool mage deps`; or,
// where HOOKWIRE_REAL_AGENTS names another node_modules folder (`go tool
// mage newestAgents` sets it to the newest releases), from there.
func agentBin(t *testing.T, name string) string {
	t.Helper()
	modules := cmp.Or(os.Getenv("HOOKWIRE_REAL_AGENTS"), filepath.Join("realagents", "node_modules"))
	bin, err := filepath.Abs(filepath.Join(modules, ".bin", name))
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
	// skillShell adds Claude Code's PreSkillShellCommand.
	skillShell bool
	// task is what the user asks (Claude Code's runs): unless set, to
	// remove the folder.
	task string
	// bridgeFlags are more flags of the bridge (Claude Code's runs).
	bridgeFlags []string
	// agentFlags are more flags of the agent's own (its permission rules).
	agentFlags []string
}

// stoppedSilently says whether the model, spoken to in chat completions,
// never read a tool's result: how a stop of the turn shows under an agent
// that prints nothing of it (silentStop).
func stoppedSilently(model *modelServer) bool {
	return !strings.Contains(model.sent(), `"role":"tool"`)
}

// agentTitled is what hookwire knows of the agent of that title.
func agentTitled(title string) *agents.Agent {
	i := slices.IndexFunc(agents.All, func(a *agents.Agent) bool { return a.Title == title })
	return agents.All[i]
}

func newAgentRun(t *testing.T) *agentRun {
	t.Helper()
	root := agentRoot(t)
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

// agentRoot is a folder of the test's for one agent run, removed at its
// end. A process of the agent's may still write there after the agent
// exited (OpenHands', seen in CI): removal is tried again for up to 5 s
// and a folder still busy then is logged, not a failure of the test,
// whose assertions were made on the run itself.
func agentRoot(t *testing.T) string {
	t.Helper()
	root, err := os.MkdirTemp("", "hwr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if err = os.RemoveAll(root); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("left %s: %v", root, err)
	})
	return root
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
// realAgents are in an order where the two that run one at a time
// (openCodeRuns) are apart: a table of tests run in this order, each
// waiting for a slot of go test's -parallel, does not fill the slots with
// runs that wait for each other.
var realAgents = []struct {
	name, version string
	run           func(a *agentRun, t *testing.T, hook []string, env ...string) (string, *modelServer)
	// quiet: run this way, the agent prints no systemMessage; a failure
	// shows as the reason the call was blocked for (model and user alike).
	quiet bool
	// blind: the agent reads nothing back after a tool, nor at the end of
	// a turn (Copilot CLI, as the bridge speaks it).
	blind bool
	// silentStop: run this way, the agent stops the turn where a hook
	// says so and prints nothing of why (Factory Droid's exec: its TUI
	// shows the reason); the stop shows as a model that never read the
	// call's result.
	silentStop bool
	// endsRun: the agent stops a call only by ending its whole run (Cline's
	// cancel), so no other call of the answer is asked or run; the message
	// says the run was ended.
	endsRun bool
}{
	{"Claude Code", claudeCodeVersion, (*agentRun).claudeCode, false, false, false, false},
	{"OpenCode", openCodeVersion, openCode.run, true, false, false, false},
	{"Gemini CLI", geminiCLIVersion, (*agentRun).geminiCLI, false, false, false, false},
	{"Codex CLI", codexCLIVersion, (*agentRun).codexCLI, true, false, false, false},
	{"Qwen Code", qwenCodeVersion, (*agentRun).qwenCode, true, false, false, false},
	{"GitHub Copilot CLI", copilotCLIVersion, (*agentRun).copilotCLI, true, true, false, false},
	{"Factory Droid", factoryDroidVersion, (*agentRun).factoryDroid, true, false, true, false},
	{"Goose", gooseVersion, (*agentRun).goose, true, true, false, false},
	{"Kilo Code CLI", kiloCodeVersion, kiloCode.run, true, false, false, false},
	{"Mistral Vibe", vibeVersion, (*agentRun).mistralVibe, true, false, false, false},
	// OpenHands reads nothing a hook answers after a tool, and at the end
	// of a turn a deny keeps it going: docs/agent-events.md says so.
	{"OpenHands", openHandsVersion, (*agentRun).openHands, true, true, false, false},
	// Kimi CLI reads nothing a hook answers after a tool, nor at the end
	// of a turn as the bridge speaks it: docs/agent-events.md says so.
	{"Kimi CLI", kimiCLIVersion, (*agentRun).kimiCLI, true, true, false, false},
	{"Cline", clineVersion, (*agentRun).cline, true, true, false, true},
}

func TestUnderTheRealAgentsEveryGuardOutcomeKeepsTheFolder(t *testing.T) {
	t.Parallel()
	sdk, _ := filepath.Abs("../sdk-python/src")
	dangerous, _ := filepath.Abs("lifecycle-dangerous-commands/python/dangerous_commands.py")
	shellGuardHook, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	// Each outcome under every agent in turn, so that the runs of one
	// agent are spread over the whole test (see realAgents).
	for _, tc := range []struct {
		name, told string // told: what the model or the user reads
		shown      string // what the agent shows its user, when it is a failure
		hook       []string
		env        []string
		calls      int  // the model's calls at once; 1 when zero
		stops      bool // the hook stops the turn (abort)
	}{
		{"deny", "the guard says no", "", pythonGuard(t, "deny"), nil, 0, false},
		{"abort", "the guard stops the turn", "", pythonGuard(t, "abort"), nil, 0, true},
		{"approval denied", "the approver says no", "", pythonGuard(t, "approval-deny"), nil, 0, false},
		{"crashing guard", "hook guard.py failed", "hookwire: hook guard.py failed", pythonGuard(t, "crash"), nil, 0, false},
		{"stalled guard", "hook guard.py failed", "hookwire: hook guard.py failed", pythonGuard(t, "stall"), nil, 0, false},
		// The agent asks the guard about its calls at once (Gemini CLI) or
		// one by one (Claude Code): each is denied, or blocked at its deadline.
		{"overloaded guard", "hook guard.py failed|the guard says no", "", pythonGuard(t, "slow"), nil, 4, false},
		{"guard that never starts", "the guard cannot find its rules", "hookwire: hook guard.py did not start", pythonGuard(t, "never-start"), nil, 0, false},
		{"the dangerous-commands example", "dangerous command blocked", "", []string{"python3", dangerous}, []string{"PYTHONPATH=" + sdk}, 0, true},
		// It checks the canonical kind only, never a tool's name.
		{"the shell-guard example", "dangerous command blocked", "", []string{"python3", shellGuardHook}, []string{"PYTHONPATH=" + sdk}, 0, false},
	} {
		for _, agent := range realAgents {
			t.Run(agent.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				a := newAgentRun(t)
				a.calls = max(tc.calls, 1)
				out, model := agent.run(a, t, tc.hook, tc.env...)
				if !a.survived() {
					t.Errorf("%s %s ran rm -rf: the folder is gone\n%s", agent.name, agent.version, out)
				}
				switch {
				case tc.stops && agent.silentStop:
					if !stoppedSilently(model) {
						t.Errorf("%s did not stop the turn at the call: the model read a tool's result\n%s", agent.name, out)
					}
				case !slices.ContainsFunc(strings.Split(tc.told, "|"), func(told string) bool { return strings.Contains(model.sent()+out, told) }):
					t.Errorf("neither the model nor the user was told %q\n%s", tc.told, out)
				}
				// The failure's message, with the session's log, is the
				// agent's to show: it never reaches the model.
				switch {
				case tc.shown == "":
				case agent.quiet:
					blocked := strings.Replace(tc.shown, "hookwire: ", "hookwire blocked the call: ", 1)
					if agent.endsRun {
						blocked = strings.Replace(tc.shown, "hookwire: ", "only by ending the run): ", 1)
					}
					if !strings.Contains(out, blocked) {
						t.Errorf("%s did not show its user %q\n%s", agent.name, blocked, out)
					}
				case !strings.Contains(out, tc.shown) || !strings.Contains(out, "its log: ") || strings.Contains(model.sent(), "its log: "):
					t.Errorf("%s did not show its user %q and the log, or told the model\n%s", agent.name, tc.shown, out)
				}
			})
		}
	}
	for name, guard := range map[string]func() shellGuard{"the shell-guard example, every spelling": theShellGuardExample, "the shell guard as a policy, every spelling": theShellGuardPolicy} {
		for _, agent := range realAgents {
			// Under an agent that ends its run at the first denial, a run each
			// spelling: TestUnderTheRealClineTheShellGuardHoldsEverySpellingARunEach.
			if !agent.endsRun {
				t.Run(agent.name+"/"+name, func(t *testing.T) {
					t.Parallel()
					underTheRealAgentTheShellGuardHoldsEverySpelling(t, agent.run, guard())
				})
			}
		}
	}
	for _, agent := range realAgents {
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
