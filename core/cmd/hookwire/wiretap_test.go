package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// built builds a program once per test run.
var built sync.Map

func build(t *testing.T, pkg, name string) string {
	t.Helper()
	v, _ := built.LoadOrStore(pkg, sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "hookwire-cmd-test")
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return "", &buildError{pkg, err, out}
		}
		return bin, nil
	}))
	bin, err := v.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

type buildError struct {
	pkg string
	err error
	out []byte
}

func (e *buildError) Error() string {
	return "building " + e.pkg + ": " + e.err.Error() + "\n" + string(e.out)
}

func TestCallPrintsTheReplyAndExitsWithWhatItWas(t *testing.T) {
	hook := build(t, "../../conformance/testdata/hook", "hook")
	fixture := build(t, "../../runtime/testdata/fixture", "fixture")
	for _, c := range []struct {
		args     []string
		code     int
		stdout   string // a part of it
		stderr   string // a part of it
		describe string
	}{
		{[]string{hook, "hook.before_tool"}, exitOK, `"result":{"action":"continue"}`, "", "a valid reply"},
		{[]string{hook, "hook.approve_tool", `{"tool":"exec"}`}, exitOK, `"approved":true`, "", "params given"},
		{[]string{hook, "hook.hello"}, exitOK, `"name":"fixture"`, "", "hello alone"},
		{[]string{hook, "hook.runtime_event"}, exitOK, "", "", "a notification, unanswered"},
		{[]string{hook, "-fault", "no-reason", "hook.before_tool"}, exitInvalid, `"deny_tool"`, "the reply does not match the schema: /result/reason: required member reason is missing", "an invalid reply"},
		{[]string{hook, "-fault", "error", "hook.before_tool"}, exitError, `"error"`, "the hook answered with an error: json-rpc error -32000: handler failed", "an error reply"},
		{[]string{fixture, "-hang", "hook.before_tool", "hook.before_tool"}, exitTimeout, "", "hook.before_tool: no reply within 300ms", "no reply"},
		{[]string{hook, "-fault", "silent", "hook.before_tool"}, exitTimeout, "", "hook.hello: no reply within 300ms", "no reply to hello"},
		{[]string{hook, "-fault", "echo", "hook.runtime_event"}, exitInvalid, "", "hook.runtime_event is a notification, and the hook answered it", "an answered notification"},
	} {
		code, out, errOut := hookwire(t, "", append([]string{"call", "--timeout", "300ms", "--"}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.stdout) || !strings.Contains(errOut, c.stderr) {
			t.Errorf("%s: exit %d (want %d)\nstdout %q (want %q in it)\nstderr %q (want %q in it)", c.describe, code, c.code, out, c.stdout, errOut, c.stderr)
		}
		if c.stdout != "" && strings.Count(out, "\n") != 1 {
			t.Errorf("%s: stdout is not one line: %q", c.describe, out)
		}
	}
}

func TestCallUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "--", "hook"}, "hookwire call: need the hook's command and a method, after --"},
		{[]string{"call", "--", "hook", "hook.befor_tool"}, `hookwire call: unknown method "hook.befor_tool" (did you mean "hook.before_tool"?) (known: hook.hello, hook.before_llm,`},
		{[]string{"call", "--", "hook", "hook.before_tool", "{nope"}, "hookwire call: params are not JSON: {nope"},
		{[]string{"call", "--host", "claw", "--", "hook", "hook.before_tool"}, `hookwire call: --host: unknown host "claw" (known: picoclaw)`},
	} {
		code, out, errOut := hookwire(t, "", c.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("hookwire %s: exit %d, stdout %q, stderr %q; want one line %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}

// PicoClaw writes its Go types: every member of meta, always; the members
// it marks omitempty only when they are set; nothing else.
func TestCallAsPicoClawShapesTheRequestAsItsHost(t *testing.T) {
	hook := build(t, "../../conformance/testdata/hook", "hook")
	params := `{"tool":"exec","arguments":{},"channel":"","chat_id":"c1","tool_kind":"execute","meta":{"TurnID":"t1","Iteration":2}}`
	code, _, errOut := hookwire(t, "", "call", "--host", "picoclaw", "--trace", "--", hook, "hook.approve_tool", params)
	want := `[hook] > {"jsonrpc":"2.0","id":2,"method":"hook.approve_tool","params":{"meta":{"AgentID":"","TurnID":"t1","ParentTurnID":"","SessionKey":"","Iteration":2,"TracePath":"","Source":""},"tool":"exec"}}` + "\n"
	if code != exitOK || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, the wire:\n%s\nwant in it:\n%s", code, errOut, want)
	}
	shaped, err := shapePicoClaw("hook.after_tool", []byte(`{"tool":"exec","result":{"for_llm":"x"}}`))
	if err != nil || string(shaped) != `{"meta":{"AgentID":"","TurnID":"","ParentTurnID":"","SessionKey":"","Iteration":0,"TracePath":"","Source":""},"tool":"exec","result":{"for_llm":"x"},"duration":0}` {
		t.Errorf("after_tool shaped as %s (%v)", shaped, err)
	}
}

func TestAHooksNameIsItsScriptOrItsProgram(t *testing.T) {
	for argv, want := range map[string]string{
		"python3 weather_plugin.py":      "weather_plugin",
		"node dist/main.js":              "main",
		"./weather":                      "weather",
		"/tmp/x/hook -fault exit-on-bad": "hook",
		"env PYTHONPATH=sdk-python/src python3 rate_limiter.py":   "rate_limiter",
		"hookwire tap --out /tmp/rec.jsonl -- python3 weather.py": "weather",
	} {
		if got := hookName(strings.Fields(argv)); got != want {
			t.Errorf("%s: %q, want %q", argv, got, want)
		}
	}
}

// tap stands in for the hook under the reference runtime: the conformance
// suite cannot tell it from the hook, and what it recorded validates.
func TestTapPassesTheConformanceSuiteOfTheHookItWraps(t *testing.T) {
	hook := build(t, "../../conformance/testdata/hook", "hook")
	bin := build(t, ".", "hookwire")
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	code, out, errOut := hookwire(t, "", "conformance", "--", bin, "tap", "--out", rec, "--", hook)
	if code != exitOK || !strings.HasSuffix(out, "10 checks: 10 passed, 0 failed\n") {
		t.Errorf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	// The suite's malformed lines are in the recording as text; validate
	// reports them and nothing else.
	_, out, _ = hookwire(t, "", "validate", rec)
	malformed := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		switch {
		case strings.Contains(line, ": the host sent hook hook a line that is not JSON: "):
			malformed++
		case strings.Contains(line, `: /method: unknown method "hook.conformance_no_such_`):
		default:
			t.Errorf("validate: %s", line)
		}
	}
	if malformed == 0 {
		t.Errorf("validate found none of the malformed lines the suite sends:\n%s", out)
	}
}

func TestRunTraceDashShowsTheWireOnStderr(t *testing.T) {
	code, _, errOut := hookwire(t, "", "run", "--trace", "-", "--hooks", weatherHooks, weatherScenario)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var sent, received int
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		switch {
		case strings.HasPrefix(line, `[weather_plugin] > {"jsonrpc":"2.0","id":`):
			sent++
		case strings.HasPrefix(line, `[weather_plugin] < {`):
			received++
		}
	}
	if sent != 4 || received != 4 || strings.Contains(errOut, "\x1b[") {
		t.Errorf("%d lines sent and %d received, want 4 and 4 (hello, before_llm, before_tool, before_llm), with no colour off a terminal:\n%s", sent, received, errOut)
	}
}

func TestConformanceVerbosePrefixesTheHooksStderrWithItsName(t *testing.T) {
	hook := build(t, "../../conformance/testdata/hook", "hook")
	// -fault exit-on-bad says "fatal: bad line: ..." on stderr, then exits.
	_, _, errOut := hookwire(t, "", "conformance", "-v", "--timeout", "2s", "--", hook, "-fault", "exit-on-bad")
	if !strings.Contains(errOut, "[hook] fatal: bad line:") {
		t.Errorf("stderr:\n%s", errOut)
	}
	_, _, errOut = hookwire(t, "", "conformance", "-v", "--name", "gate", "--timeout", "2s", "--", hook, "-fault", "exit-on-bad")
	if !strings.Contains(errOut, "[gate] fatal: bad line:") {
		t.Errorf("with --name gate, stderr:\n%s", errOut)
	}
}

// A trace of hookwire run is a recording too: replayed to the same hook,
// every call matches.
func TestReplayOfARunTraceMatchesAndSaysSoInJSON(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	if code, _, errOut := hookwire(t, "", "run", "--trace", trace, "--hooks", weatherHooks, weatherScenario); code != exitOK {
		t.Fatalf("run: %s", errOut)
	}
	code, out, errOut := hookwire(t, "", "replay", "--json", trace, "--", "python3", "../../../examples/weather/script/weather_plugin.py")
	var report struct {
		Hook  string
		Calls []struct {
			Method string
			Match  bool
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if report.Hook != "weather_plugin" || len(report.Calls) != 3 || report.Calls[1].Method != "hook.before_tool" {
		t.Errorf("report %+v", report)
	}
}

func TestReplayOfAMalformedRecordingNamesTheFileAndLine(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	os.WriteFile(rec, []byte(`{"hook":"h","dir":"send","message":{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{}}}`+"\n"+`{"dir":"recv"}`+"\n"), 0o644)
	code, out, errOut := hookwire(t, "", "replay", rec, "--", "true")
	want := "hookwire replay: " + rec + `: line 2: neither "message" nor "text": the record holds no line` + "\n"
	if code != exitFail || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// As a process, tap ends as its hook does: with its exit status, or killed
// by the signal that killed it, passed on from the host.
func TestTapExitsAsItsHookDid(t *testing.T) {
	bin := build(t, ".", "hookwire")
	hook := build(t, "../../conformance/testdata/hook", "hook")
	if err := exec.Command(bin, "tap", "--", "sh", "-c", "exit 7").Run(); err == nil || err.(*exec.ExitError).ExitCode() != 7 {
		t.Errorf("a hook that exits 7: tap ended with %v", err)
	}

	tap := exec.Command(bin, "tap", "--", hook, "-fault", "linger")
	stdin, _ := tap.StdinPipe()
	stdout, _ := tap.StdoutPipe()
	if err := tap.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"x","version":1}}`+"\n")
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("hello: %q, %v", line, err)
	}
	stdin.Close() // the hook lingers: only the signal ends it
	tap.Process.Signal(syscall.SIGTERM)
	err := tap.Wait()
	if ws := tap.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("tap ended with %v, want killed by SIGTERM as its hook was", err)
	}
}
