package skillhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/skillhooks"
)

// hookwireBin is the hookwire command, built once for the whole run: the
// process form of the engine is its skill-hooks subcommand.
var hookwireBin string

func TestMain(m *testing.M) { testbin.Main(m, "../cmd/hookwire", &hookwireBin) }

// form is one way to run the engine: what an LLM call sees, a tool having
// run, and the host ending a session.
type form interface {
	beforeLLM(t *testing.T, req protocol.BeforeLLMParams) []protocol.Message
	afterTool(t *testing.T, meta *protocol.Meta, tool string)
	endSession(t *testing.T, key string)
}

func sessionEnd(key string) protocol.RuntimeEvent {
	return protocol.RuntimeEvent{Kind: protocol.KindSessionEnd, Scope: protocol.EventScope{SessionKey: &key}, Payload: json.RawMessage(`{}`)}
}

func (f inProcess) endSession(t *testing.T, key string) {
	if err := f.e.OnEvent(context.Background(), sessionEnd(key)); err != nil {
		t.Fatal(err)
	}
}

func (f process) endSession(t *testing.T, key string) {
	if err := f.p.Notify(context.Background(), protocol.MethodRuntimeEvent, sessionEnd(key)); err != nil {
		t.Fatal(err)
	}
}

type inProcess struct{ e *skillhooks.Engine }

func (f inProcess) beforeLLM(t *testing.T, req protocol.BeforeLLMParams) []protocol.Message {
	t.Helper()
	res, err := f.e.BeforeLLM(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return seen(t, req, res)
}

func (f inProcess) afterTool(t *testing.T, meta *protocol.Meta, tool string) {
	t.Helper()
	res, err := f.e.AfterTool(context.Background(), protocol.AfterToolParams{Meta: meta, Tool: tool, Result: protocol.ToolResult{ForLLM: "ok"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(protocol.Continue); !ok {
		t.Fatalf("after_tool answered %#v, want continue", res)
	}
}

// process is `hookwire skill-hooks`, spoken to over its stdio.
type process struct{ p *runtime.Process }

func spawn(t *testing.T, skillsDir string, skills ...string) process {
	t.Helper()
	argv := []string{hookwireBin, "skill-hooks", "--skills", strings.Join(skills, ","), skillsDir}
	p, err := runtime.Spawn(context.Background(), runtime.Command{Name: "skill_hooks", Argv: argv,
		Modes: []protocol.Mode{protocol.ModeLLM, protocol.ModeTool}}, runtime.ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return process{p}
}

func (f process) beforeLLM(t *testing.T, req protocol.BeforeLLMParams) []protocol.Message {
	t.Helper()
	raw, err := f.p.Call(context.Background(), protocol.MethodBeforeLLM, req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := protocol.DecodeResult(protocol.MethodBeforeLLM, raw)
	if err != nil {
		t.Fatal(err)
	}
	return seen(t, req, res)
}

func (f process) afterTool(t *testing.T, meta *protocol.Meta, tool string) {
	t.Helper()
	raw, err := f.p.Call(context.Background(), protocol.MethodAfterTool, protocol.AfterToolParams{Meta: meta, Tool: tool, Result: protocol.ToolResult{ForLLM: "ok"}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := protocol.DecodeResult(protocol.MethodAfterTool, raw); err != nil || res.(protocol.Variant).ResultAction() != protocol.ActionContinue {
		t.Fatalf("after_tool answered %s (%v), want continue", raw, err)
	}
}

// seen is the messages the LLM gets: the host's, or the modified request's,
// which must be the host's request in every other respect.
func seen(t *testing.T, req protocol.BeforeLLMParams, res any) []protocol.Message {
	t.Helper()
	switch r := res.(type) {
	case protocol.Continue:
		return req.Messages
	case protocol.BeforeLLMModify:
		got, want := r.Request, req
		got.Messages, want.Messages = nil, nil
		if a, b := jsonOf(got), jsonOf(want); a != b {
			t.Fatalf("the modified request changed more than its messages:\n got %s\nwant %s", a, b)
		}
		return r.Request.Messages
	}
	t.Fatalf("before_llm answered %#v", res)
	return nil
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// forms runs a test against the engine in-process and as a process.
func forms(t *testing.T, dir string, skills []string, test func(t *testing.T, f form)) {
	t.Run("in-process", func(t *testing.T) {
		hooks, err := skillhooks.Load(dir, skills)
		if err != nil {
			t.Fatal(err)
		}
		test(t, inProcess{skillhooks.New(hooks)})
	})
	t.Run("process", func(t *testing.T) { test(t, spawn(t, dir, skills...)) })
}

// host plays the host's side of a turn: its stored history, which hook
// messages never enter.
type host struct {
	meta     *protocol.Meta
	messages []protocol.Message
	tools    []protocol.ToolDefinition
	calls    int
}

func newTurn(session, turn string, history []protocol.Message, prompt string) *host {
	one := 1
	return &host{
		meta:     &protocol.Meta{SessionKey: &session, TurnID: &turn, Iteration: &one},
		messages: append(history, protocol.Message{Role: "user", Content: &prompt}),
		tools:    []protocol.ToolDefinition{{Type: "function", Function: protocol.FunctionDefinition{Name: "read_file"}}},
	}
}

func (h *host) request(planning bool) protocol.BeforeLLMParams {
	req := protocol.BeforeLLMParams{
		Meta: h.meta, Model: "m", Messages: h.messages, Tools: h.tools,
		Options: map[string]any{"temperature": 0.5},
		Extra:   protocol.Extra{"x_host_field": json.RawMessage(`{"kept":true}`)},
	}
	if planning {
		req.Planning = &planning
	}
	return req
}

// runTools records the assistant's calls and their results, as the host does.
func (h *host) runTools(f form, t *testing.T, names ...string) {
	t.Helper()
	var calls []protocol.ToolCall
	for _, name := range names {
		h.calls++
		id := fmt.Sprintf("c%d", h.calls)
		calls = append(calls, protocol.ToolCall{ID: &id, Function: protocol.FunctionCall{Name: name, Arguments: "{}"}})
	}
	h.messages = append(h.messages, protocol.Message{Role: "assistant", ToolCalls: calls})
	for _, c := range calls {
		f.afterTool(t, h.meta, c.Function.Name)
		h.messages = append(h.messages, protocol.Message{Role: "tool", Content: c.ID, ToolCallID: c.ID})
	}
}

// show writes messages in short: hook messages by their text, a role
// first; the host's by role, and the tools an assistant calls.
func show(messages []protocol.Message) string {
	var out []string
	for _, m := range messages {
		s := m.Role
		if m.Content != nil {
			s += " " + *m.Content
		}
		for _, c := range m.ToolCalls {
			s += " -> " + c.Function.Name
		}
		out = append(out, s)
	}
	return strings.Join(out, " | ")
}

// A skill with one hook of each timing, and more: a second after_tool_call
// hook without a filter, and a persistent before_each_agent hook.
var testSkill = map[string]string{
	"s/hooks/hooks.json": `{"hooks": [
		{"name": "aui", "file": "aui.md", "timing": "after_user_input", "role": "system", "persistent": false},
		{"name": "plan", "file": "plan.md", "timing": "before_planning", "role": "user", "persistent": false},
		{"name": "first", "file": "first.md", "timing": "before_first_agent", "role": "system", "persistent": false},
		{"name": "each", "file": "each.md", "timing": "before_each_agent", "role": "user", "persistent": false},
		{"name": "grep-hint", "file": "grep.md", "timing": "after_tool_call", "role": "system", "persistent": false, "tool_filter": ["grep"]},
		{"name": "any-tool", "file": "any.md", "timing": "after_tool_call", "role": "user", "persistent": false},
		{"name": "sticky", "file": "sticky.md", "timing": "before_each_agent", "role": "system", "persistent": true}
	]}`,
	"s/hooks/aui.md": "AUI\n", "s/hooks/plan.md": "PLAN\n", "s/hooks/first.md": "FIRST\n", "s/hooks/each.md": "EACH\n",
	"s/hooks/grep.md": "GREP\n", "s/hooks/any.md": "ANY\n", "s/hooks/sticky.md": "STICKY\n",
}

func TestPlanningCallsSeeBeforePlanningOnly(t *testing.T) {
	dir := skillsDir(t, testSkill)
	forms(t, dir, []string{"s"}, func(t *testing.T, f form) {
		h := newTurn("s1", "t1", nil, "hi")
		steps := []struct{ what, got, want string }{
			{"planning call", show(f.beforeLLM(t, h.request(true))), "user hi | system AUI | user PLAN"},
			{"agent round 1", show(f.beforeLLM(t, h.request(false))), "user hi | system AUI | user EACH | system STICKY | system FIRST"},
			{"a second planning call", show(f.beforeLLM(t, h.request(true))), "user hi | system AUI | user EACH | system STICKY | system FIRST | user PLAN"},
			{"agent round 2", show(f.beforeLLM(t, h.request(false))), "user hi | system AUI | system STICKY | system FIRST | user EACH"},
		}
		for _, s := range steps {
			if s.got != s.want {
				t.Errorf("%s saw\n  %s\nwant\n  %s", s.what, s.got, s.want)
			}
		}
	})
}

// Every tool of a round fires its after_tool_call hooks, in the order the
// tools ran; the next round's tools remove them, even when none passes a
// filter.
func TestAfterToolCallLastsFromItsToolsToTheNextRoundsTools(t *testing.T) {
	dir := skillsDir(t, testSkill)
	forms(t, dir, []string{"s"}, func(t *testing.T, f form) {
		h := newTurn("s1", "t1", nil, "hi")
		var got []string
		got = append(got, show(f.beforeLLM(t, h.request(false))))
		h.runTools(f, t, "grep", "read_file")
		got = append(got, show(f.beforeLLM(t, h.request(false))))
		h.runTools(f, t, "read_file")
		got = append(got, show(f.beforeLLM(t, h.request(false))))
		want := []string{
			"user hi | system AUI | user EACH | system STICKY | system FIRST",
			"user hi | system AUI | system STICKY | system FIRST | assistant -> grep -> read_file | tool c1 | tool c2 | system GREP | user ANY | user ANY | user EACH",
			"user hi | system AUI | system STICKY | system FIRST | assistant -> grep -> read_file | tool c1 | tool c2 | assistant -> read_file | tool c3 | user ANY | user EACH",
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("call %d saw\n  %s\nwant\n  %s", i+1, got[i], want[i])
			}
		}
	})
}

// The documents' direct call: no tools and no agent round yet means no
// agent loop, so only after_user_input applies. Once the loop runs, a call
// without tools (a host winding the turn down) is a round like any other.
func TestACallWithoutToolsBeforeAnyRoundIsADirectCall(t *testing.T) {
	dir := skillsDir(t, testSkill)
	forms(t, dir, []string{"s"}, func(t *testing.T, f form) {
		h := newTurn("s1", "t1", nil, "hi")
		h.tools = nil
		if got, want := show(f.beforeLLM(t, h.request(false))), "user hi | system AUI"; got != want {
			t.Errorf("direct call saw\n  %s\nwant\n  %s", got, want)
		}
		h = newTurn("s1", "t2", nil, "again")
		f.beforeLLM(t, h.request(false))
		h.tools = nil
		if got, want := show(f.beforeLLM(t, h.request(false))), "user again | system AUI | system STICKY | system FIRST | user EACH"; got != want {
			t.Errorf("a call without tools in the loop saw\n  %s\nwant\n  %s", got, want)
		}
	})
}

// Persistent messages stay in their session, once, before the message that
// opened each later turn; other sessions never see them, and the host's
// history (which may hold earlier turns) keeps its own order.
func TestPersistentHooksStayInTheirSessionOnce(t *testing.T) {
	dir := skillsDir(t, testSkill)
	forms(t, dir, []string{"s"}, func(t *testing.T, f form) {
		h := newTurn("s1", "t1", nil, "one")
		f.beforeLLM(t, h.request(false))
		history := with(h.messages, protocol.Message{Role: "assistant", Content: ptr("done")})

		h = newTurn("s1", "t2", history, "two")
		steps := []struct{ what, got, want string }{
			{"turn 2, round 1", show(f.beforeLLM(t, h.request(false))), "user one | assistant done | system STICKY | user two | system AUI | user EACH | system FIRST"},
			{"turn 2, round 2", show(f.beforeLLM(t, h.request(false))), "user one | assistant done | system STICKY | user two | system AUI | system FIRST | user EACH"},
			{"another session", show(f.beforeLLM(t, newTurn("s2", "t1", nil, "other").request(false))), "user other | system AUI | user EACH | system STICKY | system FIRST"},
		}
		for _, s := range steps {
			if s.got != s.want {
				t.Errorf("%s saw\n  %s\nwant\n  %s", s.what, s.got, s.want)
			}
		}
	})
}

// A session the host ends takes its persistent messages with it: a later
// turn under the same key starts as a new session would.
func TestASessionThatEndsForgetsItsPersistentMessages(t *testing.T) {
	dir := skillsDir(t, testSkill)
	forms(t, dir, []string{"s"}, func(t *testing.T, f form) {
		h := newTurn("s1", "t1", nil, "one")
		f.beforeLLM(t, h.request(false))
		f.endSession(t, "s1")
		want := "user again | system AUI | user EACH | system STICKY | system FIRST"
		// A process hook sees the notification on its own goroutine, so
		// the next request may overtake it: ask until it has been seen.
		var got string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if got = show(f.beforeLLM(t, newTurn("s1", fmt.Sprint("t", time.Now().UnixNano()), nil, "again").request(false))); got == want {
				return
			}
		}
		t.Errorf("after the session ended, a new turn saw\n  %s\nwant\n  %s", got, want)
	})
}

// With no hook to insert, the request goes through untouched.
func TestNoHooksNoModify(t *testing.T) {
	e := skillhooks.New(nil)
	req := newTurn("s", "t", nil, "hi").request(false)
	res, err := e.BeforeLLM(context.Background(), req)
	if _, ok := res.(protocol.Continue); !ok || err != nil {
		t.Errorf("got %#v, %v; want continue", res, err)
	}
}

// The host's messages are the host's: the engine builds a new list, even
// when the host's array has room to grow in place.
func TestTheHostsMessagesAreLeftAlone(t *testing.T) {
	hooks, err := skillhooks.Load(skillsDir(t, testSkill), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newTurn("s", "t", nil, "hi")
	backing := append(make([]protocol.Message, 0, 10), h.messages...)
	h.messages = backing
	skillhooks.New(hooks).BeforeLLM(context.Background(), h.request(false))
	if !reflect.DeepEqual(backing[:cap(backing)], append([]protocol.Message{{Role: "user", Content: ptr("hi")}}, make([]protocol.Message, 9)...)) {
		t.Errorf("the engine wrote into the host's array: %s", jsonOf(backing[:cap(backing)]))
	}
}

func with(ms []protocol.Message, more ...protocol.Message) []protocol.Message {
	return append(append([]protocol.Message{}, ms...), more...)
}

func ptr[T any](v T) *T { return &v }
