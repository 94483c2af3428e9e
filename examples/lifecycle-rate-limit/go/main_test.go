package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

func beforeTool(t *testing.T, h *hookwire.Hook, tool string) string {
	t.Helper()
	raw, err := h.Call(context.Background(), hookwire.MethodBeforeTool,
		hookwire.BeforeToolParams{Meta: &hookwire.Meta{SessionKey: hookwire.Ptr("s1")}, Tool: tool, Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestEachToolIsSkippedWithTheReasonOnceItHasHadItsCalls(t *testing.T) {
	h := newHook(2)
	const through = `{"action":"continue"}`
	var got []string
	for _, tool := range []string{"echo_text", "echo_text", "shell", "echo_text", "shell", "echo_text", "shell"} {
		got = append(got, tool+" "+beforeTool(t, h, tool))
	}
	want := []string{
		"echo_text " + through,
		"echo_text " + through,
		"shell " + through,
		`echo_text {"action":"deny_tool","reason":"echo_text call count exceeded the limit (2)"}`,
		"shell " + through,
		`echo_text {"action":"deny_tool","reason":"echo_text call count exceeded the limit (2)"}`,
		`shell {"action":"deny_tool","reason":"shell call count exceeded the limit (2)"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// The SDK handles calls concurrently: the count holds however many come
// in together.
func TestCallsThatComeTogetherAreCountedExactly(t *testing.T) {
	h := newHook(20)
	var wg sync.WaitGroup
	var mu sync.Mutex
	replies := map[string]int{}
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reply := beforeTool(t, h, "echo_text")
			mu.Lock()
			defer mu.Unlock()
			replies[reply]++
		}()
	}
	wg.Wait()
	want := map[string]int{`{"action":"continue"}`: 20, `{"action":"deny_tool","reason":"echo_text call count exceeded the limit (20)"}`: 30}
	if fmt.Sprint(replies) != fmt.Sprint(want) {
		t.Errorf("replies %v, want %v", replies, want)
	}
}

// Under the reference runtime, with the committed hooks.json (a limit of
// 2) and scenario: the third echo is skipped, the LLM is told why, and
// shell, a tool of its own count, runs.
func TestUnderTheReferenceRuntime(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "hookwire")
	t.Cleanup(func() { os.Remove("lifecycle-rate-limit") })
	for _, build := range []*exec.Cmd{
		exec.Command("go", "build", "-o", cli, "github.com/hookwire/hookwire/core/cmd/hookwire"),
		exec.Command("go", "build", "-o", "lifecycle-rate-limit", "."), // what hooks.json runs
	} {
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", build, err, out)
		}
	}
	run := exec.Command(cli, "run", "--json", "--messages", "--hooks", "hooks.json", "scenario.json")
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("hookwire run: %v\n%s", err, stderr.String())
	}

	var tools, toolMessages []string
	var status string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var rec struct {
			Type      string         `json:"type"`
			Tool      string         `json:"tool"`
			Arguments map[string]any `json:"arguments"`
			Outcome   string         `json:"outcome"`
			By        string         `json:"by"`
			Reason    string         `json:"reason"`
			Status    string         `json:"status"`
			Messages  []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		switch rec.Type {
		case "tool":
			tools = append(tools, strings.TrimSpace(fmt.Sprint(rec.Tool, " ", rec.Arguments, " ", rec.Outcome, " ", rec.By, " ", rec.Reason)))
		case "llm_request":
			toolMessages = nil // the last request has them all
			for _, m := range rec.Messages {
				if m.Role == "tool" {
					toolMessages = append(toolMessages, m.Content)
				}
			}
		case "turn_end":
			status = rec.Status
		}
	}
	wantTools := []string{
		"echo_text map[text:hello 1] ran",
		"echo_text map[text:hello 2] ran",
		"echo_text map[text:hello 3] denied rate_limit echo_text call count exceeded the limit (2)",
		"shell map[command:ls build] ran",
	}
	if !slices.Equal(tools, wantTools) {
		t.Errorf("tool calls:\n  %s\nwant\n  %s", strings.Join(tools, "\n  "), strings.Join(wantTools, "\n  "))
	}
	wantSeen := []string{"hello 1", "hello 2", "tool echo_text was denied by hook rate_limit: echo_text call count exceeded the limit (2)", "would run: ls build"}
	if !slices.Equal(toolMessages, wantSeen) {
		t.Errorf("the LLM saw:\n  %s\nwant\n  %s", strings.Join(toolMessages, "\n  "), strings.Join(wantSeen, "\n  "))
	}
	if status != "done" {
		t.Errorf("the turn ended %q", status)
	}
}
