package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A handler that raises answers with an error that says little ("the
// handler failed"); its traceback, on the hook's stderr, says why. The
// report shows it under the check that failed, without -v, each check
// with the lines written while it was made.
func TestConformanceShowsAFailingHandlersTracebackWithoutV(t *testing.T) {
	script := filepath.Join(t.TempDir(), "guard.py")
	if err := os.WriteFile(script, []byte(guardPy), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := hookwire(t, "", "conformance", "--modes", "tool", "--", "python3", script, "raise")
	if code != exitFail || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, check := range []string{"actions-allowed", "missing-members"} {
		_, after, ok := strings.Cut(out, "  FAIL  "+check)
		if !ok {
			t.Fatalf("%s did not fail:\n%s", check, out)
		}
		lines := strings.Split(after, "\n")
		// The check's line, then the hook's stderr, until the next check.
		var shown []string
		for _, line := range lines[1:] {
			if !strings.HasPrefix(line, "        ") {
				break
			}
			shown = append(shown, line)
		}
		got := strings.Join(shown, "\n")
		if !strings.HasPrefix(lines[0], " ") || !strings.Contains(lines[0], "hook.before_tool was answered with error -32603: the handler failed") {
			t.Errorf("%s: reason %q", check, lines[0])
		}
		if len(shown) == 0 || shown[0] != "        the hook's stderr during this check:" ||
			strings.Count(got, "| Traceback (most recent call last):") != 1 ||
			!strings.Contains(got, ", in before_tool\n") || !strings.HasSuffix(got, "\n        | KeyError: 'path'") {
			t.Errorf("%s: want its one traceback, ending in KeyError: 'path', under it; got:\n%s\nin:\n%s", check, got, out)
		}
	}
	if strings.Contains(strings.Split(out, "  PASS  ")[1], "stderr during") {
		t.Errorf("a check that passed shows stderr:\n%s", out)
	}

	_, out, _ = hookwire(t, "", "conformance", "--json", "--modes", "tool", "--", "python3", script, "raise")
	var report struct {
		Checks []struct {
			Check  string
			Stderr []string
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	for _, c := range report.Checks {
		last := ""
		if len(c.Stderr) > 0 {
			last = c.Stderr[len(c.Stderr)-1]
		}
		if want := map[bool]string{true: "KeyError: 'path'"}[c.Check == "actions-allowed" || c.Check == "missing-members"]; last != want {
			t.Errorf("--json: %s has stderr %q, want its last line %q", c.Check, c.Stderr, want)
		}
	}
}

// --failure-policy says what a host under it does with the tool call of a
// guard request the hook failed; without it, nothing is said.
func TestConformanceFailurePolicyWarnsOfWhatAFailedGuardDoesToTheCall(t *testing.T) {
	script := filepath.Join(t.TempDir(), "guard.py")
	if err := os.WriteFile(script, []byte(guardPy), 0o644); err != nil {
		t.Fatal(err)
	}
	const failed = "  WARN  hook.before_tool failed (hook.before_tool was answered with error -32603: the handler failed): under failure policy "
	for policy, want := range map[string]string{
		"open":   failed + "open, a host goes on without this hook's answer: the tool call it guards runs, unless another hook stops it\n",
		"closed": failed + "closed, a host blocks the tool call it guards, each one while the hook fails so\n",
	} {
		code, out, errOut := hookwire(t, "", "conformance", "--failure-policy", policy, "--modes", "tool", "--", "python3", script, "raise")
		if code != exitFail || !strings.Contains(out, want) || strings.Count(out, "WARN") != 1 {
			t.Errorf("--failure-policy %s: exit %d, want %q once:\n%s%s", policy, code, want, out, errOut)
		}
	}
	if _, out, _ := hookwire(t, "", "conformance", "--modes", "tool", "--", "python3", script, "raise"); strings.Contains(out, "WARN") {
		t.Errorf("without --failure-policy, want no warning:\n%s", out)
	}
	// A guard that answers gets no warning under either policy.
	if _, out, _ := hookwire(t, "", "conformance", "--failure-policy", "closed", "--modes", "tool", "--", "python3", script); strings.Contains(out, "WARN") || !strings.Contains(out, "10 passed") {
		t.Errorf("a correct guard: want every check passed and no warning:\n%s", out)
	}
	code, _, errOut := hookwire(t, "", "conformance", "--failure-policy", "shut", "--", "python3", script)
	if code != exitUsage || errOut != "hookwire conformance: --failure-policy: \"shut\" is not open or closed\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
