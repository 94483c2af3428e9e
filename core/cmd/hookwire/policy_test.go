package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shellGuardPolicy = "../../../examples/policy/shell-guard.jsonc"

func TestPolicyTestRunsTheCasesOfTheFile(t *testing.T) {
	code, out, _ := hookwire(t, "", "policy", "test", shellGuardPolicy)
	if code != exitOK || !strings.HasSuffix(out, "shell-guard.jsonc: 5 of 5 cases pass\n") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	failing := filepath.Join(t.TempDir(), "p.jsonc")
	os.WriteFile(failing, []byte(`{"rules": [{"name": "all", "when": "true", "deny": "no"}],
  "tests": [{"tool": "Read", "arguments": {"file_path": "x"}, "expect": "continue"}]}`), 0o600)
	code, out, _ = hookwire(t, "", "policy", "test", failing)
	if want := "FAIL test 1 (" + failing + ":2:13): deny by all, where continue was expected\n"; code != exitFail || !strings.HasPrefix(out, want) {
		t.Errorf("a failing case: exit %d\n%s\nwant it to start %q", code, out, want)
	}
}

// TestABadPolicyDoesNotStartAndSaysWhere: the hook refuses to start on a
// policy with a fault, naming its place, so that the host's guard fails
// closed rather than run without the rules.
func TestABadPolicyDoesNotStartAndSaysWhere(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonc")
	os.WriteFile(bad, []byte("{\"rules\": [\n  {\"when\": \"comand == 'x'\", \"deny\": \"no\"}]}"), 0o600)
	for _, args := range [][]string{{"policy", bad}, {"policy", "test", bad}} {
		code, _, errOut := hookwire(t, "", args...)
		if want := "hookwire policy: " + bad + ":2:13: undeclared reference to 'comand'"; code != exitFail || !strings.HasPrefix(errOut, want) {
			t.Errorf("%v: exit %d, %q, want %q", args, code, errOut, want)
		}
	}
}

// TestThePolicyHookGuardsARunAsTheShellGuardDoes: the shell guard's
// scenario under hookwire run, with the policy as its hook: the deletes
// are denied with the policy's words, and the turn goes on.
func TestThePolicyHookGuardsARunAsTheShellGuardDoes(t *testing.T) {
	policy, _ := filepath.Abs(shellGuardPolicy)
	hooks := writeJSON(t, t.TempDir(), "hooks.json", map[string]any{"hooks": map[string]any{"enabled": true, "processes": map[string]any{
		"policy": map[string]any{"enabled": true, "command": []string{hookwireBin, "policy", policy}, "intercept": []string{"before_tool", "approve_tool"}},
	}}})
	code, out, errOut := hookwire(t, "", "run", "--hooks", hooks, shellGuardScenario)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"deny_tool: dangerous command blocked: rm -rf / (a recursive delete)",
		"deny_tool: dangerous command blocked: sudo rm --recursive --force / (a recursive delete)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
}
