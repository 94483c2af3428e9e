package examples

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/protocol"
)

// Kimi CLI, a Python agent (realagents/python/kimi.txt), run as the others
// are: offline, its model an openai_legacy provider of its config.toml
// (chat completions) whose base URL is the scripted model on loopback, and
// the hook written into the same config.toml by install's own TOML writer,
// after the user's settings and comments.

const kimiCLIVersion = "1.51.0"

// kimiArgs run Kimi CLI once on the prompt, in afk mode (it runs every
// tool without asking), printing what its model reads as JSON lines: its
// text output shows a blocked call as "Hook blocked" alone, and the reason
// only to the model.
var kimiArgs = []string{"--afk", "--print", "--output-format", "stream-json", "-p", "Remove the precious folder."}

// kimiUserConfig is a user's ~/.kimi/config.toml with its model the
// scripted one at url: comments, a provider, a model, a hook of the user's
// own (at the end of a turn) and a table after it.
func kimiUserConfig(url string) string {
	return `# my Kimi CLI settings
default_model = "scripted"

[providers.scripted]
type = "openai_legacy"   # chat completions
base_url = "` + url + `/v1"
api_key = "scripted"

[models.scripted]
provider = "scripted"
model = "scripted"
max_context_size = 131072

# my own hook: a note at the end of each turn
[[hooks]]
event = "Stop"
command = "true"
timeout = 5

[loop_control]
max_steps_per_turn = 20
`
}

// kimiConfigWithHook is the user's config.toml with the hook command
// installed for events by install's TOML writer, as `hookwire install`
// writes it.
func kimiConfigWithHook(t *testing.T, url, command string, events []string) []byte {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.toml")
	writeText(t, file, kimiUserConfig(url))
	ch, err := install.Install(install.Agents["kimi-cli"], file, install.Hook{Command: command, Timeout: 35 * time.Second}, events)
	if err != nil {
		t.Fatal(err)
	}
	return ch.After
}

// kimiCLI runs Kimi CLI with the hook command for the events `hookwire
// install` names for a guard (PreToolUse, the prompt, the end of the
// session) and returns what it printed.
func (a *agentRun) kimiCLI(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openAIChat("Shell", a.answer()))
	events := install.Events(agents.ByName("kimi-cli"), []protocol.Mode{protocol.ModeTool, protocol.ModeApprove})
	if a.stop {
		events = append(events, "Stop")
	}
	writeText(t, filepath.Join(a.home, ".kimi", "config.toml"), string(kimiConfigWithHook(t, model.url, bridgeCommand(t, "kimi-cli", hook), events)))
	out := runProgram(t, a, pythonAgentBin(t, "kimi", "kimi"), slices.Concat([]string{"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env), kimiArgs...)
	return out, model
}
