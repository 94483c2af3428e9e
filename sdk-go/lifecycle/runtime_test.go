//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package lifecycle

// Lifecycle hooks as a real process under the reference runtime: a scripted
// scenario of four turns in three sessions (tool success, tool failure, a
// denial, an abort, a two-round turn, a second session), asserted on the
// transcript (what the tools ran with, what the LLM saw) and on what the
// callbacks recorded. The hook is this test binary, started again with
// LIFECYCLE_TEST_HOOK set.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// record is what a callback of the test hook saw, one JSON line each.
type record struct {
	As            string          `json:"as"`
	Event         Event           `json:"event"`
	SessionID     string          `json:"sessionId"`
	Message       string          `json:"message,omitempty"`
	ToolName      string          `json:"toolName,omitempty"`
	ToolInput     map[string]any  `json:"toolInput,omitempty"`
	ToolOutput    string          `json:"toolOutput,omitempty"`
	Error         string          `json:"error,omitempty"`
	ToolKind      string          `json:"toolKind,omitempty"`
	AffectedPaths []string        `json:"affectedPaths,omitzero"`
	Payload       json.RawMessage `json:"payload,omitempty"`
}

// testHook is the hook the scenario runs: every callback appends what it
// saw to the file LIFECYCLE_RECORD names, and some change what the tool
// and the LLM get.
func testHook() *hookwire.Hook {
	file := cmp.Or(os.Getenv("LIFECYCLE_RECORD"), "lifecycle.jsonl")
	var mu sync.Mutex
	rec := func(as string) Callback {
		return func(_ context.Context, in Input) (Output, error) {
			r := record{As: as, Event: in.Event, SessionID: in.SessionID, Message: in.Message, ToolName: in.ToolName, ToolInput: in.ToolInput,
				ToolOutput: in.ToolOutput.ForLLM, ToolKind: string(in.ToolKind), AffectedPaths: in.AffectedPaths, Payload: in.Payload}
			if in.Event == PermissionRequest && r.AffectedPaths == nil {
				r.AffectedPaths = []string{}
			}
			if in.Error != nil {
				r.Error = in.Error.Error()
			}
			line, err := json.Marshal(r)
			if err != nil {
				return Output{}, err
			}
			mu.Lock()
			defer mu.Unlock()
			f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return Output{}, err
			}
			defer f.Close()
			_, err = f.Write(append(line, '\n'))
			return Output{Action: Continue}, err
		}
	}
	return New("lifecycle-hook", Options{
		Hooks: Hooks{
			SessionStart: {rec("start")},
			UserPromptSubmit: {
				func(_ context.Context, in Input) (Output, error) {
					return Output{Action: Continue, ModifiedInput: in.Message + " (checked)"}, nil
				},
				rec("prompt"),
			},
			PreToolUse: {
				rec("pre 1"),
				func(_ context.Context, in Input) (Output, error) {
					if in.ToolName == "echo_text" {
						text, _ := in.ToolInput["text"].(string)
						return Output{Action: Continue, ModifiedInput: map[string]any{"text": strings.ToUpper(text)}}, nil
					}
					return Output{Action: Continue}, nil
				},
				func(_ context.Context, in Input) (Output, error) {
					switch in.ToolName {
					case "echo_text":
						return Output{}, errors.New("monitoring is down")
					case "read_file":
						panic("monitoring broke")
					}
					return Output{Action: Continue}, nil
				},
				func(_ context.Context, in Input) (Output, error) {
					command, _ := in.ToolInput["command"].(string)
					switch {
					case strings.Contains(command, "rm -rf"):
						return Output{Action: Skip, Reason: "dangerous command: " + command}, nil
					case strings.Contains(command, "mkfs"):
						return Output{Action: Abort, Reason: "dangerous command, turn ended: " + command}, nil
					}
					return Output{Action: Continue}, nil
				},
				rec("pre 2"),
			},
			PermissionRequest: {rec("permission")},
			PostToolUse: {
				func(_ context.Context, in Input) (Output, error) {
					if in.ToolName == "echo_text" {
						return Output{Action: Continue, ModifiedOutput: "echoed: " + in.ToolOutput.ForLLM}, nil
					}
					return Output{Action: Continue}, nil
				},
				rec("post"),
			},
			PostToolUseFailure: {
				rec("failure"),
				func(context.Context, Input) (Output, error) {
					return Output{Action: Continue, ModifiedOutput: "no such file; carry on without it"}, nil
				},
			},
			TaskCompleted: {rec("completed")},
			SessionEnd:    {rec("end")},
		},
		CanUseTool: func(_ context.Context, _ string, input map[string]any, opts CanUseToolOptions) (PermissionResult, error) {
			if opts.ToolKind == hookwire.ToolKindExecute {
				return PermissionResult{Behavior: Allow, UpdatedInput: map[string]any{"command": fmt.Sprint(input["command"], " --dry-run")}}, nil
			}
			return PermissionResult{Behavior: Allow}, nil
		},
	})
}

var cliBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	if os.Getenv("LIFECYCLE_TEST_HOOK") != "" {
		testHook().Main()
		os.Exit(0)
	}
	code := m.Run()
	if cliBuild.dir != "" {
		os.RemoveAll(cliBuild.dir)
	}
	os.Exit(code)
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

var scenario = map[string]any{
	"tools": []string{"echo_text", "read_file", "shell"},
	"turns": []any{
		map[string]any{"session": "alice", "prompt": "Echo hello, read missing.txt, clean the build", "replies": []any{
			map[string]any{"tool_calls": []any{
				map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "hello"}},
				map[string]any{"name": "read_file", "arguments": map[string]any{"path": "missing.txt"}},
				map[string]any{"name": "shell", "arguments": map[string]any{"command": "rm -rf build"}},
				map[string]any{"name": "shell", "arguments": map[string]any{"command": "ls build"}},
			}},
			map[string]any{"content": "Done."},
		}},
		map[string]any{"session": "bob", "prompt": "Say hi", "replies": []any{map[string]any{"content": "Hi."}}, "end_session": true},
		map[string]any{"session": "carol", "prompt": "Format the disk", "replies": []any{
			map[string]any{"tool_calls": []any{map[string]any{"name": "shell", "arguments": map[string]any{"command": "mkfs /dev/sdb"}}}},
		}},
		map[string]any{"session": "alice", "prompt": "Thanks", "replies": []any{map[string]any{"content": "You are welcome."}}},
	},
}

// step is one line of a `hookwire run --json` transcript.
type step struct {
	Type      string           `json:"type"`
	Tool      string           `json:"tool"`
	Arguments map[string]any   `json:"arguments"`
	Outcome   string           `json:"outcome"`
	Reason    string           `json:"reason"`
	Status    string           `json:"status"`
	Messages  []map[string]any `json:"messages"`
}

type played struct {
	steps    []step
	recorded []record
	stderr   string
	dir      string
}

// play runs the scenario with the test hook under `hookwire run`, with or
// without the session events observed.
func play(t *testing.T, observe bool) played {
	t.Helper()
	cli := hookwireCLI(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "recorded.jsonl")
	process := map[string]any{
		"enabled":   true,
		"command":   []string{os.Args[0], "-test.run=^$"},
		"env":       map[string]string{"LIFECYCLE_TEST_HOOK": "1", "LIFECYCLE_RECORD": file},
		"intercept": []string{"before_llm", "before_tool", "approve_tool", "after_tool"},
	}
	if observe {
		process["observe"] = []string{"agent.session.*", "agent.turn.end"}
	}
	writeJSON(t, filepath.Join(dir, "hooks.json"), map[string]any{"hooks": map[string]any{"enabled": true, "processes": map[string]any{"lifecycle": process}}})
	writeJSON(t, filepath.Join(dir, "scenario.json"), scenario)

	run := exec.Command(cli, "run", "--json", "--messages", "--hooks", filepath.Join(dir, "hooks.json"), filepath.Join(dir, "scenario.json"))
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("hookwire run: %v\n%s", err, stderr.String())
	}
	p := played{stderr: stderr.String(), dir: dir}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var s step
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		p.steps = append(p.steps, s)
	}
	p.recorded = readRecords(t, file)
	return p
}

func readRecords(t *testing.T, file string) []record {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var records []record
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("recorded %q: %v", sc.Text(), err)
		}
		records = append(records, r)
	}
	return records
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

func (p played) of(session string) []record {
	var out []record
	for _, r := range p.recorded {
		if r.SessionID == session {
			out = append(out, r)
		}
	}
	return out
}

// brief is a record as "as tool input" or "as message", short enough to
// compare lists.
func brief(r record) string {
	switch {
	case r.ToolName != "":
		args, _ := json.Marshal(r.ToolInput)
		return r.As + " " + r.ToolName + " " + string(args)
	case r.Message != "":
		return r.As + " " + r.Message
	}
	return r.As
}

func TestUnderTheReferenceRuntime(t *testing.T) {
	p := play(t, true)
	calls := func(session string) []string {
		var out []string
		for _, r := range p.of(session) {
			if r.As != "completed" && r.As != "end" {
				out = append(out, brief(r))
			}
		}
		return out
	}

	t.Run("every turn is played; the abort ends only its own", func(t *testing.T) {
		var ends []string
		for _, s := range p.steps {
			if s.Type == "turn_end" {
				ends = append(ends, strings.TrimSpace(s.Status+" "+s.Reason))
			}
		}
		equal(t, "turn ends", ends, []string{"done", "done", "aborted dangerous command, turn ended: mkfs /dev/sdb", "done"})
	})

	t.Run("each event fires at its point of the turn, in the order of the callbacks", func(t *testing.T) {
		equal(t, "alice", calls("alice"), []string{
			"start",
			"prompt Echo hello, read missing.txt, clean the build (checked)",
			// Tool success: the second PreToolUse record sees the change of a callback before it.
			`pre 1 echo_text {"text":"hello"}`,
			`pre 2 echo_text {"text":"HELLO"}`,
			`permission echo_text {"text":"HELLO"}`,
			`post echo_text {"text":"HELLO"}`,
			// Tool failure.
			`pre 1 read_file {"path":"missing.txt"}`,
			`pre 2 read_file {"path":"missing.txt"}`,
			`permission read_file {"path":"missing.txt"}`,
			`failure read_file {"path":"missing.txt"}`,
			// Denial: the skip stops the callbacks after it, and the tool.
			`pre 1 shell {"command":"rm -rf build"}`,
			// canUseTool's updated input is what the tool ran with, and what after_tool reports.
			`pre 1 shell {"command":"ls build"}`,
			`pre 2 shell {"command":"ls build"}`,
			`permission shell {"command":"ls build"}`,
			`post shell {"command":"ls build --dry-run"}`,
			// The turn's second LLM round is no new prompt; the session's second turn is.
			"prompt Thanks (checked)",
		})
		equal(t, "bob", calls("bob"), []string{"start", "prompt Say hi (checked)"})
		equal(t, "carol", calls("carol"), []string{"start", "prompt Format the disk (checked)", `pre 1 shell {"command":"mkfs /dev/sdb"}`})
	})

	t.Run("each session starts once and ends once, after all else of it", func(t *testing.T) {
		for _, session := range []string{"alice", "bob", "carol"} {
			var events []string
			for _, r := range p.of(session) {
				events = append(events, string(r.Event))
			}
			starts, ends := 0, 0
			for _, e := range events {
				starts += boolInt(e == string(SessionStart))
				ends += boolInt(e == string(SessionEnd))
			}
			if len(events) == 0 || events[0] != string(SessionStart) || events[len(events)-1] != string(SessionEnd) || starts != 1 || ends != 1 {
				t.Errorf("%s: %v", session, events)
			}
		}
	})

	t.Run("TaskCompleted fires after each turn, with the turn's status", func(t *testing.T) {
		for session, want := range map[string][]string{"alice": {"done", "done"}, "bob": {"done"}, "carol": {"aborted"}} {
			var got []string
			for _, r := range p.of(session) {
				if r.Event == TaskCompleted {
					var payload struct{ Status string }
					json.Unmarshal(r.Payload, &payload)
					got = append(got, payload.Status)
				}
			}
			equal(t, session, got, want)
		}
	})

	t.Run("the callbacks get the failure's text, and the tool's kind and paths", func(t *testing.T) {
		var failures, permissions []string
		for _, r := range p.recorded {
			switch r.Event {
			case PostToolUseFailure:
				failures = append(failures, r.Error)
			case PermissionRequest:
				permissions = append(permissions, fmt.Sprint(r.ToolName, " ", r.ToolKind, " ", r.AffectedPaths))
			}
		}
		equal(t, "failures", failures, []string{"read_file: missing.txt: no such file or directory"})
		equal(t, "permission requests", permissions, []string{
			"echo_text readonly []", "read_file readonly [" + filepath.Join(p.dir, "missing.txt") + "]", "shell execute []",
		})
	})

	t.Run("the tools run with the modified input, and the skipped one is denied with its reason, though callbacks failed", func(t *testing.T) {
		var tools []string
		for _, s := range p.steps {
			if s.Type == "tool" {
				args, _ := json.Marshal(s.Arguments)
				tools = append(tools, strings.TrimSpace(fmt.Sprint(s.Tool, " ", string(args), " ", s.Outcome, " ", s.Reason)))
			}
		}
		equal(t, "tool calls", tools, []string{
			`echo_text {"text":"HELLO"} ran`,
			`read_file {"path":"missing.txt"} ran`,
			`shell {"command":"rm -rf build"} denied dangerous command: rm -rf build`,
			`shell {"command":"ls build --dry-run"} ran`,
		})
		for _, want := range []string{
			`event=PreToolUse callback=3 err="monitoring is down"`,
			`event=PreToolUse callback=3 err="panic: monitoring broke"`,
		} {
			if strings.Count(p.stderr, want) != 1 {
				t.Errorf("the hook's log has %q %d times, want once:\n%s", want, strings.Count(p.stderr, want), p.stderr)
			}
		}
	})

	t.Run("the LLM sees the modified prompt and the modified tool outputs", func(t *testing.T) {
		var requests [][]map[string]any
		for _, s := range p.steps {
			if s.Type == "llm_request" {
				requests = append(requests, s.Messages)
			}
		}
		if len(requests) < 3 {
			t.Fatalf("%d LLM requests", len(requests))
		}
		if want := []map[string]any{{"role": "user", "content": "Echo hello, read missing.txt, clean the build (checked)"}}; !reflect.DeepEqual(requests[0], want) {
			t.Errorf("the first request's messages: %v", requests[0])
		}
		var outputs []string
		for _, m := range requests[1] {
			if m["role"] == "tool" {
				outputs = append(outputs, fmt.Sprint(m["content"]))
			}
		}
		equal(t, "tool outputs the LLM saw", outputs, []string{
			"echoed: HELLO",
			"no such file; carry on without it",
			"tool shell was denied by hook lifecycle: dangerous command: rm -rf build",
			"would run: ls build --dry-run",
		})
		if want := []map[string]any{{"role": "user", "content": "Say hi (checked)"}}; !reflect.DeepEqual(requests[2], want) {
			t.Errorf("bob's request's messages: %v", requests[2])
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestUnderAHostThatSendsNoSessionEventsSessionsEndWhenTheHookStops(t *testing.T) {
	p := play(t, false)
	sessions := func(event Event) []string {
		var out []string
		for _, r := range p.recorded {
			if r.Event == event {
				out = append(out, r.SessionID)
			}
		}
		return out
	}
	equal(t, "SessionStart", sessions(SessionStart), []string{"alice", "bob", "carol"})
	equal(t, "SessionEnd", sessions(SessionEnd), []string{"alice", "bob", "carol"})
	equal(t, "TaskCompleted", sessions(TaskCompleted), nil)
	if last := p.recorded[len(p.recorded)-1]; last.Event != SessionEnd {
		t.Errorf("the last record is %+v", last)
	}
}

func TestAHookStoppedByASignalEndsItsOpenSessionsBeforeItExits(t *testing.T) {
	dir := t.TempDir()
	hook := exec.Command(os.Args[0], "-test.run=^$")
	hook.Env = append(os.Environ(), "LIFECYCLE_TEST_HOOK=1", "LIFECYCLE_RECORD="+filepath.Join(dir, "recorded.jsonl"))
	hook.Stderr = os.Stderr
	stdin, err := hook.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := hook.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	replies := bufio.NewReader(stdout)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"lifecycle","version":1,"modes":["tool"]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"meta":{"SessionKey":"s9"},"tool":"echo_text","arguments":{"text":"x"}}}`,
	} {
		io.WriteString(stdin, line+"\n")
		if _, err := replies.ReadString('\n'); err != nil {
			t.Fatalf("no reply to %s: %v", line, err)
		}
	}
	hook.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- hook.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the hook exited with %v", err)
		}
	case <-time.After(20 * time.Second):
		hook.Process.Kill()
		t.Fatal("the hook did not exit on SIGTERM")
	}
	var got []string
	for _, r := range readRecords(t, filepath.Join(dir, "recorded.jsonl")) {
		got = append(got, string(r.Event)+" "+r.SessionID)
	}
	equal(t, "recorded", got, []string{"SessionStart s9", "PreToolUse s9", "PreToolUse s9", "SessionEnd s9"})
}
