package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/bridge"
)

// The contract tests of `hookwire bridge`: each agent's sample events, from
// its hooks document (core/bridge/testdata), go through the bridge to the
// reference hook of each SDK (schema/testdata/exchanges/README.md says how
// it decides), and the agent reads exactly the stdout and exit code below.

// bridgeHook is a hook command for the bridge, with the environment it needs.
type bridgeHook struct {
	argv []string
	env  []string
}

func referenceHooks(t *testing.T) map[string]bridgeHook {
	t.Helper()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	goRef := filepath.Join(tmp, "reference-go")
	if _, err := os.Stat(goRef); err != nil {
		build := exec.Command("go", "build", "-o", goRef, ".")
		build.Dir = filepath.Join("..", "sdk-go", "testdata", "reference")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building the Go reference hook: %v\n%s", err, out)
		}
	}
	return map[string]bridgeHook{
		"go":         {argv: []string{goRef}},
		"python":     {argv: []string{"python3", abs("../sdk-python/tests/hooks/reference.py")}, env: []string{"PYTHONPATH=" + abs("../sdk-python/src")}},
		"typescript": {argv: []string{"node", abs("../sdk-node/dist/test/fixtures/reference-hook.js")}},
	}
}

// bridge runs one bridge invocation, as the agent does, and returns what
// the agent reads.
type bridgeRun struct {
	dir, agent, mark string
	hook             bridgeHook
	flags            []string
}

func newBridgeRun(t *testing.T, agent string, hook bridgeHook, flags ...string) *bridgeRun {
	dir, err := os.MkdirTemp("", "hwb")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o700)
	b := &bridgeRun{dir: dir, agent: agent, hook: hook, flags: flags, mark: fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())}
	t.Cleanup(func() {
		// Whatever the test did, nothing it started may outlive it.
		for _, pid := range b.processes() {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
		os.RemoveAll(dir)
	})
	return b
}

// withFlags is the run with other flags: another entry of the same hook,
// in the same folder and session, whose processes the run's cleanup ends.
func (b *bridgeRun) withFlags(flags ...string) *bridgeRun {
	other := *b
	other.flags = flags
	return &other
}

func (b *bridgeRun) call(t *testing.T, event map[string]any) (stdout, stderr string, exit int) {
	t.Helper()
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false) // as the agents write it
	enc.Encode(event)
	args := append([]string{"--dir", b.dir}, b.flags...)
	args = append(append(args, b.agent, "--"), b.hook.argv...)
	cmd := exec.Command(bridgeCLI, args...)
	cmd.Env = append(append(os.Environ(), "HOOKWIRE_BRIDGE_TEST="+b.mark), b.hook.env...)
	cmd.Stdin = &data
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exitErr, ok := err.(*exec.ExitError); ok {
		exit = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out.String()), errOut.String(), exit
}

// processes are those this run started: they carry its mark in their
// environment.
func (b *bridgeRun) processes() []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, []byte("HOOKWIRE_BRIDGE_TEST="+b.mark+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// noneLeft waits for every process of the run to be gone.
func (b *bridgeRun) noneLeft(t *testing.T, why string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(b.processes()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: processes left: %v", why, b.processes())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func sample(t *testing.T, agent, event string, changes map[string]any) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "core", "bridge", "testdata", agent, event+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	if agent == "cline" { // its tool's call and result are members of tool_call and tool_result
		changes = clineChanges(ev, changes)
	}
	for k, v := range changes {
		if k == "model" { // the model of a Gemini CLI request
			req := ev["llm_request"].(map[string]any)
			req["model"] = v
			continue
		}
		ev[k] = v
	}
	return ev
}

// readsAsWritten says whether the agent reads what the contract says: the
// same JSON on stdout, or, where it reads no JSON, that text on stderr
// (the lines the bridge says once at a session's start left out).
func readsAsWritten(t *testing.T, agent, want, stdout, stderr string) bool {
	t.Helper()
	if !byExitCode[agent] {
		return sameJSON(t, want, stdout)
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(line, "hookwire bridge: ") {
			lines = append(lines, line)
		}
	}
	return stdout == "" && strings.Join(lines, "\n") == want
}

func sameJSON(t *testing.T, want, got string) bool {
	t.Helper()
	if want == "" || got == "" {
		return want == got
	}
	var w, g any
	if json.Unmarshal([]byte(want), &w) != nil {
		t.Fatalf("bad expectation %s", want)
	}
	if json.Unmarshal([]byte(got), &g) != nil {
		return false
	}
	wb, _ := json.Marshal(w)
	gb, _ := json.Marshal(g)
	return bytes.Equal(wb, gb)
}

type contract struct {
	event   string
	changes map[string]any
	stdout  string
	exit    int
}

// aborts says whether the reference hook aborts the turn at the contract's
// event: it decides by the tool's name (Windsurf's MCP tool's, in its
// tool_info), or the model's.
func (c contract) aborts() bool {
	info, _ := c.changes["tool_info"].(map[string]any)
	for _, name := range []any{c.changes["tool_name"], c.changes["toolName"], c.changes["model"], info["mcp_tool_name"]} {
		if name == "abort_turn" || name == "hard_abort" {
			return true
		}
	}
	return false
}

func tool(name string) map[string]any {
	return map[string]any{"tool_name": name, "tool_input": map[string]any{"text": "hi"}}
}

// withOutput is a PostToolUse event's changes with the tool's output.
func withOutput(changes map[string]any, output any) map[string]any {
	changes["tool_response"] = output
	return changes
}

var claudeContracts = []contract{
	{"SessionStart", nil, "", 0},
	{"UserPromptSubmit", nil, "", 0},
	{"PreToolUse", tool("deny_tool"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	{"PreToolUse", tool("respond"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference: hi"}}`, 0},
	{"PreToolUse", tool("modify"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"reference"}}}`, 0},
	{"PreToolUse", tool("approve"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, 0},
	{"PreToolUse", tool("abstain"), "", 0}, // no opinion: Claude Code's own rules apply
	{"PreToolUse", nil, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	{"PreToolUse", tool("abort_turn"), `{"continue":false,"stopReason":"reference","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	{"PreToolUse", tool("hard_abort"), `{"continue":false,"stopReason":"reference","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	// A skill's inline shell command: before_tool alone; a rewrite is denied,
	// since Claude Code never runs a skill's command with new arguments.
	{"PreSkillShellCommand", tool("deny_tool"), `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	{"PreSkillShellCommand", tool("modify"), `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"Claude Code cannot run a rewritten skill command: a hook rewrote it to {\"text\":\"reference\"}"}}`, 0},
	{"PreSkillShellCommand", tool("ls"), "", 0},
	{"PreSkillShellCommand", tool("abort_turn"), `{"continue":false,"stopReason":"reference","hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	{"PermissionRequest", tool("approve"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, 0},
	{"PermissionRequest", nil, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"reference"}}}`, 0},
	{"PermissionRequest", tool("abstain"), "", 0},
	// The new text goes back where it was read from, in the tool's own shape.
	{"PostToolUse", withOutput(tool("modify"), map[string]any{"stdout": "hi", "stderr": "", "interrupted": false, "isImage": false}),
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"reference","stderr":"","interrupted":false,"isImage":false}}}`, 0},
	{"PostToolUse", withOutput(tool("modify"), "hi"), `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"reference"}}`, 0},
	{"PostToolUse", withOutput(tool("modify"), []any{map[string]any{"type": "text", "text": "hi"}}),
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":[{"type":"text","text":"reference"}]}}`, 0},
	{"PostToolUse", nil, "", 0},
	{"PostToolUse", tool("abort_turn"), `{"continue":false,"stopReason":"reference"}`, 0},
	{"PostToolUseFailure", tool("modify"), `{"decision":"block","reason":"reference"}`, 0},
	{"Notification", nil, "", 0},
	{"PreCompact", nil, "", 0},
	{"SubagentStop", nil, "", 0},
	{"Stop", nil, "", 0},
	// Observed: observers get the event, the agent gets nothing back.
	{"PostToolBatch", nil, "", 0},
	{"UserPromptExpansion", nil, "", 0},
	{"StopFailure", nil, "", 0},
	{"SubagentStart", nil, "", 0},
	{"Setup", nil, "", 0},
	{"MessageDisplay", nil, "", 0},
	{"PostCompact", nil, "", 0},
	{"PreModelSwitch", nil, "", 0},
	{"PostModelSwitch", nil, "", 0},
	{"PermissionDenied", nil, "", 0},
	{"TeammateIdle", nil, "", 0},
	{"TaskCreated", nil, "", 0},
	{"TaskCompleted", nil, "", 0},
	{"ElicitationResult", nil, "", 0},
	{"ConfigChange", nil, "", 0},
	{"WorktreeRemove", nil, "", 0},
	{"InstructionsLoaded", nil, "", 0},
	{"CwdChanged", nil, "", 0},
	{"FileChanged", nil, "", 0},
	{"DirectoryAdded", nil, "", 0},
	// Not mapped: nothing, as without a hook.
	{"Elicitation", nil, "", 0},
	{"WorktreeCreate", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}

var geminiContracts = []contract{
	{"SessionStart", nil, `{}`, 0},
	{"BeforeAgent", nil, `{}`, 0},
	{"BeforeModel", map[string]any{"model": "continue"}, `{}`, 0},
	{"BeforeModel", map[string]any{"model": "modify"}, `{"hookSpecificOutput":{"llm_request":{"model":"modify","messages":[{"role":"user","content":"List the files here"},{"role":"model","content":"Sure."},{"role":"system","content":"reference"}],"config":{"temperature":0.7}}}}`, 0},
	{"BeforeModel", map[string]any{"model": "abort_turn"}, `{"decision":"deny","reason":"reference"}`, 0},
	{"BeforeModel", map[string]any{"model": "hard_abort"}, `{"continue":false,"stopReason":"reference"}`, 0},
	{"BeforeToolSelection", nil, `{}`, 0},
	{"AfterModel", map[string]any{"model": "modify"}, `{"hookSpecificOutput":{"llm_response":{"candidates":[{"content":{"role":"model","parts":["reference"]},"finishReason":"STOP"}],"usageMetadata":{"totalTokenCount":42}}}}`, 0},
	{"AfterModel", map[string]any{"model": "continue"}, `{}`, 0},
	{"BeforeTool", tool("deny_tool"), `{"decision":"deny","reason":"reference"}`, 0},
	{"BeforeTool", tool("respond"), `{"decision":"deny","reason":"reference: hi"}`, 0},
	{"BeforeTool", tool("modify"), `{"decision":"allow","hookSpecificOutput":{"tool_input":{"text":"reference"}}}`, 0},
	{"BeforeTool", tool("approve"), `{"decision":"allow"}`, 0},
	{"BeforeTool", tool("abstain"), `{}`, 0},
	{"BeforeTool", nil, `{"decision":"deny","reason":"reference"}`, 0},
	{"BeforeTool", tool("abort_turn"), `{"decision":"deny","reason":"reference","continue":false,"stopReason":"reference"}`, 0},
	// Gemini CLI 0.61.0 reads no new output: a blocked result is read in its place.
	{"AfterTool", tool("modify"), `{"decision":"deny","reason":"reference","systemMessage":"hookwire: Gemini CLI takes no new tool output from a hook: a hook's change reaches the model as a blocked result (\"Tool result blocked: \" and the new text, an error); said once a session"}`, 0},
	{"AfterTool", tool("modify"), `{"decision":"deny","reason":"reference"}`, 0}, // told once a session
	{"AfterTool", nil, `{}`, 0},
	{"AfterTool", tool("hard_abort"), `{"continue":false,"stopReason":"reference"}`, 0},
	{"Notification", nil, `{}`, 0},
	{"PreCompress", nil, `{}`, 0},
	{"AfterAgent", nil, `{}`, 0},
	{"SessionEnd", nil, `{}`, 0},
}

func TestEveryAgentEventGivesTheDocumentedAnswerForEachDecisionOfEverySDK(t *testing.T) {
	t.Parallel()
	hooks := referenceHooks(t)
	for agent, contracts := range map[string][]contract{"claude-code": claudeContracts, "gemini-cli": geminiContracts,
		"codex-cli": codexContracts, "copilot-cli": copilotContracts, "cursor": cursorContracts, "factory-droid": factoryContracts, "goose": gooseContracts, "cline": clineContracts, "kimi-cli": kimiContracts, "mistral-vibe": vibeContracts, "openhands": openHandsContracts, "qwen-code": qwenContracts,
		"windsurf": windsurfContracts} {
		for lang, hook := range hooks {
			t.Run(agent+"/"+lang, func(t *testing.T) {
				t.Parallel()
				b := newBridgeRun(t, agent, hook, untilIdle(agent)...)
				for _, c := range contracts {
					stdout, stderr, exit := b.call(t, sample(t, agent, c.event, c.changes))
					if exit != c.exit || !readsAsWritten(t, agent, c.stdout, stdout, stderr) {
						t.Errorf("%s %v:\n got exit %d, stdout %s\nwant exit %d, stdout %s\nstderr: %s", c.event, c.changes, exit, stdout, c.exit, c.stdout, stderr)
					}
					if c.aborts() {
						// The turn is over: the bridge blocks the rest of it
						// (bridge_abort_test.go), and the next contract is
						// asked of the hook in a turn of its own.
						b.call(t, sample(t, agent, newTurnEvents[agent][0], nil))
					}
				}
				b.noneLeft(t, "after the session's end")
			})
		}
	}
}

// untilIdle are the flags that end a session of the agent soon after its
// last event, for an agent that sends no event at a session's end
// (Windsurf): its server stops after a short --idle instead.
func untilIdle(agent string) []string {
	for _, step := range bridge.Agents[agent].Events {
		if step.EndsSession {
			return nil
		}
	}
	return []string{"--idle", "3s"}
}

// The session's first event says, once, what the agent cannot do.
func TestTheFirstEventSaysWhatTheAgentCannotExpress(t *testing.T) {
	b := newBridgeRun(t, "claude-code", referenceHooks(t)["go"])
	_, first, _ := b.call(t, sample(t, "claude-code", "SessionStart", nil))
	_, second, _ := b.call(t, sample(t, "claude-code", "UserPromptSubmit", nil))
	if !strings.Contains(first, "before_llm is called once per prompt (UserPromptSubmit)") {
		t.Errorf("the first event's stderr does not say what Claude Code cannot do:\n%s", first)
	}
	if second != "" {
		t.Errorf("a later event repeats it:\n%s", second)
	}
	b.call(t, sample(t, "claude-code", "SessionEnd", nil))
	b.noneLeft(t, "after SessionEnd")
}

// The rate limiter keeps its count between the events of a session, each
// a bridge invocation of its own, and starts from zero in a new session.
func TestTheRateLimiterDeniesTheThirdCallOfASessionAcrossInvocations(t *testing.T) {
	hooks, _ := config(t, filepath.Join("rate-limiter", "python", "hooks.json"))
	h := bridgeHook{argv: []string{"python3", filepath.Join(hooks[0].Dir, "rate_limiter.py")}, env: []string{
		"RATE_LIMIT_CALLS=2", "PYTHONPATH=" + filepath.Join(hooks[0].Dir, "../../../sdk-python/src"),
	}}
	b := newBridgeRun(t, "claude-code", h)
	call := func(session string) (string, int) {
		stdout, _, exit := b.call(t, sample(t, "claude-code", "PreToolUse", map[string]any{"session_id": session}))
		return stdout, exit
	}
	for i := 1; i <= 2; i++ {
		if out, exit := call("alice"); out != "" || exit != 0 {
			t.Fatalf("call %d of the session was not let through: exit %d, %s", i, exit, out)
		}
	}
	if out, _ := call("alice"); !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "rate limit") {
		t.Errorf("the third call of the session was not denied: %s", out)
	}
	if out, exit := call("bob"); out != "" || exit != 0 {
		t.Errorf("a new session did not start at zero: exit %d, %s", exit, out)
	}
	for _, s := range []string{"alice", "bob"} {
		b.call(t, sample(t, "claude-code", "SessionEnd", map[string]any{"session_id": s}))
	}
	b.noneLeft(t, "after both sessions ended")
}

func TestAServerStopsWithItsHookAfterTheIdleTime(t *testing.T) {
	// Idle long enough that a loaded machine still finds them running
	// after the event; short enough for a test.
	b := newBridgeRun(t, "gemini-cli", referenceHooks(t)["python"], "--idle", "2s")
	if _, _, exit := b.call(t, sample(t, "gemini-cli", "SessionStart", nil)); exit != 0 {
		t.Fatalf("exit %d", exit)
	}
	if len(b.processes()) == 0 {
		t.Fatal("no server and hook ran for the session")
	}
	b.noneLeft(t, "after the idle time")
}

// A hook that cannot be asked blocks what it guards, with the reason, and
// lets the other events go on with a warning; nothing is left behind.
func TestAHookThatDoesNotStartBlocksToolCallsAndLetsTheRestGoOn(t *testing.T) {
	h := bridgeHook{argv: []string{"python3", "-c", "import sys; print('cannot find my settings', file=sys.stderr); sys.exit(3)"}}
	b := newBridgeRun(t, "claude-code", h)
	stdout, stderr, exit := b.call(t, sample(t, "claude-code", "PreToolUse", nil))
	if message := toUser(stdout, stderr); !blocked("claude-code", stdout, exit) || !strings.Contains(message, "blocked") || !strings.Contains(message, "cannot find my settings") {
		t.Errorf("PreToolUse: exit %d, stdout %q, stderr %q; want the call blocked and the hook's last words", exit, stdout, stderr)
	}
	b.noneLeft(t, "after the hook failed to start")
	stdout, stderr, exit = b.call(t, sample(t, "claude-code", "UserPromptSubmit", nil))
	if exit != 0 || !strings.Contains(toUser(stdout, stderr), "cannot find my settings") {
		t.Errorf("UserPromptSubmit: exit %d, stdout %q, stderr %q; want it to go on, with a message to the user", exit, stdout, stderr)
	}
	b.noneLeft(t, "after the hook failed to start again")
}

// A hook that crashes mid-call fails that call by its stage's policy and
// is restarted for the next event; at the session's end nothing is left.
func TestAHookThatCrashesIsRestartedAndNothingIsLeftAtTheEnd(t *testing.T) {
	script := filepath.Join(t.TempDir(), "crashy.py")
	os.WriteFile(script, []byte(`import json, os, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "hook.hello":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True, "modes": ["approve"]}}), flush=True)
    elif msg.get("method") == "hook.approve_tool":
        if msg["params"]["tool"] == "crash":
            os._exit(1)
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"approved": True}}), flush=True)
`), 0o644)
	b := newBridgeRun(t, "claude-code", bridgeHook{argv: []string{"python3", script}})
	stdout, _, _ := b.call(t, sample(t, "claude-code", "PreToolUse", tool("crash")))
	if !strings.Contains(stdout, `"permissionDecision":"deny"`) {
		t.Errorf("an approver that crashed did not deny: %s", stdout)
	}
	stdout, _, _ = b.call(t, sample(t, "claude-code", "PreToolUse", tool("ls")))
	if !strings.Contains(stdout, `"permissionDecision":"allow"`) {
		t.Errorf("the restarted hook did not approve: %s", stdout)
	}
	b.call(t, sample(t, "claude-code", "SessionEnd", nil))
	b.noneLeft(t, "after SessionEnd")
}

func TestAnEventThatIsNotJSONIsRefusedAtOnceByBothFormsOfTheBridge(t *testing.T) {
	for _, argv := range [][]string{{bridgeCLI}, {cli, "bridge"}} {
		cmd := exec.Command(argv[0], append(argv[1:], "claude-code", "--", "true")...)
		cmd.Stdin = strings.NewReader("this is not an event")
		out, err := cmd.CombinedOutput()
		exitErr, ok := err.(*exec.ExitError)
		// Which event it is cannot be read: it may guard a tool, so it is blocked.
		if !ok || exitErr.ExitCode() != 2 || !strings.Contains(string(out), "the event is not a JSON object") {
			t.Errorf("%s: got %v: %s", strings.Join(argv, " "), err, out)
		}
	}
}

// The settings of each example for Claude Code (.claude/settings.json) and
// Gemini CLI (.gemini/settings.json) run as the agents run them: each
// event's command through a shell, in the example's folder, with the
// agent's project variable set.
func TestTheExamplesSettingsRunTheirHooksThroughTheBridge(t *testing.T) {
	// The secret redactor's settings run the binary next to its source.
	if err := build(exec.Command("go", "build", "-o", filepath.Join("secret-redactor", "go", "secret-redactor"), "./secret-redactor/go")); err != nil {
		t.Fatal(err)
	}
	type check struct {
		event   string
		changes map[string]any
		want    string // a part of stdout
	}
	bash := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}
	shell := map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "rm -rf /"}}
	secret := "deploy with AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"
	cases := []struct {
		example, agent string
		checks         []check
	}{
		{"approval-gate", "claude-code", []check{{"PreToolUse", bash, `"permissionDecision":"deny"`}, {"PermissionRequest", bash, `"behavior":"deny"`}}},
		{"approval-gate", "gemini-cli", []check{{"BeforeTool", shell, `"decision":"deny"`}}},
		{"rate-limiter", "claude-code", []check{{"PreToolUse", nil, ""}}},
		{"rate-limiter", "gemini-cli", []check{{"BeforeTool", nil, "{}"}}},
		{"secret-redactor", "claude-code", []check{{"PostToolUse", map[string]any{"tool_response": secret}, `AWS_SECRET_ACCESS_KEY=***`}}},
		{"secret-redactor", "gemini-cli", []check{{"AfterTool", map[string]any{"tool_response": map[string]any{"llmContent": secret}}, `AWS_SECRET_ACCESS_KEY=***`}}},
	}
	for _, c := range cases {
		t.Run(c.example+"/"+c.agent, func(t *testing.T) {
			folder, settingsFile, project := ".claude", "settings.json", "CLAUDE_PROJECT_DIR"
			if c.agent == "gemini-cli" {
				folder, project = ".gemini", "GEMINI_PROJECT_DIR"
			}
			dir, _ := filepath.Abs(c.example)
			data, err := os.ReadFile(filepath.Join(dir, folder, settingsFile))
			if err != nil {
				t.Fatal(err)
			}
			var settings struct {
				Hooks map[string][]struct {
					Hooks []struct{ Command string }
				}
			}
			if err := json.Unmarshal(data, &settings); err != nil {
				t.Fatal(err)
			}
			command := func(event string) string {
				groups := settings.Hooks[event]
				if len(groups) == 0 || len(groups[0].Hooks) == 0 {
					t.Fatalf("%s/%s/%s has no %s hook", c.example, folder, settingsFile, event)
				}
				return groups[0].Hooks[0].Command
			}
			b := newBridgeRun(t, c.agent, bridgeHook{})
			run := func(event string, changes map[string]any) (string, int) {
				ev := sample(t, c.agent, event, changes)
				ev["session_id"] = b.mark
				in, _ := json.Marshal(ev)
				sh := exec.Command("sh", "-c", command(event))
				sh.Dir = dir
				sh.Env = append(environ(nil), project+"="+dir, "XDG_RUNTIME_DIR="+b.dir, "HOOKWIRE_BRIDGE_TEST="+b.mark)
				sh.Stdin = bytes.NewReader(in)
				out, err := sh.Output()
				exit := 0
				if e, ok := err.(*exec.ExitError); ok {
					exit = e.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return strings.TrimSpace(string(out)), exit
			}
			for _, ch := range c.checks {
				out, exit := run(ch.event, ch.changes)
				if exit != 0 || !strings.Contains(out, ch.want) || (ch.want == "" && out != "") {
					t.Errorf("%s: exit %d, stdout %s; want %q", ch.event, exit, out, ch.want)
				}
			}
			run("SessionEnd", nil)
			b.noneLeft(t, "after SessionEnd")
		})
	}
}
