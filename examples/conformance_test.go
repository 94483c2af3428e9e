package examples

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// hookConfigs are the example files that configure hook processes: the
// hooks.json of each example, and any other hooks configuration.
func hookConfigs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*/*.json", "*/*/*.json"} {
		matches, _ := filepath.Glob(pattern)
		for _, file := range matches {
			var cfg struct {
				Hooks struct {
					Processes map[string]any `json:"processes"`
				} `json:"hooks"`
			}
			if data, err := os.ReadFile(file); err == nil && json.Unmarshal(data, &cfg) == nil && len(cfg.Hooks.Processes) > 0 {
				files = append(files, file)
			}
		}
	}
	return files
}

// Every hook of every example passes `hookwire conformance`, run as its
// hooks configuration runs it.
func TestEveryExampleHookPassesConformance(t *testing.T) {
	n := 0
	for _, file := range hookConfigs(t) {
		hooks, _ := config(t, file)
		n += len(hooks)
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
				if jerr := json.Unmarshal(stdout.Bytes(), &report); jerr != nil || len(report.Checks) != 10 {
					t.Fatalf("hookwire conformance: %v, %v\nstdout: %s\nstderr: %s", err, jerr, stdout.String(), stderr.String())
				}
				for _, c := range report.Checks {
					if c.Status != "pass" {
						t.Errorf("%s: %s: %s", c.Check, c.Status, c.Reason)
					}
				}
				if err != nil {
					t.Errorf("exit status %v", err)
				}
			})
		}
	}
	if n < 9 {
		t.Errorf("found only %d example hooks", n)
	}
}
