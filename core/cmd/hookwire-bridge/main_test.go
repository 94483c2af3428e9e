package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// hookwire-bridge exists to start fast: it must not link what the rest of
// the CLI needs (schema validation, MCP, the schema's reflection), whose
// package initialisation alone costs milliseconds.
func TestHookwireBridgeLinksNeitherTheValidatorNorMCP(t *testing.T) {
	testbin.LinksNone(t, []string{"."}, "santhosh-tekuri/jsonschema", "modelcontextprotocol", "invopop/jsonschema", "yaml", "net/http", "core/schema", "core/skillhooks", "core/conformance", "go.opentelemetry.io")
}

func TestHookwireBridgeSaysHowToUseItAndRefusesWhatItCannotRun(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hookwire-bridge")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "--version").Output(); err != nil || string(out) != "hookwire-bridge "+version+"\n" {
		t.Errorf("--version: %v, %q", err, out)
	}
	out, err := exec.Command(bin, "--help").Output()
	if err != nil || !strings.HasPrefix(string(out), "Usage: hookwire-bridge [flags] AGENT -- COMMAND") || !strings.Contains(string(out), "-idle") {
		t.Errorf("--help: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"claude-code"}, "hookwire-bridge: need the agent and the hook's command"},
		{[]string{"aider", "--", "true"}, `hookwire-bridge: unknown agent "aider"`},
		{[]string{"--idle", "soon", "claude-code", "--", "true"}, "hookwire-bridge: invalid value"},
	} {
		out, err := exec.Command(bin, c.args...).CombinedOutput()
		if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("%q: %v, %s; want exit 2 and %q", c.args, err, out, c.want)
		}
	}
}
