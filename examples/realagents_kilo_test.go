package examples

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
)

// Kilo Code CLI, an OpenCode fork with its plugin API, run as OpenCode is
// (realagents_opencode_test.go): its own program, its plugins folder
// (.kilo/plugins, from its agent file) and its own settings file, in
// OpenCode's schema with Kilo's $schema.

const kiloCodeVersion = "7.7.7"

// Kilo asks the registry for @kilocode/plugin of its own version, which is
// not published (7.3.1 is the newest), and goes on without it: there is
// nothing to give it.
var kiloCode = openCodeFork{agents.KiloCode, kiloCodeVersion, "kilo", ".config/kilo/kilo.json", "https://app.kilo.ai/config.json", "",
	// Its own models' list, telemetry and update check: 2 s a run.
	[]string{"KILO_DISABLE_MODELS_FETCH=1", "KILO_TELEMETRY_LEVEL=off", "KILO_DISABLE_AUTOUPDATE=1"}}

// Kilo Code CLI 7.7.7 offers its model a second shell tool, which OpenCode
// has not: background_process, whose action start runs its command. The
// shell-guard example holds it as it holds bash, by the canonical kind
// alone; with a guard that lets it through, the command runs.
func TestUnderTheRealKiloCodeTheShellGuardHoldsBackgroundProcess(t *testing.T) {
	t.Parallel()
	sdk, _ := filepath.Abs("../sdk-python/src")
	shellGuard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	for _, tc := range []struct {
		name  string
		hook  []string
		guard bool // the hook denies rm -rf
	}{
		{"the shell-guard example", []string{"env", "PYTHONPATH=" + sdk, "python3", shellGuard}, true},
		{"control: a guard that lets it through", pythonGuard(t, "continue"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAgentRun(t)
			model := openAIChatWith("background_process", a.answer(), func(command string) map[string]any {
				return map[string]any{"action": "start", "command": command, "description": "Remove the scratch folder"}
			})
			out, server := kiloCode.runWith(a, t, model, tc.hook)
			told := strings.Contains(server.sent(), "dangerous command blocked")
			if a.survived() != tc.guard || told != tc.guard {
				t.Errorf("Kilo Code CLI %s, background_process start of rm -rf: the folder survived=%v, the model was told of the block=%v, want %v\n%s",
					kiloCodeVersion, a.survived(), told, tc.guard, out)
			}
		})
	}
}
