package lifecycle

// The layer in-process: each event fires from the protocol call or event it
// maps to, its outcomes become the replies of the design, and the rules
// within one hook hold (order, chained input, the first skip or abort
// stops the rest, a failing callback counts as continue).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

var ctx = context.Background()

// logBuffer is a Logger's output that a test can read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// recorder keeps what callbacks saw, as "as detail" lines.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (r *recorder) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, line)
}

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

// cb is a callback that records what it saw, and continues.
func (r *recorder) cb(as string) Callback {
	return func(_ context.Context, in Input) (Output, error) {
		r.add(as + " " + detail(in))
		return Output{Action: Continue}, nil
	}
}

func detail(in Input) string {
	switch in.Event {
	case UserPromptSubmit:
		return in.SessionID + " " + in.Message
	case PreToolUse, PermissionRequest:
		args, _ := json.Marshal(in.ToolInput)
		return in.SessionID + " " + in.ToolName + " " + string(args)
	case PostToolUse:
		return in.SessionID + " " + in.ToolName + " " + in.ToolOutput.ForLLM
	case PostToolUseFailure:
		return in.SessionID + " " + in.ToolName + " " + in.Error.Error()
	case TaskCompleted:
		return in.SessionID + " " + string(in.Payload)
	}
	return in.SessionID
}

func answer(out Output) Callback {
	return func(context.Context, Input) (Output, error) { return out, nil }
}

func setup(opts Options) (*hookwire.Hook, *logBuffer) {
	var logs logBuffer
	h := New("lc", opts)
	h.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	return h, &logs
}

// call sends one request and returns its result as compact JSON.
func call(t *testing.T, h *hookwire.Hook, method, params string) string {
	t.Helper()
	raw, err := h.Call(ctx, method, []byte(params))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func event(t *testing.T, h *hookwire.Hook, kind, session, payload string) {
	t.Helper()
	if _, err := h.Call(ctx, hookwire.MethodRuntimeEvent, []byte(`{"kind":"`+kind+`","source":{},"scope":{"session_key":"`+session+`"},"payload":`+payload+`}`)); err != nil {
		t.Fatal(err)
	}
}

func jsonEqual(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%v: %s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const (
	llmCall  = `{"meta":{"SessionKey":"s1","TurnID":"t1"},"model":"m","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Read notes.txt"}],"tools":[{"type":"function","function":{"name":"read_file"}}],"options":{"temperature":0},"channel":"cli","x_host":1}`
	toolCall = `{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"shell","arguments":{"command":"ls"},"chat_id":"c1","x_host":1}`
)

func afterTool(tool, result string) string {
	return `{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"` + tool + `","arguments":{"path":"notes.txt"},"result":` + result + `,"duration":1500,"x_host":1}`
}

func TestHelloModesFollowFromTheEventsThatHaveCallbacks(t *testing.T) {
	noop := answer(Output{})
	allow := func(context.Context, string, map[string]any, CanUseToolOptions) (PermissionResult, error) {
		return PermissionResult{Behavior: Allow}, nil
	}
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Hooks: Hooks{UserPromptSubmit: {noop}}}, "[llm]"},
		{Options{Hooks: Hooks{PreToolUse: {noop}}}, "[tool]"},
		{Options{Hooks: Hooks{PostToolUseFailure: {noop}}}, "[tool]"},
		{Options{Hooks: Hooks{PermissionRequest: {noop}}}, "[approve]"},
		{Options{CanUseTool: allow}, "[approve]"},
		{Options{Hooks: Hooks{SessionStart: {noop}}}, "[observe]"},
		{Options{Hooks: Hooks{TaskCompleted: {noop}}}, "[observe]"},
		{Options{Hooks: Hooks{SessionEnd: {noop}, PostToolUse: {noop}}, CanUseTool: allow}, "[observe tool approve]"},
		{Options{Hooks: Hooks{SessionEnd: {}}}, "[]"},
	} {
		if got := fmt.Sprint(New("lc", c.opts).Modes()); got != c.want {
			t.Errorf("%v: modes %s, want %s", c.opts.Hooks, got, c.want)
		}
	}
}

func TestNewRefusesAnUnknownEventAndANilCallback(t *testing.T) {
	for _, hooks := range []Hooks{{"PreToolUsed": {answer(Output{})}}, {PreToolUse: {answer(Output{}), nil}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%v) did not panic", hooks)
				}
			}()
			New("lc", Options{Hooks: hooks})
		}()
	}
}

func TestSessionStartFiresOnceForEachSessionKeyWhereverItIsFirstSeen(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{SessionStart: {r.cb("start")}, PreToolUse: {r.cb("pre")}, SessionEnd: {r.cb("end")}}})
	call(t, h, hookwire.MethodBeforeTool, toolCall)                                          // a call's meta.SessionKey
	call(t, h, hookwire.MethodBeforeTool, toolCall)                                          // the same session
	event(t, h, "agent.turn.start", "s2", `{}`)                                              // an event's scope.session_key
	event(t, h, "agent.session.start", "", `{"SessionKey":"s3"}`)                            // an event's payload, with no scope
	event(t, h, "agent.turn.start", "", `{"SessionKey":"s4"}`)                               // of any kind
	event(t, h, "agent.session.start", "s1", `{"SessionKey":"s1"}`)                          // already started
	call(t, h, hookwire.MethodBeforeTool, `{"tool":"echo_text","arguments":{"text":"hi"}}`)  // no key: the session ""
	event(t, h, "agent.session.end", "s1", `{"SessionKey":"s1","Turns":1,"Reason":"ended"}`) // ends it
	call(t, h, hookwire.MethodBeforeTool, toolCall)                                          // a new session of the same key
	equal(t, "callbacks", r.lines(), []string{
		"start s1", `pre s1 shell {"command":"ls"}`, `pre s1 shell {"command":"ls"}`,
		"start s2", "start s3", "start s4",
		"start ", `pre  echo_text {"text":"hi"}`,
		"end s1",
		"start s1", `pre s1 shell {"command":"ls"}`,
	})
}

// Calls of a new session that arrive together run their callbacks after
// the session's SessionStart callbacks, which run once.
func TestCallsOfASessionWaitForItsSessionStart(t *testing.T) {
	var r recorder
	release := make(chan struct{})
	starting := make(chan struct{})
	h, _ := setup(Options{Hooks: Hooks{
		SessionStart: {func(context.Context, Input) (Output, error) {
			close(starting)
			<-release
			r.add("start done")
			return Output{}, nil
		}},
		PreToolUse: {r.cb("pre")},
	}})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); call(t, h, hookwire.MethodBeforeTool, toolCall) }()
	<-starting
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); call(t, h, hookwire.MethodBeforeTool, toolCall) }()
	}
	time.Sleep(20 * time.Millisecond) // room for a call that would not wait
	close(release)
	wg.Wait()
	pre := `pre s1 shell {"command":"ls"}`
	equal(t, "callbacks", r.lines(), []string{"start done", pre, pre, pre, pre})
}

func TestUserPromptSubmitFiresOnTheFirstLLMCallOfEachTurn(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{UserPromptSubmit: {r.cb("prompt")}}})
	second := strings.Replace(llmCall, `"content":"Read notes.txt"}]`, `"content":"Read notes.txt"},{"role":"tool","content":"Ship it","tool_call_id":"c1"}]`, 1)
	newTurn := strings.Replace(llmCall, `"TurnID":"t1"`, `"TurnID":"t2"`, 1)
	otherSession := strings.Replace(llmCall, `"SessionKey":"s1"`, `"SessionKey":"s2"`, 1)
	noTurnID := `{"model":"m","messages":[{"role":"user","content":"Hi"}]}`
	noTurnIDLater := `{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"","tool_calls":[]},{"role":"tool","content":"x","tool_call_id":"c"}]}`
	for _, params := range []string{llmCall, second, newTurn, otherSession, noTurnID, noTurnIDLater} {
		jsonEqual(t, call(t, h, hookwire.MethodBeforeLLM, params), `{"action":"continue"}`)
	}
	equal(t, "callbacks", r.lines(), []string{"prompt s1 Read notes.txt", "prompt s1 Read notes.txt", "prompt s2 Read notes.txt", "prompt  Hi"})
}

func TestUserPromptSubmitModifiedInputReplacesTheUserMessageInTheWholeRequest(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{UserPromptSubmit: {
		func(_ context.Context, in Input) (Output, error) {
			return Output{ModifiedInput: in.Message + " (checked)"}, nil // the empty action is continue
		},
		r.cb("prompt"), // sees the change
	}}})
	jsonEqual(t, call(t, h, hookwire.MethodBeforeLLM, llmCall), `{"action":"modify","request":{"meta":{"SessionKey":"s1","TurnID":"t1"},"model":"m",
		"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Read notes.txt (checked)"}],
		"tools":[{"type":"function","function":{"name":"read_file"}}],"options":{"temperature":0},"channel":"cli","x_host":1}}`)
	equal(t, "callbacks", r.lines(), []string{"prompt s1 Read notes.txt (checked)"})
}

func TestUserPromptSubmitModifiedInputThatLeavesTheTextAsItWasIsContinue(t *testing.T) {
	h, _ := setup(Options{Hooks: Hooks{UserPromptSubmit: {
		func(_ context.Context, in Input) (Output, error) {
			return Output{ModifiedInput: in.Message}, nil
		},
	}}})
	jsonEqual(t, call(t, h, hookwire.MethodBeforeLLM, llmCall), `{"action":"continue"}`)
}

func TestUserPromptSubmitAbortEndsTheTurnAndSkipIsContinue(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{UserPromptSubmit: {
		func(_ context.Context, in Input) (Output, error) {
			switch {
			case strings.Contains(in.Message, "password"):
				return Output{Action: Abort, Reason: "no passwords here"}, nil
			case strings.Contains(in.Message, "skip"):
				return Output{Action: Skip, Reason: "skipped"}, nil
			}
			return Output{Action: Continue}, nil
		},
		r.cb("after"),
	}}})
	abort := strings.Replace(llmCall, "Read notes.txt", "my password is hunter2", 1)
	jsonEqual(t, call(t, h, hookwire.MethodBeforeLLM, abort), `{"action":"abort_turn","reason":"no passwords here"}`)
	skip := strings.Replace(strings.Replace(llmCall, "Read notes.txt", "skip this", 1), "t1", "t2", 1)
	jsonEqual(t, call(t, h, hookwire.MethodBeforeLLM, skip), `{"action":"continue"}`)
	equal(t, "callbacks after the first", r.lines(), nil)
}

func TestUserPromptSubmitIgnoresAModifiedInputThatIsNotText(t *testing.T) {
	h, logs := setup(Options{Hooks: Hooks{UserPromptSubmit: {answer(Output{ModifiedInput: 42})}}})
	jsonEqual(t, call(t, h, hookwire.MethodBeforeLLM, llmCall), `{"action":"continue"}`)
	if !strings.Contains(logs.String(), "ModifiedInput is a int, not the message's new text") {
		t.Errorf("log:\n%s", logs)
	}
}

func TestPreToolUseCallbacksRunInOrderEachSeeingTheInputAsTheOneBeforeLeftIt(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{PreToolUse: {
		r.cb("first"),
		func(_ context.Context, in Input) (Output, error) {
			return Output{Action: Continue, ModifiedInput: map[string]any{"command": in.ToolInput["command"].(string) + " -la"}}, nil
		},
		r.cb("third"),
		func(_ context.Context, in Input) (Output, error) { // any value that encodes to an object
			return Output{ModifiedInput: struct {
				Command string `json:"command"`
				Dir     string `json:"dir"`
			}{in.ToolInput["command"].(string), "build"}}, nil
		},
		r.cb("fifth"),
	}}})
	jsonEqual(t, call(t, h, hookwire.MethodBeforeTool, toolCall),
		`{"action":"modify","call":{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"shell","arguments":{"command":"ls -la","dir":"build"},"chat_id":"c1","x_host":1}}`)
	equal(t, "callbacks", r.lines(), []string{
		`first s1 shell {"command":"ls"}`,
		`third s1 shell {"command":"ls -la"}`,
		`fifth s1 shell {"command":"ls -la","dir":"build"}`,
	})
}

func TestPreToolUseContinueLetsTheCallThrough(t *testing.T) {
	h, _ := setup(Options{Hooks: Hooks{PreToolUse: {answer(Output{Action: Continue})}}})
	jsonEqual(t, call(t, h, hookwire.MethodBeforeTool, toolCall), `{"action":"continue"}`)
}

func TestTheFirstSkipOrAbortStopsTheCallbacksAfterIt(t *testing.T) {
	for _, c := range []struct {
		out  Output
		want string
	}{
		{Output{Action: Skip, Reason: "rate limit: shell"}, `{"action":"deny_tool","reason":"rate limit: shell"}`},
		{Output{Action: Skip}, `{"action":"deny_tool","reason":"shell skipped by a PreToolUse callback"}`},
		{Output{Action: Abort, Reason: "dangerous command"}, `{"action":"abort_turn","reason":"dangerous command"}`},
		{Output{Action: Abort}, `{"action":"abort_turn"}`},
		// A skip's modified input is not applied: the call does not run.
		{Output{Action: Skip, Reason: "no", ModifiedInput: map[string]any{"command": "rm"}}, `{"action":"deny_tool","reason":"no"}`},
	} {
		var r recorder
		h, _ := setup(Options{Hooks: Hooks{PreToolUse: {r.cb("before"), answer(c.out), r.cb("after")}}})
		jsonEqual(t, call(t, h, hookwire.MethodBeforeTool, toolCall), c.want)
		equal(t, fmt.Sprintf("callbacks around %+v", c.out), r.lines(), []string{`before s1 shell {"command":"ls"}`})
	}
}

// The seed: an exception in a callback is caught and logged, and does not
// stop the tool.
func TestACallbackThatFailsOrPanicsIsLoggedAndCountsAsContinue(t *testing.T) {
	var r recorder
	h, logs := setup(Options{Hooks: Hooks{PreToolUse: {
		func(context.Context, Input) (Output, error) {
			return Output{Action: Skip}, errors.New("monitoring is down")
		},
		func(context.Context, Input) (Output, error) { panic("callback broke") },
		answer(Output{Action: "stop"}),
		answer(Output{ModifiedInput: "not arguments"}),
		func(_ context.Context, in Input) (Output, error) {
			return Output{ModifiedInput: map[string]any{"command": "ls -la"}}, nil
		},
		r.cb("last"),
	}}})
	jsonEqual(t, call(t, h, hookwire.MethodBeforeTool, toolCall),
		`{"action":"modify","call":{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"shell","arguments":{"command":"ls -la"},"chat_id":"c1","x_host":1}}`)
	equal(t, "callbacks", r.lines(), []string{`last s1 shell {"command":"ls -la"}`})
	for _, want := range []string{
		`msg="lifecycle callback failed, taken as continue" event=PreToolUse callback=1 err="monitoring is down"`,
		`msg="lifecycle callback failed, taken as continue" event=PreToolUse callback=2 err="panic: callback broke" stack=`,
		`event=PreToolUse callback=3 action=stop`,
		`event=PreToolUse callback=4 err="ModifiedInput is a string, not the tool's arguments (a JSON object)"`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
}

func TestPostToolUseModifiedOutputReplacesTheResultInTheWholeParams(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{PostToolUse: {
		func(_ context.Context, in Input) (Output, error) { // a string is the new for_llm
			return Output{ModifiedOutput: strings.ReplaceAll(in.ToolOutput.ForLLM, "hunter2", "***")}, nil
		},
		r.cb("second"),
	}}})
	jsonEqual(t, call(t, h, hookwire.MethodAfterTool, afterTool("read_file", `{"for_llm":"SECRET_KEY=hunter2","for_user":"done","x_tag":1}`)),
		`{"action":"modify","result":{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"read_file","arguments":{"path":"notes.txt"},
		"result":{"for_llm":"SECRET_KEY=***","for_user":"done","x_tag":1},"duration":1500,"x_host":1}}`)
	equal(t, "callbacks", r.lines(), []string{"second s1 read_file SECRET_KEY=***"})

	h, _ = setup(Options{Hooks: Hooks{PostToolUse: {answer(Output{ModifiedOutput: hookwire.Text("replaced").WithSilent()})}}})
	jsonEqual(t, call(t, h, hookwire.MethodAfterTool, afterTool("read_file", `{"for_llm":"x","for_user":"done"}`)),
		`{"action":"modify","result":{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"read_file","arguments":{"path":"notes.txt"},
		"result":{"for_llm":"replaced","silent":true},"duration":1500,"x_host":1}}`)
}

func TestPostToolUseFailureFiresForAnErrorResultInsteadOfPostToolUse(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{
		PostToolUse: {r.cb("post")},
		PostToolUseFailure: {
			r.cb("failure"),
			answer(Output{ModifiedOutput: "no such file; carry on without it"}),
			r.cb("failure after"),
		},
	}})
	jsonEqual(t, call(t, h, hookwire.MethodAfterTool, afterTool("read_file", `{"for_llm":"open notes.txt: no such file","is_error":true}`)),
		`{"action":"modify","result":{"meta":{"SessionKey":"s1","TurnID":"t1"},"tool":"read_file","arguments":{"path":"notes.txt"},
		"result":{"for_llm":"no such file; carry on without it","is_error":true},"duration":1500,"x_host":1}}`)
	jsonEqual(t, call(t, h, hookwire.MethodAfterTool, afterTool("read_file", `{"for_llm":"Ship it","is_error":false}`)), `{"action":"continue"}`)
	equal(t, "callbacks", r.lines(), []string{
		"failure s1 read_file open notes.txt: no such file",
		"failure after s1 read_file no such file; carry on without it",
		"post s1 read_file Ship it",
	})
}

func TestPostToolUseAbortEndsTheTurn(t *testing.T) {
	h, _ := setup(Options{Hooks: Hooks{PostToolUse: {answer(Output{Action: Abort, Reason: "leaked a key"})}}})
	jsonEqual(t, call(t, h, hookwire.MethodAfterTool, afterTool("read_file", `{"for_llm":"x"}`)), `{"action":"abort_turn","reason":"leaked a key"}`)
}

func TestTaskCompletedFiresOnTheTurnsEndRuntimeOrLegacy(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{TaskCompleted: {r.cb("completed")}}})
	event(t, h, "agent.turn.end", "s1", `{"Status":"done","Iterations":2}`)
	event(t, h, "agent.tool.exec_end", "s1", `{"Tool":"shell"}`)
	if _, err := h.Call(ctx, hookwire.MethodEvent, []byte(`{"Kind":"turn_end","Meta":{"SessionKey":"s2","TurnID":"t9"},"Payload":{"Status":"aborted"}}`)); err != nil {
		t.Fatal(err)
	}
	equal(t, "callbacks", r.lines(), []string{`completed s1 {"Status":"done","Iterations":2}`, `completed s2 {"Status":"aborted"}`})
}

func TestSessionEndFiresOnceOnTheSessionEventAndNotForASessionNeverStarted(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{SessionStart: {r.cb("start")}, SessionEnd: {r.cb("end")}, TaskCompleted: {r.cb("completed")}}})
	event(t, h, "agent.session.start", "s1", `{"SessionKey":"s1"}`)
	event(t, h, "agent.turn.end", "s1", `{"Status":"done"}`)
	event(t, h, "agent.session.end", "s1", `{"SessionKey":"s1"}`)
	event(t, h, "agent.session.end", "s1", `{"SessionKey":"s1"}`)
	event(t, h, "agent.session.end", "s9", `{"SessionKey":"s9"}`)
	equal(t, "callbacks", r.lines(), []string{"start s1", `completed s1 {"Status":"done"}`, "end s1"})
}

// A host that sends no session events: the sessions still open end when
// the hook stops, in the order they started, after what was in flight.
func TestSessionsStillOpenEndWhenTheHookStops(t *testing.T) {
	var r recorder
	h, _ := setup(Options{Hooks: Hooks{PreToolUse: {r.cb("pre")}, SessionEnd: {r.cb("end")}}})
	session := func(key string) string {
		return strings.Replace(toolCall, `"SessionKey":"s1"`, `"SessionKey":"`+key+`"`, 1)
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"lc","version":1,"modes":["tool","observe"]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":` + session("b") + `}`,
		`{"jsonrpc":"2.0","id":3,"method":"hook.before_tool","params":` + session("a") + `}`,
		`{"jsonrpc":"2.0","method":"hook.runtime_event","params":{"kind":"agent.session.end","source":{},"scope":{"session_key":"a"},"payload":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"hook.before_tool","params":` + session("c") + `}`,
	}
	// The host writes a line once the one before has been handled: the
	// hook handles calls concurrently, and the order the sessions started
	// in is the point here.
	in, host := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, in, io.Discard) }()
	for i, line := range lines {
		fmt.Fprintln(host, line)
		if i == 0 {
			continue
		}
		for deadline := time.Now().Add(5 * time.Second); len(r.lines()) < i; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("line %d was not handled within 5 s; callbacks: %q", i+1, r.lines())
			}
		}
	}
	host.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	// b and c, which the host never ends, end when the hook stops, in the
	// order they started.
	equal(t, "callbacks", r.lines(), []string{`pre b shell {"command":"ls"}`, `pre a shell {"command":"ls"}`, "end a", `pre c shell {"command":"ls"}`, "end b", "end c"})
}

func TestAModifiedInputOrOutputAnEventHasNoUseForIsIgnoredAndLogged(t *testing.T) {
	var r recorder
	h, logs := setup(Options{Hooks: Hooks{
		PermissionRequest: {answer(Output{ModifiedInput: map[string]any{"command": "rm"}}), r.cb("permission")},
		PreToolUse:        {answer(Output{ModifiedOutput: "x"}), r.cb("pre")},
	}})
	jsonEqual(t, call(t, h, hookwire.MethodApproveTool, approval("")), `{"approved":true}`)
	jsonEqual(t, call(t, h, hookwire.MethodBeforeTool, toolCall), `{"action":"continue"}`)
	equal(t, "callbacks", r.lines(), []string{`permission s1 shell {"command":"ls"}`, `pre s1 shell {"command":"ls"}`})
	for _, want := range []string{"answered ModifiedInput, which PermissionRequest has no use for", "answered ModifiedOutput, which PreToolUse has no use for"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs)
		}
	}
}
