package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// guardPy is a before_tool guard in plain Python, with no SDK: it denies a
// shell command that contains "rm", and lets the rest through. With the
// argument "raise", its handler reads arguments["path"], which a shell call
// lacks: it raises KeyError, and answers the call with an error after its
// traceback on stderr, as the SDKs do.
const guardPy = `import json, sys, traceback

MODE = sys.argv[1] if len(sys.argv) > 1 else "deny-rm"

def before_tool(params):
    args = params.get("arguments") or {}
    if MODE == "raise":
        return {"action": "deny_tool", "reason": "reads " + args["path"]}
    if params.get("tool") == "shell" and "rm" in args.get("command", ""):
        return {"action": "deny_tool", "reason": "rm is not allowed: " + args["command"]}
    return {"action": "continue"}

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    method, id = msg.get("method"), msg.get("id")
    if id is None or method in ("hook.event", "hook.runtime_event"):
        continue
    reply = {"jsonrpc": "2.0", "id": id}
    try:
        if method == "hook.hello":
            reply["result"] = {"ok": True, "name": "guard", "modes": ["tool"]}
        elif method == "hook.before_tool":
            reply["result"] = before_tool(msg.get("params") or {})
        elif method == "hook.after_tool":
            reply["result"] = {"action": "continue"}
        else:
            reply["error"] = {"code": -32601, "message": "method not found"}
    except Exception:
        traceback.print_exc()
        reply["error"] = {"code": -32603, "message": "the handler failed"}
    print(json.dumps(reply), flush=True)
`

// guardSetup writes the guard's script, a hooks configuration that runs it
// with args, and a scenario whose LLM calls shell with command, then says
// it is done; extra members (expect) are added to the scenario.
func guardSetup(t *testing.T, command string, extra map[string]any, args ...string) (hooks, scenario, script string) {
	t.Helper()
	dir := t.TempDir()
	script = filepath.Join(dir, "guard.py")
	if err := os.WriteFile(script, []byte(guardPy), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks = writeJSON(t, dir, "hooks.json", map[string]any{"hooks": map[string]any{"processes": map[string]any{
		"guard": map[string]any{"enabled": true, "intercept": []string{"before_tool"}, "command": append([]string{"python3", script}, args...)},
	}}})
	sc := map[string]any{"prompt": "clean up", "tools": []string{"echo_text", "shell"}, "replies": []any{
		map[string]any{"tool_calls": []any{map[string]any{"name": "shell", "arguments": map[string]any{"command": command}}}},
		map[string]any{"content": "I cleaned up."},
	}}
	for k, v := range extra {
		sc[k] = v
	}
	scenario = writeJSON(t, dir, "scenario.json", sc)
	return hooks, scenario, script
}

func TestCheckPassesWithASummaryWhenEveryExpectationHolds(t *testing.T) {
	hooks, scenario, _ := guardSetup(t, "rm -rf /", map[string]any{"expect": []any{
		map[string]any{"call": 1, "hook": "guard", "method": "before_tool", "tool": "shell", "action": "deny_tool", "reason": "^rm is not allowed"},
		map[string]any{"tool": "shell", "runs": false},
		map[string]any{"done": "cleaned"},
	}})
	code, out, errOut := hookwire(t, "", "run", "--check", "--hooks", hooks, scenario)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.HasSuffix(out, "done      I cleaned up.  ("+durationOf(out)+")\ncheck: all 3 expectations hold\n") {
		t.Errorf("want the transcript, then one line that sums up:\n%s", out)
	}
}

// durationOf is the duration printed on the transcript's done line.
func durationOf(out string) string {
	_, after, _ := strings.Cut(out, "done      I cleaned up.  (")
	d, _, _ := strings.Cut(after, ")")
	return d
}

// The weather example's own hook, held to what its README says it does.
func TestCheckHoldsTheWeatherExampleToItsREADME(t *testing.T) {
	b, err := os.ReadFile(weatherScenario)
	if err != nil {
		t.Fatal(err)
	}
	sc := strings.TrimSuffix(strings.TrimSpace(string(b)), "}") + `,
  "expect": [
    {"call": 1, "method": "before_llm", "action": "modify"},
    {"call": 2, "tool": "get_weather", "action": "respond"},
    {"tool": "get_weather", "runs": false},
    {"done": "^Beijing is sunny"}
  ]
}`
	path := filepath.Join(t.TempDir(), "scenario.json")
	os.WriteFile(path, []byte(sc), 0o644)
	code, out, errOut := hookwire(t, "", "run", "--check", "--hooks", weatherHooks, path)
	if code != exitOK || !strings.HasSuffix(out, "\ncheck: all 4 expectations hold\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestCheckPrintsWhatEachMissedExpectationWantedWhatHappenedAndWhere(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		expect        map[string]any
		want          string
	}{
		{"a call's action", "ls", map[string]any{"call": 1, "action": "deny_tool", "reason": "rm .*"},
			"MISS  expect[1] {\"action\":\"deny_tool\",\"call\":1,\"reason\":\"rm .*\"}\n" + // as json.Marshal wrote it: keys sorted
				"  want:  hook call 1: answered deny_tool, with a reason matching /rm .*/\n" +
				"  got:   continue\n" +
				"  where: hook call 1 of 1: guard hook.before_tool shell, turn 1\n"},
		{"a call's reason", "rm -rf /", map[string]any{"call": 1, "action": "deny_tool", "reason": "^never$"},
			"  got:   deny_tool: rm is not allowed: rm -rf /\n"},
		{"a call's hook", "ls", map[string]any{"call": 1, "hook": "other"},
			"  want:  hook call 1: to hook other\n" +
				"  got:   to hook guard, answered continue\n"},
		{"a call never made", "ls", map[string]any{"call": 2},
			"  want:  hook call 2\n" +
				"  got:   1 hook calls in all\n" +
				"  where: the whole run; the last was guard hook.before_tool, turn 1\n"},
		{"a tool that ran", "ls", map[string]any{"tool": "shell", "runs": false},
			"  want:  shell never runs\n" +
				"  got:   shell ran with {\"command\":\"ls\"}\n" +
				"  where: call 1 of 1 to shell, turn 1\n"},
		{"a tool that did not run", "rm -rf /", map[string]any{"tool": "shell", "runs": true},
			"  want:  shell runs\n" +
				"  got:   shell was denied by hook guard: rm is not allowed: rm -rf /\n"},
		{"a tool never called", "ls", map[string]any{"tool": "read_file", "runs": true},
			"  got:   no call to read_file (the tools called: shell)\n"},
		{"the final answer", "ls", map[string]any{"done": "^All clean"},
			"  want:  the last turn ends done, its answer matching /^All clean/\n" +
				"  got:   it answered \"I cleaned up.\"\n" +
				"  where: turn 1, the last\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, scenario, _ := guardSetup(t, tc.command, map[string]any{"expect": []any{map[string]any{"done": "clean"}, tc.expect}})
			code, out, errOut := hookwire(t, "", "run", "--check", "--hooks", hooks, scenario)
			if code != exitFail {
				t.Errorf("exit %d, want %d", code, exitFail)
			}
			// The expectation that holds (the answer says "clean") is
			// expect[0], and is not shown; the one of the case, expect[1], is.
			if !strings.Contains(out, tc.want) || strings.Count(out, "MISS") != 1 || !strings.Contains(out, "MISS  expect[1] ") {
				t.Errorf("want the miss of expect[1] alone, with\n%s\ngot:\n%s%s", tc.want, out, errOut)
			}
			if !strings.HasSuffix(out, "\ncheck: 1 of 2 expectations missed\n") {
				t.Errorf("want a summing up of 1 miss in 2:\n%s", out)
			}
		})
	}
}

// The verdict leaves JSON Lines on stdout as they are: it goes to stderr.
func TestCheckUnderJSONWritesTheVerdictOnStderr(t *testing.T) {
	hooks, scenario, _ := guardSetup(t, "ls", map[string]any{"expect": []any{map[string]any{"tool": "shell", "runs": false}}})
	code, out, errOut := hookwire(t, "", "run", "--json", "--check", "--hooks", hooks, scenario)
	if code != exitFail || strings.Contains(out, "MISS") || !strings.Contains(errOut, "MISS  expect[0] {\"runs\":false,\"tool\":\"shell\"}\n") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	dropTimings(t, out) // fails the test on a line that is not JSON
}

func TestAMalformedExpectIsOneLineNamingTheMemberAndTheFix(t *testing.T) {
	for _, tc := range []struct {
		expect any
		want   string
	}{
		{[]any{map[string]any{"call": 1, "reson": "rm"}}, `expect[0].reson: unknown member (did you mean "reason"?)`},
		{[]any{map[string]any{"tool": "shell", "run": false}}, `expect[0].run: unknown member (did you mean "runs"?)`},
		{[]any{map[string]any{"call": 1, "runs": false}}, `expect[0].runs: a call expectation has no runs (its members: call, hook, method, tool, action, reason); write it as an expectation of its own`},
		{[]any{map[string]any{"tool": "shell"}}, `expect[0].runs: required: true (shell runs at least once) or false (it never runs)`},
		{[]any{map[string]any{"call": 1, "action": "deny_tol"}}, `expect[0].action: no action "deny_tol" (did you mean "deny_tool"?)`},
		{[]any{map[string]any{"done": "(sunny"}}, "expect[0].done: not a regular expression: error parsing regexp: missing closing ): `(sunny`"},
		{[]any{map[string]any{"call": "two"}}, `expect[0].call: want the hook call's number, from 1, got "two"`},
		{map[string]any{"done": "x"}, `expect: want a list of expectations, such as [{"tool": "shell", "runs": false}], got {"done":"x"}`},
	} {
		hooks, scenario, _ := guardSetup(t, "ls", map[string]any{"expect": tc.expect})
		code, out, errOut := hookwire(t, "", "run", "--check", "--hooks", hooks, scenario)
		if want := "hookwire run: " + scenario + ": " + tc.want + "\n"; code != exitFail || out != "" || errOut != want {
			t.Errorf("exit %d, stdout %q\nstderr %q\nwant   %q", code, out, errOut, want)
		}
	}
}

func TestCheckWithNoExpectationsSaysHowToWriteOne(t *testing.T) {
	hooks, scenario, _ := guardSetup(t, "ls", nil)
	code, out, errOut := hookwire(t, "", "run", "--check", "--hooks", hooks, scenario)
	if code != exitFail || out != "" || !strings.HasPrefix(errOut, "hookwire run: --check: "+scenario+` has no "expect" list, so nothing to check: add one, such as "expect": [{"tool": "shell", "runs": false}]`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A guard that raises fails open by default (the reference host's
// before_tool policy): the call it guards runs. --failure-policy closed
// blocks it, as the bridge does.
func TestAGuardThatRaisesBlocksTheCallUnderFailurePolicyClosed(t *testing.T) {
	expect := map[string]any{"expect": []any{map[string]any{"call": 1, "action": "failed", "reason": "the handler failed"}}}
	hooks, scenario, _ := guardSetup(t, "rm -rf /", expect, "raise")
	code, out, errOut := hookwire(t, "", "run", "--check", "--hooks", hooks, scenario)
	if code != exitOK || !strings.Contains(out, "tool      shell {\"command\":\"rm -rf /\"} ran: would run: rm -rf /\n") {
		t.Fatalf("without the flag, want the call to run (fail open):\nexit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = hookwire(t, "", "run", "--check", "--failure-policy", "closed", "--hooks", hooks, scenario)
	if code != exitOK || strings.Contains(out, " ran") || !strings.Contains(out, "tool      shell {\"command\":\"rm -rf /\"} denied by hook guard") {
		t.Errorf("under --failure-policy closed, want the call blocked:\nexit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "KeyError: 'path'") {
		t.Errorf("want the guard's traceback on stderr:\n%s", errOut)
	}
	code, _, errOut = hookwire(t, "", "run", "--failure-policy", "shut", "--hooks", hooks, scenario)
	if code != exitUsage || errOut != "hookwire run: --failure-policy: \"shut\" is not open or closed\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// lockedBuffer is a bytes.Buffer that a process writes while the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls out until it holds want n times, for at most 20 s.
func waitFor(t *testing.T, out *lockedBuffer, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(out.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("stdout never held %q %d times; it holds:\n%s", want, n, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestWatchRunsAgainWhenTheHookScriptChangesAndStopsOnSIGTERM(t *testing.T) {
	hooks, scenario, script := guardSetup(t, "rm -rf /", map[string]any{"expect": []any{map[string]any{"tool": "shell", "runs": false}}})
	var out, errOut lockedBuffer
	cmd := exec.Command(hookwireBin, "run", "--watch", "--check", "--hooks", hooks, scenario)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{}) // closed once the process has exited
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				t.Errorf("run --watch was still running 10 s after SIGKILL")
			}
		}
	}()
	waitFor(t, &out, "watch: waiting for a change to ", 1)
	first := out.String()
	if !strings.Contains(first, "denied by hook guard: rm is not allowed: rm -rf /") || !strings.Contains(first, "check: all 1 expectations hold") {
		t.Fatalf("first run:\n%s%s", first, errOut.String())
	}
	if !strings.Contains(first, script) {
		t.Errorf("want the hook's script among the files watched:\n%s", first)
	}
	// The guard now lets rm through: the second run's shell runs and the check misses.
	edited := strings.Replace(guardPy, `"rm" in args.get("command", "")`, `"format c:" in args.get("command", "")`, 1)
	if err := os.WriteFile(script, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &out, "watch: waiting for a change to ", 2)
	second := strings.TrimPrefix(out.String(), first)
	for _, want := range []string{
		"======== run 2: " + script + " changed ========\n",
		"tool      shell {\"command\":\"rm -rf /\"} ran: would run: rm -rf /\n",
		"check: 1 of 1 expectations missed\n",
	} {
		if !strings.Contains(second, want) {
			t.Errorf("the second run lacks %q:\n%s", want, second)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("run --watch did not stop within 10 s of SIGTERM:\n%s", out.String())
	}
	// The last run missed: that is the status it exits with.
	if code := cmd.ProcessState.ExitCode(); code != exitFail {
		t.Errorf("exit %d after SIGTERM, want the last run's %d", code, exitFail)
	}
}
