package examples

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// knownFaults are the checks an example is known to fail, with why.
var knownFaults = map[string]map[string]string{
	// The plain script is the source document's code, kept as it is written
	// there: it answers an unknown method with -32000 where JSON-RPC says
	// -32601. The SDKs get it right.
	"weather/hooks.json weather_plugin": {"unknown-method": "the document's script answers -32000"},
}

// Every hook of every example passes `hookwire conformance`, run as its
// hooks.json runs it.
func TestEveryExampleHookPassesConformance(t *testing.T) {
	files, _ := filepath.Glob("*/hooks.json")
	more, _ := filepath.Glob("*/*/hooks.json")
	files = append(files, more...)
	if len(files) < 9 {
		t.Fatalf("found only these hooks.json: %v", files)
	}
	for _, file := range files {
		hooks, _ := config(t, file)
		for _, h := range hooks {
			id := filepath.ToSlash(file) + " " + h.Name
			t.Run(id, func(t *testing.T) {
				t.Parallel()
				// The audit log writes where it is told; not into the source tree.
				vars := map[string]string{"AUDIT_LOG": filepath.Join(t.TempDir(), "audit.jsonl")}
				for k, v := range h.Env {
					vars[k] = v
				}
				cmd := exec.Command(cli, append([]string{"conformance", "--json", "--"}, h.Command...)...)
				cmd.Dir, cmd.Env = h.Dir, environ(vars)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				var report struct {
					Checks []struct{ Check, Status, Reason string }
				}
				if jerr := json.Unmarshal(stdout.Bytes(), &report); jerr != nil || len(report.Checks) != 9 {
					t.Fatalf("hookwire conformance: %v, %v\nstdout: %s\nstderr: %s", err, jerr, stdout.String(), stderr.String())
				}
				var failed []string
				for _, c := range report.Checks {
					if c.Status != "pass" {
						failed = append(failed, c.Check)
						if _, known := knownFaults[id][c.Check]; !known {
							t.Errorf("%s: %s: %s", c.Check, c.Status, c.Reason)
						}
					}
				}
				var known []string
				for check := range knownFaults[id] {
					known = append(known, check)
				}
				if slices.Sort(known); !slices.Equal(failed, known) {
					t.Errorf("failed checks %v, known faults %v: update knownFaults", failed, known)
				}
				if (len(failed) == 0) != (err == nil) {
					t.Errorf("exit status %v with failed checks %v", err, failed)
				}
			})
		}
	}
}
