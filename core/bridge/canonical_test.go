package bridge

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

// A hook may rewrite a call in words every agent shares: a changed
// canonical command, path, URL or pattern reaches the agent in the
// argument its tool has for it; one the tool cannot take, or changed two
// ways, is an error, never a call that does something else.
func TestARewrittenCanonicalMemberReachesTheAgentsArgument(t *testing.T) {
	str := func(s string) *string { return &s }
	shell := func(cmd string) *protocol.CanonicalTool {
		return &protocol.CanonicalTool{Kind: "shell", Command: str(cmd)}
	}
	for _, tc := range []struct {
		name, agent, tool string
		sent, got         map[string]any
		before, after     *protocol.CanonicalTool
		want              map[string]any
		err               string
	}{
		{name: "canonical only", agent: "claude-code", tool: "Bash",
			sent: map[string]any{"command": "rm -rf x", "description": "d"}, got: map[string]any{"command": "rm -rf x", "description": "d"},
			before: shell("rm -rf x"), after: shell("rm -rf ./x"), want: map[string]any{"command": "rm -rf ./x", "description": "d"}},
		{name: "Gemini CLI's tool", agent: "gemini-cli", tool: "run_shell_command",
			sent: map[string]any{"command": "ls"}, got: map[string]any{"command": "ls"},
			before: shell("ls"), after: shell("ls -la"), want: map[string]any{"command": "ls -la"}},
		{name: "both, the same", agent: "codex-cli", tool: "Bash",
			sent: map[string]any{"command": "ls"}, got: map[string]any{"command": "ls -la"},
			before: shell("ls"), after: shell("ls -la"), want: map[string]any{"command": "ls -la"}},
		{name: "arguments only", agent: "claude-code", tool: "Bash",
			sent: map[string]any{"command": "ls"}, got: map[string]any{"command": "ls -la"},
			before: shell("ls"), after: shell("ls"), want: map[string]any{"command": "ls -la"}},
		{name: "canonical dropped", agent: "claude-code", tool: "Bash",
			sent: map[string]any{"command": "ls"}, got: map[string]any{"command": "ls -la"},
			before: shell("ls"), after: nil, want: map[string]any{"command": "ls -la"}},
		{name: "two ways", agent: "claude-code", tool: "Bash",
			sent: map[string]any{"command": "ls"}, got: map[string]any{"command": "pwd"},
			before: shell("ls"), after: shell("ls -la"), err: "two ways"},
		{name: "no argument for it", agent: "claude-code", tool: "Bash",
			sent: map[string]any{"command": "ls"}, got: map[string]any{"command": "ls"},
			before: shell("ls"), after: &protocol.CanonicalTool{Kind: "shell", Command: str("ls"), Path: str("/tmp")}, err: "no argument"},
	} {
		got, err := rewritten(tc.agent, tc.tool, tc.sent, tc.got, tc.before, tc.after)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, %v; want an error saying %q", tc.name, got, err, tc.err)
			}
		case err != nil || !reflect.DeepEqual(got, tc.want):
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}
