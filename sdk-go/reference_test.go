//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package hookwire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func init() {
	// plugin is a hook with a tool, an approver, an after_tool handler and
	// an observer, for the reference runtime.
	processHooks["plugin"] = func() *Hook {
		h := New("sdk-go-plugin")
		AddTool(h, "get_weather", "Query weather information for a specified city",
			func(_ context.Context, in weatherArgs) (ToolResult, error) {
				return Text(in.City + " weather: Sunny"), nil
			})
		h.OnApproveTool(func(_ context.Context, req ApproveToolParams) (ApproveToolResult, error) {
			return ApproveToolResult{Approved: req.Tool == "echo_text"}, nil
		})
		h.OnAfterTool(func(_ context.Context, res AfterToolParams) (AfterToolResult, error) {
			if res.Result == nil { // a host may leave it out
				return nil, nil
			}
			res.Result.ForLLM = strings.ToUpper(res.Result.ForLLM)
			return res.Modify(), nil
		})
		h.OnEvent("agent.tool.*", func(ctx context.Context, ev RuntimeEvent) {
			slog.InfoContext(ctx, "observed", "kind", ev.Kind)
		})
		return h
	}
}

var cliBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// hookwireCLI builds the reference runtime's CLI from the workspace, once
// per test run. The SDK does not import core: the runtime is only ever the
// other process.
func hookwireCLI(t *testing.T) string {
	t.Helper()
	cliBuild.once.Do(func() {
		if cliBuild.dir, cliBuild.err = os.MkdirTemp("", "hookwire-cli-"); cliBuild.err != nil {
			return
		}
		cliBuild.path = filepath.Join(cliBuild.dir, "hookwire")
		out, err := exec.Command("go", "build", "-o", cliBuild.path, "github.com/hookwire/hookwire/core/cmd/hookwire").CombinedOutput()
		if err != nil {
			cliBuild.err = fmt.Errorf("building the hookwire CLI (it comes from the go.work workspace): %v\n%s", err, out)
		}
	})
	if cliBuild.err != nil {
		t.Fatal(cliBuild.err)
	}
	return cliBuild.path
}

func TestAHookPassesTheConformanceSuite(t *testing.T) {
	suite := exec.Command(hookwireCLI(t), "conformance", "--", os.Args[0], "-test.run=^$")
	suite.Env = append(os.Environ(), "HOOKWIRE_TEST_HOOK=plugin")
	if out, err := suite.CombinedOutput(); err != nil {
		t.Errorf("hookwire conformance: %v\n%s", err, out)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAHookUnderTheReferenceRuntime(t *testing.T) {
	cli := hookwireCLI(t)
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, "hooks.json"), map[string]any{"hooks": map[string]any{
		"enabled": true,
		"processes": map[string]any{"sdk_go": map[string]any{
			"enabled":   true,
			"command":   []string{os.Args[0], "-test.run=^$"},
			"env":       map[string]string{"HOOKWIRE_TEST_HOOK": "plugin"},
			"intercept": []string{"before_llm", "before_tool", "approve_tool", "after_tool"},
			"observe":   []string{"agent.tool.*"},
		}},
	}})
	writeJSON(t, filepath.Join(dir, "scenario.json"), map[string]any{
		"prompt": "Weather in Beijing, and echo hi",
		"replies": []any{
			map[string]any{"tool_calls": []any{
				map[string]any{"name": "get_weather", "arguments": map[string]any{"city": "Beijing"}},
				map[string]any{"name": "get_weather", "arguments": map[string]any{"town": "Paris"}},
				map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "hi"}},
				map[string]any{"name": "read_file", "arguments": map[string]any{"path": "scenario.json"}},
			}},
			map[string]any{"content": "Sunny in Beijing."},
		},
	})
	trace := filepath.Join(dir, "trace.jsonl")
	run := exec.Command(cli, "run", "--json", "--trace", trace, "--hooks", filepath.Join(dir, "hooks.json"), filepath.Join(dir, "scenario.json"))
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("hookwire run: %v\n%s", err, stderr.String())
	}

	var tools []map[string]any
	var end map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		switch rec["type"] {
		case "tool":
			delete(rec, "duration_ms")
			tools = append(tools, rec)
		case "llm_request":
			if got := rec["tools"]; !reflect.DeepEqual(got, []any{"echo_text", "read_file", "get_weather"}) {
				t.Errorf("the LLM was offered %v", got)
			}
		case "turn_end":
			end = rec
		}
	}
	want := []map[string]any{
		{"type": "tool", "tool": "get_weather", "arguments": map[string]any{"city": "Beijing"}, "outcome": "answered", "by": "sdk_go",
			"result": map[string]any{"for_llm": "Beijing weather: Sunny", "is_error": false}},
		{"type": "tool", "tool": "get_weather", "arguments": map[string]any{"town": "Paris"}, "outcome": "answered", "by": "sdk_go",
			"result": map[string]any{"for_llm": `invalid arguments for get_weather: argument "city" is missing`, "is_error": true}},
		{"type": "tool", "tool": "echo_text", "arguments": map[string]any{"text": "hi"}, "outcome": "ran",
			"result": map[string]any{"for_llm": "HI", "is_error": false}},
		{"type": "tool", "tool": "read_file", "arguments": map[string]any{"path": "scenario.json"}, "outcome": "unapproved", "by": "sdk_go"},
	}
	if len(tools) != len(want) {
		t.Fatalf("tool records:\n%v\nwant:\n%v", tools, want)
	}
	for i := range want {
		for k, v := range want[i] {
			if !reflect.DeepEqual(tools[i][k], v) {
				t.Errorf("tool call %d: %s is %#v, want %#v", i+1, k, tools[i][k], v)
			}
		}
	}
	if end["status"] != "done" {
		t.Errorf("the turn ended %v", end)
	}
	for _, kind := range []string{KindAgentToolExecStart, KindAgentToolExecEnd, KindAgentToolExecSkipped} {
		if !strings.Contains(stderr.String(), "kind="+kind) {
			t.Errorf("the observer did not log %s; stderr:\n%s", kind, stderr.String())
		}
	}

	// Every line the hook wrote is a valid protocol message.
	validate := exec.Command(cli, "validate", trace)
	if out, err := validate.CombinedOutput(); err != nil {
		t.Errorf("hookwire validate of the wire trace: %v\n%s", err, out)
	}
}

// PicoClaw's host announces no line limit and stops reading a hook for good
// at a reply line over 1 MiB: the hook ends the turn instead of letting the
// call through unchanged, and the next turn's calls still reach it.
func TestATwoMegabyteBeforeLLMModifyUnderPicoClawAbortsTheTurnAndLeavesTheHookAnswering(t *testing.T) {
	cli := hookwireCLI(t)
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, "hooks.json"), map[string]any{"hooks": map[string]any{
		"enabled": true,
		"processes": map[string]any{"minimal": map[string]any{
			"enabled":   true,
			"command":   []string{os.Args[0], "-test.run=^$"},
			"env":       map[string]string{"HOOKWIRE_TEST_HOOK": "minimal"},
			"intercept": []string{"before_llm", "before_tool"},
		}},
	}})
	writeJSON(t, filepath.Join(dir, "scenario.json"), map[string]any{"turns": []any{
		map[string]any{
			"prompt":  strings.Repeat("a long conversation ", 100_000), // 2 MB
			"replies": []any{map[string]any{"content": "never read"}},
		},
		map[string]any{
			"session": "another", // without the long conversation
			"prompt":  "clean up",
			"replies": []any{
				map[string]any{"tool_calls": []any{map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "rm -rf /"}}}},
				map[string]any{"content": "done"},
			},
		},
	}})
	run := exec.Command(cli, "run", "--host", "picoclaw", "--json", "--hooks", filepath.Join(dir, "hooks.json"), filepath.Join(dir, "scenario.json"))
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	_ = run.Run() // a turn ends aborted: the transcript says how
	if !strings.Contains(stderr.String(), "a reply is longer than the host reads in a line; sending a refusal instead") {
		t.Errorf("no warning from the hook; stderr:\n%.2000s", stderr.String())
	}
	var denied bool
	var ends []any
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("transcript line %.200q: %v", line, err)
		}
		if rec["type"] == "tool" && rec["tool"] == "echo_text" {
			denied = rec["outcome"] == "denied" && rec["by"] == "minimal"
		}
		if rec["type"] == "turn_end" {
			ends = append(ends, rec["status"])
		}
	}
	if len(ends) != 2 || ends[0] == "done" {
		t.Errorf("the long modify's turn went on: turn ends %v\n%.3000s", ends, stdout.String())
	}
	if !denied {
		t.Errorf("the guard did not answer the call after the long modify:\n%.3000s", stdout.String())
	}
}
