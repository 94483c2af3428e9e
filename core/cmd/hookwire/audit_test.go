package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shellGuardHooks = "../../../examples/shell-guard/python/hooks.json"
const shellGuardScenario = "../../../examples/shell-guard/scenario.json"

// TestRunRecordsEveryDecisionAndAuditVerifyFindsAnEdit follows docs/audit.md:
// a run appends its guard's decisions, verify says the chain holds, and an
// edit turning a denial into a continue is found and named.
func TestRunRecordsEveryDecisionAndAuditVerifyFindsAnEdit(t *testing.T) {
	log := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	t.Setenv("HOOKWIRE_AUDIT", log)
	if code, _, errOut := hookwire(t, "", "run", "--hooks", shellGuardHooks, shellGuardScenario); code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	records := strings.Split(strings.TrimSpace(string(b)), "\n")
	first := `"seq":1,`
	deny := `"host":"hookwire run","hook":"shell_guard","method":"hook.before_tool","tool":"shell","action":"deny_tool","reason":"dangerous command blocked: rm -rf / (a recursive delete)"`
	if len(records) < 2 || !strings.Contains(records[0], first) || !strings.Contains(records[0], deny) {
		t.Fatalf("the log's first record: %s\nwant %s and %s", records[0], first, deny)
	}
	code, out, _ := hookwire(t, "", "audit", "verify")
	if code != exitOK || !strings.Contains(out, log+": ") || !strings.HasSuffix(out, ": the chain holds\n") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}

	records[0] = strings.Replace(records[0], `"deny_tool"`, `"continue"`, 1)
	if err := os.WriteFile(log, []byte(strings.Join(records, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = hookwire(t, "", "audit", "verify", log)
	if want := log + ":1: record 1 was changed after it was written"; code != exitFail || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, ": 1 problem\n") {
		t.Fatalf("verify after an edit: exit %d\n%s\nwant it to start %q and end with 1 problem", code, out, want)
	}
}

func TestAuditOffWritesNoLog(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("HOOKWIRE_AUDIT", "off")
	if code, _, errOut := hookwire(t, "", "run", "--hooks", shellGuardHooks, shellGuardScenario); code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "state", "hookwire")); !os.IsNotExist(err) {
		t.Errorf("HOOKWIRE_AUDIT=off, and yet: %v", err)
	}
	if code, _, errOut := hookwire(t, "", "audit", "verify"); code != exitUsage || !strings.Contains(errOut, "HOOKWIRE_AUDIT=off") {
		t.Errorf("verify with the log off: exit %d, %s", code, errOut)
	}
}

func TestAuditDefaultsToTheUsersStateFolder(t *testing.T) {
	state := t.TempDir()
	t.Setenv("HOOKWIRE_AUDIT", "")
	t.Setenv("XDG_STATE_HOME", state)
	if code, _, errOut := hookwire(t, "", "run", "--hooks", shellGuardHooks, shellGuardScenario); code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	if code, out, _ := hookwire(t, "", "audit", "verify"); code != exitOK || !strings.HasPrefix(out, filepath.Join(state, "hookwire", "audit.jsonl")+": ") {
		t.Errorf("verify of the default log: exit %d\n%s", code, out)
	}
}
