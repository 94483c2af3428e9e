package bridge

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/runtime"
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
	all := make([]string, len(runtime.Stages))
	for i, st := range runtime.Stages {
		all[i] = string(st)
	}
	for name, agent := range Agents {
		var called []string
		for _, st := range Stages {
			if agent.Calls(st) {
				called = append(called, string(st))
			}
		}
		h, err := host.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		if granted := h.Granted(all); !slices.Equal(called, granted) {
			t.Errorf("%s: the bridge calls %v, its host grants %v", name, called, granted)
		}
	}
}

// A hook's message joins the agent's systemMessage; its context goes into
// additionalContext where the agent reads it, and elsewhere the user is
// told once a session that the model does not read it.
func TestRemarksReachTheAgentWhereItReadsThem(t *testing.T) {
	s := &server{opts: ServeOptions{Agent: claudeCode, Name: "notes.py"}}
	said := func(event string, r Reply) string {
		ev := Event{Name: event}
		o := outcome{step: claudeCode.Events[event], firstTime: s.firstTime, context: []string{"a", "b"}, messages: []string{"notes.py: hi"}}
		return s.remarks(ev, &o, r).Stdout
	}
	if got, want := said("PostToolUse", Reply{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"x"}}`}),
		`{"hookSpecificOutput":{"additionalContext":"a\n\nb","hookEventName":"PostToolUse","updatedToolOutput":"x"},"systemMessage":"notes.py: hi"}`; got != want {
		t.Errorf("PostToolUse: %s\nwant %s", got, want)
	}
	told := `{"systemMessage":"notes.py: hi\nhookwire: Claude Code reads no context from a hook at PermissionRequest: the model does not read what hook notes.py added"}`
	if got := said("PermissionRequest", Reply{}); got != told {
		t.Errorf("PermissionRequest: %s\nwant %s", got, told)
	}
	if got, want := said("PermissionRequest", Reply{}), `{"systemMessage":"notes.py: hi"}`; got != want {
		t.Errorf("PermissionRequest, told before: %s\nwant %s", got, want)
	}
	if r := s.remarks(Event{Name: "PreToolUse"}, &outcome{messages: []string{"x"}}, Reply{Exit: 2, Stderr: "blocked"}); r.Stdout != "" || r.Stderr != "blocked\nx" {
		t.Errorf("a reply by exit code: %+v, want the message after its stderr", r)
	}
}

// Gemini CLI reads no context at AfterModel: it waits for AfterAgent, where
// it keeps the turn going once; asked again in the same turn, the turn ends
// and the user is told.
func TestContextOnAnAnswerWaitsForTheEndOfTheTurnAndKeepsItGoingOnce(t *testing.T) {
	s := &server{opts: ServeOptions{Agent: geminiCLI, Name: "check.py"}}
	at := func(event string, active bool, context ...string) string {
		ev := Event{Name: event, Fields: map[string]any{"stop_hook_active": active}}
		o := outcome{step: geminiCLI.Events[event], firstTime: s.firstTime, context: context}
		return s.remarks(ev, &o, Reply{}).Stdout
	}
	if got := at("AfterModel", false, "check"); got != "" {
		t.Errorf("AfterModel: %s, want nothing", got)
	}
	at("AfterModel", false, "check")
	if got, want := at("AfterAgent", false), `{"decision":"deny","reason":"check"}`; got != want {
		t.Errorf("AfterAgent: %s, want %s", got, want)
	}
	at("AfterModel", false, "check")
	if got := at("AfterAgent", true); !strings.Contains(got, `"systemMessage":"hookwire: hook check.py asked Gemini CLI to go on again`) || strings.Contains(got, "deny") {
		t.Errorf("AfterAgent, going on already: %s", got)
	}
}
