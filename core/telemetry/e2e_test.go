package telemetry_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hookwire run plays the shell guard's scenario with the endpoint set: the
// collector receives the session's trace (the session, each turn, each
// tool call, each hook call with its attributes), the metrics of the calls
// and each call's audit record as a log record in its span.
func TestHookwireRunExportsTheSessionToACollector(t *testing.T) {
	col := startCollector(t)
	example := filepath.Join("..", "..", "examples", "shell-guard")
	cmd := exec.Command(hookwire, "run", "--hooks", filepath.Join(example, "python", "hooks.json"), filepath.Join(example, "scenario.json"))
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+col.endpoint, "OTEL_SERVICE_NAME=hookwire-e2e")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hookwire run: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "telemetry") {
		t.Errorf("hookwire run said something of telemetry, with a receiver up:\n%s", out)
	}
	r := col.await(t, func(r received) bool {
		return slices.Contains(r.metrics, "hookwire.hook.duration") && len(r.logs) > 0 && len(r.spans) > 0
	})

	byID := map[string]otlpSpan{}
	for _, s := range r.spans {
		byID[s.SpanID] = s
	}
	var deny *otlpSpan
	for i, s := range r.spans {
		if s.Name == "hook.before_tool shell_guard" && s.Attributes.get("hookwire.action") == "deny_tool" {
			deny = &r.spans[i]
			break
		}
	}
	if deny == nil {
		t.Fatalf("no span of a before_tool call denied among %d spans: %v", len(r.spans), names(r.spans))
	}
	for key, want := range map[string]string{
		"hookwire.host": "hookwire run", "hookwire.hook": "shell_guard", "hookwire.method": "hook.before_tool",
		"gen_ai.agent.name": "agent-1", "gen_ai.conversation.id": "session-1", "hookwire.turn.id": "turn-1",
		"gen_ai.tool.name": "shell",
	} {
		if got := deny.Attributes.get(key); got != want {
			t.Errorf("the denied call's %s is %q, want %q", key, got, want)
		}
	}
	if reason := deny.Attributes.get("hookwire.reason"); !strings.Contains(reason, "rm -rf /") {
		t.Errorf("the denied call's reason is %q: it should name the command", reason)
	}
	// The call is under its tool's span, in its turn's, in the session's.
	var path []string
	for s, ok := *deny, true; ok; s, ok = byID[s.Parent] {
		path = append(path, s.Name)
		if s.TraceID != deny.TraceID {
			t.Errorf("span %q is in another trace", s.Name)
		}
	}
	if want := []string{"hook.before_tool shell_guard", "execute_tool shell", "invoke_agent agent-1", "session"}; !slices.Equal(path, want) {
		t.Errorf("the denied call's span and its parents: %q, want %q", path, want)
	}
	turns := 0
	for _, s := range r.spans {
		if s.Name == "invoke_agent agent-1" {
			turns++
		}
	}
	if turns != 7 {
		t.Errorf("%d turn spans, want the scenario's 7", turns)
	}

	for _, name := range []string{"hookwire.hook.calls", "hookwire.hook.decisions", "hookwire.hook.duration"} {
		if !slices.Contains(r.metrics, name) {
			t.Errorf("no metric %s among %q", name, r.metrics)
		}
	}

	var denied *otlpLog
	for i, l := range r.logs {
		if l.Attributes.get("hookwire.action") == "deny_tool" {
			denied = &r.logs[i]
			break
		}
	}
	switch {
	case denied == nil:
		t.Errorf("no log record of a denial among %d", len(r.logs))
	case denied.EventName != "hookwire.decision" || !strings.Contains(denied.Body.String, "deny_tool") || !strings.Contains(denied.Attributes.get("hookwire.reason"), "rm -rf /"):
		t.Errorf("the denial's log record: %+v", *denied)
	case denied.TraceID != deny.TraceID || denied.SpanID != deny.SpanID:
		t.Errorf("the denial's log record is not in its call's span: trace %s span %s, want %s %s", denied.TraceID, denied.SpanID, deny.TraceID, deny.SpanID)
	}
}

func names(spans []otlpSpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// hookwire-bridge links no telemetry, to start fast at every event: with
// the endpoint set, its session's server runs as the hookwire beside it,
// which exports the session's hook calls, each named with the agent, the
// agent's id of the tool call and the tool's canonical kind.
func TestTheBridgesSessionServerExportsThroughHookwire(t *testing.T) {
	col := startCollector(t)
	guard, _ := filepath.Abs(filepath.Join("..", "..", "examples", "shell-guard", "python", "shell_guard.py"))
	sdk, _ := filepath.Abs(filepath.Join("..", "..", "sdk-python", "src"))
	dir := t.TempDir()
	os.Chmod(dir, 0o700) // the bridge's sockets are in a folder of this user's alone
	event := func(ev string) string {
		cmd := exec.Command(hookwireBridge, "--dir", dir, "claude-code", "--", "python3", guard)
		cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+col.endpoint, "PYTHONPATH="+sdk)
		cmd.Stdin = strings.NewReader(ev)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hookwire-bridge: %v\n%s", err, out)
		}
		return string(out)
	}
	event(`{"session_id":"otel-1","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"Clean the disk."}`)
	out := event(`{"session_id":"otel-1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_01"}`)
	if !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Fatalf("PreToolUse: %s, want a deny", out)
	}
	event(`{"session_id":"otel-1","cwd":"/tmp","hook_event_name":"SessionEnd","reason":"other"}`) // the server stops, and flushes
	r := col.await(t, func(r received) bool { return len(r.spans) > 0 && len(r.logs) > 0 })
	var deny *otlpSpan
	for i, s := range r.spans {
		if s.Attributes.get("hookwire.action") == "deny_tool" {
			deny = &r.spans[i]
		}
	}
	if deny == nil {
		t.Fatalf("no span of the denied call among %v; the session's log:\n%s", names(r.spans), logsIn(t, dir))
	}
	for key, want := range map[string]string{
		"hookwire.host": "hookwire-bridge", "gen_ai.agent.name": "claude-code", "gen_ai.tool.name": "Bash",
		"gen_ai.tool.call.id": "toolu_01", "hookwire.tool.kind": "shell", "hookwire.method": "hook.before_tool",
	} {
		if got := deny.Attributes.get(key); got != want {
			t.Errorf("the denied call's %s is %q, want %q", key, got, want)
		}
	}
}

// logsIn is every session log in dir, to say why a test failed.
func logsIn(t *testing.T, dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var out strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		out.WriteString(f + ":\n" + string(data))
	}
	return out.String()
}
