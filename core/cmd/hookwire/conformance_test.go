package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureHook builds the conformance suite's fixture hook, a correct hook
// unless its -fault flag breaks one thing.
func fixtureHook(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hook")
	if out, err := exec.Command("go", "build", "-o", bin, "../../conformance/testdata/hook").CombinedOutput(); err != nil {
		t.Fatalf("building the fixture hook: %v\n%s", err, out)
	}
	return bin
}

func TestConformanceOfACorrectHook(t *testing.T) {
	hook := fixtureHook(t)
	code, out, errOut := hookwire(t, "", "conformance", "--", hook)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 12 || lines[0] != "conformance of "+hook || lines[11] != "10 checks: 10 passed, 0 failed" {
		t.Errorf("want a title, a line per check and a total:\n%s", out)
	}
	for _, line := range lines[1:10] {
		if !strings.HasPrefix(line, "  PASS  ") {
			t.Errorf("line %q: want PASS", line)
		}
	}
}

// Everything after -- goes to the hook, flags included, and --json is one
// object for machines.
func TestConformanceOfABrokenHookAsJSON(t *testing.T) {
	hook := fixtureHook(t)
	code, out, _ := hookwire(t, "", "conformance", "--json", "--timeout", "2s", "--", hook, "-fault", "stdout")
	var report struct {
		Command []string
		Checks  []struct{ Check, Status, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("stdout is not one JSON object on one line: %v\n%s", err, out)
	}
	if code != exitFail {
		t.Errorf("exit %d, want %d for a failed check", code, exitFail)
	}
	if strings.Join(report.Command, " ") != hook+" -fault stdout" {
		t.Errorf("command %q: want the hook's argv as given", report.Command)
	}
	for _, c := range report.Checks {
		if want := map[bool]string{true: "fail", false: "pass"}[c.Check == "stdout-clean"]; c.Status != want {
			t.Errorf("%s: %s (%s), want %s", c.Check, c.Status, c.Reason, want)
		}
	}
}

func TestConformanceUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"conformance"}, "hookwire conformance: need the hook's command, after --"},
		{[]string{"conformance", "--modes", "tool,tools", "--", "true"}, `hookwire conformance: --modes: unknown mode "tools"`},
	} {
		code, out, errOut := hookwire(t, "", tc.args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("hookwire %s: exit %d, stdout %q, stderr %q; want exit %d and one line %q", strings.Join(tc.args, " "), code, out, errOut, exitUsage, tc.want)
		}
	}
	code, out, _ := hookwire(t, "", "conformance", "--help")
	if code != exitOK || !strings.Contains(out, "concurrent-50") || !strings.Contains(out, "--json") {
		t.Errorf("conformance --help: exit %d, want the checks and the flags:\n%s", code, out)
	}
}
