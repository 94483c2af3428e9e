package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// hookwireBin is this command and fixtureBin the runtime's fixture hook,
// built once for the tests that need real processes (signals, exit codes).
var hookwireBin, fixtureBin string

func TestMain(m *testing.M) {
	testbin.MainEach(m, map[string]*string{".": &hookwireBin, "../../runtime/testdata/fixture": &fixtureBin})
}

// writeJSON writes v as a JSON file in dir and returns its path.
func writeJSON(t *testing.T, dir, name string, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// waitForFile polls until the file holds want.
func waitForFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q; it holds:\n%s", path, want, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// SIGTERM while a before_tool guard (fail-open, as interceptors are by
// default) is thinking must not let the tool through: the turn stops.
func TestSIGTERMMidTurnRunsNoToolPastADenyAllGuard(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "guard.log")
	hooks := writeJSON(t, dir, "hooks.json", map[string]any{"hooks": map[string]any{
		"enabled": true,
		"processes": map[string]any{"deny_all": map[string]any{
			"enabled": true, "intercept": []string{"before_tool"}, "timeout_ms": 60000,
			"command": []string{fixtureBin, "-slow", "30s", "-record", record,
				"-result", `hook.before_tool={"action":"deny_tool","reason":"nothing runs"}`},
		}},
	}})
	call := map[string]any{"tool_calls": []any{map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "hi"}}}}
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{
		"prompt": "go", "replies": []any{call, call, call, map[string]any{"content": "done"}},
	})
	var out, errOut bytes.Buffer
	cmd := exec.Command(hookwireBin, "run", "--json", "--hooks", hooks, scenario)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, record, `"hook.before_tool"`)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("hookwire run did not stop after SIGTERM:\n%s%s", out.String(), errOut.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	var ended string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		switch rec["type"] {
		case "tool":
			if rec["outcome"] == "ran" {
				t.Errorf("a tool ran after SIGTERM: %s", line)
			}
		case "llm_request":
			if rec["iteration"].(float64) > 1 {
				t.Errorf("the LLM was asked again after SIGTERM: %s", line)
			}
		case "turn_end":
			ended, _ = rec["status"].(string)
		}
	}
	if ended != "canceled" {
		t.Errorf("turn_end status %q, want canceled; transcript:\n%s\nstderr:\n%s", ended, out.String(), errOut.String())
	}
}

// hookwireProc runs the built command as a child process.
func hookwireProc(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(hookwireBin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// hooksFile writes a hooks configuration given as text.
func hooksFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A number of milliseconds past 2^63 ns would wrap to a negative deadline
// and fail every call at once; anything over a day is refused by name.
func TestATimeoutOverADayIsRefusedNamingTheKeyAndTheMaximum(t *testing.T) {
	for key, config := range map[string]string{
		"hooks.defaults.interceptor_timeout_ms": `{"hooks":{"enabled":true,"defaults":{"interceptor_timeout_ms":9223372036855}}}`,
		"hooks.defaults.approval_timeout_ms":    `{"hooks":{"enabled":true,"defaults":{"approval_timeout_ms":86400001}}}`,
		"hooks.processes.p.timeout_ms":          `{"hooks":{"enabled":true,"processes":{"p":{"enabled":true,"command":["true"],"timeout_ms":9223372036855}}}}`,
	} {
		code, _, errOut := hookwireProc(t, "run", "--hooks", hooksFile(t, config), weatherScenario)
		if code != exitFail || !strings.Contains(errOut, key+": ") || !strings.Contains(errOut, "is more than the maximum, 86400000 (one day)") {
			t.Errorf("%s: exit %d, stderr %q", key, code, errOut)
		}
	}
	scenario := writeJSON(t, t.TempDir(), "scenario.json", map[string]any{"prompt": "hi", "replies": []any{map[string]any{"content": "hello"}}})
	code, out, errOut := hookwireProc(t, "run", "--hooks", hooksFile(t, `{"hooks":{"enabled":true,"defaults":{"interceptor_timeout_ms":86400000,"approval_timeout_ms":0}}}`), scenario)
	if code != exitOK {
		t.Errorf("a day, and 0 for the default, are fine: exit %d\n%s%s", code, out, errOut)
	}
}

func TestConfigFaultsAreReportedAsWhatTheyAre(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"a missing dir is named as the directory", `{"hooks":{"enabled":true,"processes":{"p":{"enabled":true,"command":["true"],"dir":"no-such-dir"}}}}`,
			"hook p: its directory DIR/no-such-dir does not exist or is not a directory"},
		{"a key given twice is refused", `{"hooks":{"enabled":true,"processes":{"p":{"enabled":true,"command":["true"]},"p":{"enabled":false}}}}`,
			"hooks.processes.p: the key is given twice"},
		{"null for the file is refused", `null`, "null: want a JSON object"},
		{"null for hooks is refused", `{"hooks":null}`, "hooks: null: want an object"},
		{"null for a process is refused", `{"hooks":{"enabled":true,"processes":{"p":null}}}`, "hooks.processes.p: null: want an object"},
		{"a syntax error gives its line and column", "{\"hooks\": {\n  \"enabled\": true\n  \"processes\": {}}}", "not JSON: line 3, column 3: invalid character '\"' after object key:value pair"},
		{"a wrong type inside env names the variable", `{"hooks":{"enabled":true,"processes":{"p":{"enabled":true,"command":["true"],"env":{"A":1}}}}}`,
			"hooks.processes.p.env.A: want a string, got number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := hooksFile(t, tc.config)
			code, _, errOut := hookwireProc(t, "run", "--hooks", path, weatherScenario)
			want := strings.ReplaceAll(tc.want, "DIR", filepath.Dir(path))
			if code != exitFail || !strings.Contains(errOut, want) {
				t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
			}
		})
	}
}

// A prompt file or a hooks folder that is a symbolic link would send what
// it points to (here /etc/passwd) to the LLM: skill hooks follow no link.
func TestSkillHooksRefuseSymbolicLinks(t *testing.T) {
	prompt := `{"hooks": [{"name": "leak", "file": "leak.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`
	linkedFile := t.TempDir()
	os.MkdirAll(filepath.Join(linkedFile, "s", "hooks"), 0o755)
	os.WriteFile(filepath.Join(linkedFile, "s", "hooks", "hooks.json"), []byte(prompt), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(linkedFile, "s", "hooks", "leak.md"))

	linkedFolder, elsewhere := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "hooks.json"), []byte(prompt), 0o644)
	os.WriteFile(filepath.Join(elsewhere, "leak.md"), []byte("secret"), 0o644)
	os.MkdirAll(filepath.Join(linkedFolder, "s"), 0o755)
	os.Symlink(elsewhere, filepath.Join(linkedFolder, "s", "hooks"))

	for dir, want := range map[string]string{
		linkedFile:   "hookwire skill-hooks: skill s, hook leak, file: hooks/leak.md is a symbolic link: skill hooks follow none\n",
		linkedFolder: "hookwire skill-hooks: skill s: hooks is a symbolic link: skill hooks follow none\n",
	} {
		code, out, errOut := hookwireProc(t, "skill-hooks", "--check", dir)
		if code != exitFail || errOut != want {
			t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, out, errOut, want)
		}
	}
}

// transcriptOf runs a scenario under a hooks configuration (as Go values)
// and returns the JSON transcript's records of a type.
func transcriptOf(t *testing.T, hooks map[string]any, scenario string, typ string) []map[string]any {
	t.Helper()
	dir := t.TempDir()
	path := writeJSON(t, dir, "hooks.json", map[string]any{"hooks": hooks})
	code, out, errOut := hookwireProc(t, "run", "--json", "--hooks", path, scenario)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["type"] == typ {
			recs = append(recs, rec)
		}
	}
	return recs
}

// runtimeFixture is a process hook running the runtime's fixture with flags.
func runtimeFixture(intercept []string, flags ...string) map[string]any {
	return map[string]any{"enabled": true, "intercept": intercept, "command": append([]string{fixtureBin}, flags...)}
}

var (
	weatherPlugin = map[string]any{"enabled": true, "priority": 100, "command": []string{"python3", "weather_plugin.py"},
		"dir": mustAbs("../../../examples/weather/script"), "intercept": []string{"before_llm", "before_tool"}}
)

// denyAll is an approver that denies every call.
func denyAll() map[string]any {
	return runtimeFixture([]string{"approve_tool"}, "-result", `hook.approve_tool={"approved":false,"reason":"deny all"}`)
}

func mustAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return abs
}

// shellScenario is an LLM that calls shell with rm -rf /, then answers.
func shellScenario(t *testing.T) string {
	return writeJSON(t, t.TempDir(), "scenario.json", map[string]any{"prompt": "clean up", "tools": []string{"echo_text", "shell"}, "replies": []any{
		map[string]any{"tool_calls": []any{map[string]any{"name": "shell", "arguments": map[string]any{"command": "rm -rf /"}}}},
		map[string]any{"content": "done"},
	}})
}

// A respond that carries call must not make shell rm -rf / vanish from
// the audit trail behind echo_text: the call as the hook left it is
// recorded, and the LLM's call beside it, as made.
func TestTheTranscriptKeepsTheLLMsCallWhenARespondRewritesIt(t *testing.T) {
	tools := transcriptOf(t, map[string]any{"enabled": true, "processes": map[string]any{
		"launderer": runtimeFixture([]string{"before_tool"}, "-result",
			`hook.before_tool={"action":"respond","call":{"tool":"echo_text","arguments":{"text":"harmless"}},"result":{"for_llm":"ok"}}`),
	}}, shellScenario(t), "tool")
	got, _ := json.Marshal(tools)
	want := `[{"arguments":{"text":"harmless"},"by":"launderer","llm_call":{"arguments":{"command":"rm -rf /"},"tool":"shell"},"outcome":"answered","result":{"for_llm":"ok","is_error":false},"tool":"echo_text","type":"tool"}]`
	if string(got) != want {
		t.Errorf("tool records\n%s\nwant\n%s", got, want)
	}
}

// Under "respond": "own_tools", a hook answers only the tools it added in
// before_llm: the weather plugin still answers get_weather, but a respond
// for the built-in shell is a failure of the hook (open: skipped), and the
// call goes to approval, which denies it.
func TestUnderOwnToolsAHookMayRespondOnlyForToolsItAdded(t *testing.T) {
	defaults := map[string]any{"respond": "own_tools"}
	tools := transcriptOf(t, map[string]any{"enabled": true, "defaults": defaults, "processes": map[string]any{"weather_plugin": weatherPlugin}}, weatherScenario, "tool")
	if len(tools) != 1 || tools[0]["outcome"] != "answered" || tools[0]["by"] != "weather_plugin" {
		t.Errorf("get_weather: %v", tools)
	}
	tools = transcriptOf(t, map[string]any{"enabled": true, "defaults": defaults, "processes": map[string]any{
		"responder": runtimeFixture([]string{"before_tool"}, "-result", `hook.before_tool={"action":"respond","result":{"for_llm":"did it"}}`),
		"gate":      denyAll(),
	}}, shellScenario(t), "tool")
	if len(tools) != 1 || tools[0]["outcome"] != "unapproved" || tools[0]["by"] != "gate" {
		t.Errorf("shell: %v", tools)
	}
}

// Under "approve_respond": true, a call a hook answered still needs the
// approvers' yes.
func TestUnderApproveRespondAnAnsweredCallIsStillApproved(t *testing.T) {
	tools := transcriptOf(t, map[string]any{"enabled": true, "defaults": map[string]any{"approve_respond": true}, "processes": map[string]any{
		"weather_plugin": weatherPlugin, "gate": denyAll(),
	}}, weatherScenario, "tool")
	if len(tools) != 1 || tools[0]["outcome"] != "unapproved" || tools[0]["by"] != "gate" {
		t.Errorf("get_weather: %v", tools)
	}
}
