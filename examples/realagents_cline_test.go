package examples

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/install"
)

// Cline's CLI, run as the other agents are: offline, its model an
// OpenAI-compatible provider on loopback (`cline auth`), its state in the
// test's home, and the hook files the scripts `hookwire install` writes,
// in the project's .clinerules/hooks. Cline runs its sessions in the CLI's
// own process under CLINE_SESSION_BACKEND_MODE=local; by default it runs
// them there too and starts a hub daemon beside, on a fixed port, which
// would outlive the test and be shared by the tests' homes.

const clineVersion = "3.0.65"

// clineEnv is what a run of Cline needs besides the test's: no hub.
var clineEnv = []string{"CLINE_SESSION_BACKEND_MODE=local"}

// clineArgs run Cline once on the prompt, printing JSON lines.
var clineArgs = []string{"--json", "Remove the precious folder."}

// clineChat is the scripted model as Cline calls it: run_commands with
// the commands, one call each.
func clineChat(commands []string) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return openAIChatWith("run_commands", commands, func(command string) map[string]any {
		return map[string]any{"commands": []string{command}}
	})
}

// clineAuth points the user's Cline, in the test's home, at the model.
func clineAuth(t *testing.T, a *agentRun, url string) {
	t.Helper()
	out := runAgent(t, a, "cline", []string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"},
		"auth", "--provider", "openai", "--apikey", "scripted", "--modelid", "scripted", "--baseurl", url+"/v1")
	if !strings.Contains(out, "Provider configured") {
		t.Fatalf("cline auth:\n%s", out)
	}
}

// clineEnded is what Cline keeps of why a run ended, besides what it
// printed: its CLI shows "aborted by another client" for a run a hook
// ended, and writes the hook's reason to its log.
func clineEnded(a *agentRun) string {
	log, _ := os.ReadFile(filepath.Join(a.home, ".cline", "data", "logs", "cline.log"))
	var out []string
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, `"errorName":"ControlledStopError"`) {
			out = append(out, "cline.log: "+line)
		}
	}
	return strings.Join(out, "\n")
}

// cline runs Cline with the hook command for PreToolUse (and the end of
// the session, the prompt and the end of the run where the run names
// them) as the scripts install writes, and returns what it printed
// and what its log says of the run's end.
func (a *agentRun) cline(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, clineChat(a.answer()))
	clineAuth(t, a, model.url)
	// Cline starts SessionShutdown's hook and does not wait for it: the
	// test's cleanup may remove the bridge's folder first, and the session's
	// server would then wait out its idle time.
	command := bridgeCommand(t, "cline", hook, "--idle", "10s")
	hooks := filepath.Join(a.project, ".clinerules", "hooks")
	writeText(t, filepath.Join(hooks, "PreToolUse"), string(install.Script(command, true)))
	events := []string{"SessionShutdown"}
	if a.prompt {
		events = append(events, "UserPromptSubmit")
	}
	if a.stop {
		events = append(events, "TaskComplete")
	}
	for _, event := range events {
		writeText(t, filepath.Join(hooks, event), string(install.Script(command, false)))
	}
	out := runAgent(t, a, "cline", slices.Concat([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, clineEnv, env), clineArgs...)
	return out + "\n" + clineEnded(a), model
}

// Cline ends its whole run at a guard's cancel, so no other call of the
// model's answer is asked or run: each spelling of a recursive delete is a
// run of its own, and so is the command that only mentions one. Each
// folder survives, the guard's reason for each reaches Cline's log, the
// user reads that hookwire ended the run (never that a call was denied),
// each denial is in the audit log, and the mention runs.
func TestUnderTheRealClineTheShellGuardHoldsEverySpellingARunEach(t *testing.T) {
	t.Parallel()
	for name, g := range map[string]shellGuard{"example": theShellGuardExample(), "policy": theShellGuardPolicy()} {
		for i, s := range shellGuardSpellings {
			t.Run(name+"/"+s.command("F"), func(t *testing.T) {
				t.Parallel()
				a := newAgentRun(t)
				folder := filepath.Join(a.project, "precious-"+string(rune('a'+i)))
				os.MkdirAll(folder, 0o755)
				os.WriteFile(filepath.Join(folder, "data.txt"), []byte("keep me\n"), 0o644)
				a.command = s.command(folder)
				out, model := a.cline(t, g.hook, g.env...)
				if _, err := os.Stat(filepath.Join(folder, "data.txt")); err != nil {
					t.Errorf("%s: the folder is gone\n%s", a.command, out)
				}
				want := g.told(s, a.command, folder)
				if !strings.Contains(out, jsonText(want)) {
					t.Errorf("%s: Cline's log does not say %q\n%s", a.command, want, out)
				}
				if !strings.Contains(out, "hookwire ended Cline's run at its call of run_commands") || strings.Contains(model.sent(), `"role":"tool"`) {
					t.Errorf("%s: the user was not told the run was ended, or the model read a result\n%s", a.command, out)
				}
				auditLog := filepath.Join(a.home, ".local", "state", "hookwire", "audit.jsonl")
				if r, err := audit.Verify(auditLog); err != nil || !r.OK() {
					t.Errorf("the audit log under Cline: %v %+v", err, r)
				}
				records, _ := os.ReadFile(auditLog)
				if !regexp.MustCompile(`"host":"hookwire-bridge".*"action":"deny_tool"`).Match(records) || !strings.Contains(string(records), jsonText(want)) {
					t.Errorf("%s: no denial of it in the audit log:\n%s", a.command, records)
				}
			})
		}
		t.Run(name+"/a command that only mentions rm -rf runs", func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			mention := filepath.Join(a.project, "mention.txt")
			a.command = "echo 'rm -rf " + a.victim + "' > " + mention
			out, _ := a.cline(t, g.hook, g.env...)
			if b, err := os.ReadFile(mention); err != nil || !strings.Contains(string(b), "rm -rf") {
				t.Errorf("the command that only mentions rm -rf did not run: %v, %q\n%s", err, b, out)
			}
		})
	}
}
