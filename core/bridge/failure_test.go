package bridge

import (
	"slices"
	"testing"

	"github.com/hookwire/hookwire/core/host"
)

func TestAHookIsNamedAfterItsScript(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"python3", "/home/me/hooks/guard.py"}, "guard.py"},
		{[]string{"python3", "-u", "guard.py", "--strict"}, "guard.py"},
		{[]string{"node", "dist/hook.js"}, "hook.js"},
		{[]string{"uv", "run", "guard.py"}, "guard.py"},
		{[]string{"/usr/local/bin/my-guard", "--rules", "rules"}, "my-guard"},
		{[]string{"./guard"}, "guard"},
		{nil, "hook"},
	} {
		if got := NameOf(tc.argv); got != tc.want {
			t.Errorf("NameOf(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

func TestTheStderrQuotedLeavesOutStackFramesAndBlankLines(t *testing.T) {
	tail := &stderrTail{lines: []string{
		"file:///x/guard.mjs:1", "export function beforeTool( {", "                            ^", "",
		"SyntaxError: Unexpected token '{'", "    at compileSourceTextModule (node:internal/modules/esm/utils:340:16)",
		"    at ModuleLoader.moduleStrategy (node:internal/modules/esm/translators:146:18)", "", "Node.js v20.20.2",
	}}
	got := tail.last()
	if len(got) != 4 || got[3] != "SyntaxError: Unexpected token '{'" {
		t.Errorf("quoted %q: want the four lines that end with the error", got)
	}
}

func TestANewToolOutputGoesBackInTheToolsOwnShape(t *testing.T) {
	for _, tc := range []struct {
		name     string
		response any
		read     string // what the hook reads
		newText  string
		want     string // what Claude Code is given, as JSON; "" when nothing fits
	}{
		{"text", "hi", "hi", "ho", `"ho"`},
		{"Bash", map[string]any{"stdout": "out", "stderr": "err", "interrupted": false}, "out\nerr", "masked", `{"interrupted":false,"stderr":"","stdout":"masked"}`},
		{"Read", map[string]any{"type": "text", "file": map[string]any{"filePath": "/a", "content": "x"}}, "x", "y", `{"file":{"content":"y","filePath":"/a"},"type":"text"}`},
		{"MCP", []any{map[string]any{"type": "text", "text": "a"}, map[string]any{"type": "text", "text": "b"}}, "a\nb", "c", `[{"text":"c","type":"text"}]`},
		{"Write, changed as JSON", map[string]any{"filePath": "/a", "success": true}, `{"filePath":"/a","success":true}`, `{"filePath":"/b"}`, `{"filePath":"/b"}`},
		{"Write, changed as text", map[string]any{"filePath": "/a", "success": true}, `{"filePath":"/a","success":true}`, "nope", ""},
	} {
		ev := Event{Name: "PostToolUse", Fields: map[string]any{"tool_response": tc.response}}
		if got := claudeToolText(tc.response); got != tc.read {
			t.Errorf("%s: the hook reads %q, want %q", tc.name, got, tc.read)
		}
		out, ok := claudeNewOutput(ev, tc.newText)
		if got := encode(out); ok != (tc.want != "") || (ok && got != tc.want) {
			t.Errorf("%s: given %s (%v), want %s", tc.name, got, ok, tc.want)
		}
	}
}

func TestAnMCPToolsNewOutputIsGivenUnderBothNames(t *testing.T) {
	ev := Event{Name: "PostToolUse", Fields: map[string]any{"tool_name": "mcp__notes__read", "tool_response": "secret"}}
	masked := "***"
	r := claudeCode.decide(ev, outcome{result: &masked})
	want := `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"***","updatedToolOutput":"***"}}`
	if r.Stdout != want {
		t.Errorf("got %s, want %s", r.Stdout, want)
	}
}

// The host profiles of `hookwire run --host` and the bridge agree on the
// stages each agent's events call.
func TestTheBridgesAgentsCallTheStagesTheirHostsGrant(t *testing.T) {
	for name, agent := range Agents {
		var called []string
		for _, st := range Stages {
			if agent.calls(st) {
				called = append(called, string(st))
			}
		}
		if want := host.AgentStages[name]; !slices.Equal(called, want) {
			t.Errorf("%s: the bridge calls %v, its host grants %v", name, called, want)
		}
	}
}
