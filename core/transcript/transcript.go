// Package transcript writes what happened in an agent turn, every hook
// call and decision included, as readable text or as JSON Lines.
//
// The JSON Lines are meant for machines: each record is one object with a
// "type", keys in a fixed order, and nothing that varies between two runs
// of the same scenario except the "duration_ms" key, so that a test can
// drop that key and compare two transcripts byte for byte (for example, the
// same hook written in two languages).
package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// Writer writes a transcript. Its methods are safe for concurrent use.
type Writer struct {
	w     io.Writer
	jsonl bool
	// Events, in the text form, adds a line per runtime event; JSON Lines
	// always have them.
	Events bool
	// Messages adds the messages of each LLM request, as hooks left them:
	// a line each in the text form, a "messages" key in JSON Lines.
	Messages bool

	mu  sync.Mutex
	err error
}

// New makes a writer of text, or of JSON Lines when jsonl is set.
func New(w io.Writer, jsonl bool) *Writer { return &Writer{w: w, jsonl: jsonl} }

// Err is the first write error.
func (t *Writer) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Record is one line of a JSON Lines transcript. Which keys are set
// depends on Type: hooks, user, event, hook, host (what the host
// discarded of a hook's reply), llm_request, llm_response, tool, turn_end,
// observe, hook_down, message (a hook's message to the user), context (what
// hooks added for the model).
type Record struct {
	Type      string          `json:"type"`
	Hooks     []HookRecord    `json:"hooks,omitempty"`
	Hook      string          `json:"hook,omitempty"`
	Method    string          `json:"method,omitempty"`
	Iteration int             `json:"iteration,omitempty"`
	Kind      string          `json:"kind,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	Arguments map[string]any  `json:"arguments,omitempty"`
	LLMCall   *LLMCallRecord  `json:"llm_call,omitempty"`
	Content   string          `json:"content,omitempty"`
	Tools     []string        `json:"tools,omitempty"`
	Messages  []MessageRecord `json:"messages,omitempty"`
	ToolCalls []CallRecord    `json:"tool_calls,omitempty"`
	Action    string          `json:"action,omitempty"`
	Approved  *bool           `json:"approved,omitempty"`
	Abstain   *bool           `json:"abstain,omitempty"`
	Outcome   string          `json:"outcome,omitempty"`
	By        string          `json:"by,omitempty"`
	ByDefault bool            `json:"by_default,omitempty"`
	Status    string          `json:"status,omitempty"`
	Answer    string          `json:"answer,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Result    *ResultRecord   `json:"result,omitempty"`
	Error     string          `json:"error,omitempty"`
	Policy    string          `json:"policy,omitempty"`
	Dropped   uint64          `json:"dropped,omitempty"`
	Waited    uint64          `json:"waited,omitempty"`
	// DurationMS is the only key that changes from run to run.
	DurationMS *float64 `json:"duration_ms,omitempty"`
}

// LLMCallRecord is the tool call the LLM made, when hooks changed it.
type LLMCallRecord struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// HookRecord describes one hook in the "hooks" record.
type HookRecord struct {
	Name      string   `json:"name"`
	InProcess bool     `json:"in_process,omitempty"`
	Priority  int      `json:"priority"`
	Intercept []string `json:"intercept,omitempty"`
	// NotCalled are the stages configured that the host never calls.
	NotCalled []string `json:"not_called,omitempty"`
	Observe   bool     `json:"observe,omitempty"`
}

// CallRecord is a tool call the LLM asked for.
type CallRecord struct {
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// MessageRecord is a message of an LLM request.
type MessageRecord struct {
	Role       string       `json:"role"`
	Content    string       `json:"content,omitempty"`
	ToolCalls  []CallRecord `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

// ResultRecord is a tool result, with only the fields that say something:
// hooks in different languages may or may not write the empty ones.
type ResultRecord struct {
	ForLLM          string   `json:"for_llm"`
	IsError         bool     `json:"is_error"`
	ForUser         string   `json:"for_user,omitempty"`
	Silent          bool     `json:"silent,omitempty"`
	Async           bool     `json:"async,omitempty"`
	Media           []string `json:"media,omitempty"`
	ResponseHandled bool     `json:"response_handled,omitempty"`
}

func result(r *protocol.ToolResult) *ResultRecord {
	if r == nil {
		return nil
	}
	t := func(b *bool) bool { return b != nil && *b }
	rec := &ResultRecord{ForLLM: r.ForLLM, IsError: t(r.IsError), Silent: t(r.Silent), Async: t(r.Async), Media: r.Media, ResponseHandled: t(r.ResponseHandled)}
	if r.ForUser != nil {
		rec.ForUser = *r.ForUser
	}
	return rec
}

func millis(d time.Duration) *float64 {
	ms := math.Round(float64(d)/float64(time.Microsecond)) / 1000
	return &ms
}

// Hooks writes the hooks that will be asked, in order.
func (t *Writer) Hooks(hooks []runtime.HookInfo) {
	rec := Record{Type: "hooks", Hooks: []HookRecord{}}
	var text []string
	for _, h := range hooks {
		hr := HookRecord{Name: h.Name, InProcess: h.InProcess, Priority: h.Priority, Observe: h.Observes}
		kind := "process"
		if h.InProcess {
			kind = "in-process"
		}
		what := []string{}
		for _, s := range h.Stages {
			hr.Intercept = append(hr.Intercept, string(s))
			what = append(what, string(s))
		}
		if h.Observes {
			what = append(what, "observes events")
		}
		if len(h.NotCalled) > 0 {
			var names []string
			for _, s := range h.NotCalled {
				names = append(names, string(s))
			}
			hr.NotCalled = names
			what = append(what, "never called under this host: "+strings.Join(names, ", "))
		}
		if len(what) == 0 {
			what = append(what, `asked nothing: its entry names no stage ("intercept": ["before_tool", ...]) and observes nothing`)
		}
		rec.Hooks = append(rec.Hooks, hr)
		text = append(text, fmt.Sprintf("%s (%s, priority %d): %s", h.Name, kind, h.Priority, strings.Join(what, ", ")))
	}
	if len(text) == 0 {
		text = []string{"none"}
	}
	t.write(rec, "hooks", strings.Join(text, "; "))
}

// Observed writes, for each observing hook whose queue was ever full, how
// many events it missed and how often and how long the agent waited for it
// (runtime.Runtime.ObserveStats, once the runtime is closed). Nothing is
// written for hooks that kept up.
func (t *Writer) Observed(stats map[string]runtime.ObserveStats) {
	for _, hook := range slices.Sorted(maps.Keys(stats)) {
		st := stats[hook]
		if st.Dropped == 0 && st.Waited == 0 {
			continue
		}
		rec := Record{Type: "observe", Hook: hook, Dropped: st.Dropped, Waited: st.Waited}
		text := fmt.Sprintf("%s missed %d events (its queue was full)", hook, st.Dropped)
		if st.Waited > 0 {
			rec.DurationMS = millis(st.WaitedFor)
			text += fmt.Sprintf("; the agent waited for it %d times, %s in all", st.Waited, ms(st.WaitedFor))
		}
		t.write(rec, "observe", text)
	}
}

// HookDown writes that a hook process went down, and why; it fits
// runtime.Options.OnHookDown.
func (t *Writer) HookDown(hook string, why error) {
	t.write(Record{Type: "hook_down", Hook: hook, Error: why.Error()}, "down", hook+": "+why.Error())
}

// Call writes one hook call; it fits runtime.Options.OnCall.
func (t *Writer) Call(c runtime.CallRecord) {
	rec := Record{Type: "hook", Hook: c.Hook, Method: c.Method, DurationMS: millis(c.Duration)}
	// Every call about a tool names it: its params have a tool member.
	if p := reflect.Indirect(reflect.ValueOf(c.Params)); p.Kind() == reflect.Struct {
		if tool := p.FieldByName("Tool"); tool.Kind() == reflect.String {
			rec.Tool = tool.String()
		}
	}
	var outcome string
	switch v := c.Result.(type) {
	case nil:
		rec.Error, rec.Policy = c.Err.Error(), string(c.Policy)
		outcome = fmt.Sprintf("failed (fail %s): %v", c.Policy, c.Err)
		if c.Policy == "" { // the caller gave up: no policy applies
			outcome = fmt.Sprintf("stopped: %v", c.Err)
		}
	case protocol.Variant:
		rec.Action, rec.Reason = string(v.ResultAction()), protocol.ReasonOf(v)
		if r, ok := v.(protocol.Respond); ok {
			rec.Result = result(&r.Result)
		}
		outcome = rec.Action + colon(rec.Reason)
	default:
		// The one result that is not a union on action: an approver's.
		outcome = approval(&rec, v)
	}
	target := c.Method
	if rec.Tool != "" {
		target += " " + rec.Tool
	}
	t.write(rec, "hook", fmt.Sprintf("%s %s -> %s  (%s)", c.Hook, target, outcome, ms(c.Duration)))
	for _, d := range c.Discarded {
		t.write(Record{Type: "host", Hook: c.Hook, Method: c.Method, Reason: d}, "host", c.Hook+"'s "+d)
	}
}

// approval records an approver's answer by its members (approved, reason,
// abstain, arguments) and says what it decided.
func approval(rec *Record, result any) string {
	var v struct {
		Approved  bool           `json:"approved"`
		Reason    *string        `json:"reason"`
		Abstain   *bool          `json:"abstain"`
		Arguments map[string]any `json:"arguments"`
	}
	if b, err := protocol.Marshal(result); err != nil || json.Unmarshal(b, &v) != nil {
		return fmt.Sprintf("answered %T", result)
	}
	rec.Approved, rec.Reason = &v.Approved, deref(v.Reason)
	switch {
	case v.Abstain != nil && *v.Abstain:
		rec.Abstain = v.Abstain
		return "abstained" + colon(rec.Reason)
	case !v.Approved:
		return "denied" + colon(rec.Reason)
	case v.Arguments != nil:
		rec.Arguments = v.Arguments
		return "approved with arguments " + compact(v.Arguments)
	}
	return "approved"
}

// Step writes one step of the agent; it fits agent.Agent.OnStep.
func (t *Writer) Step(s agent.Step) {
	switch s.Kind {
	case agent.StepUser:
		t.write(Record{Type: "user", Content: s.Text}, "user", s.Text)
	case agent.StepEvent:
		rec := Record{Type: "event", Kind: s.Event}
		if t.jsonl || t.Events {
			t.write(rec, "event", s.Event)
		}
	case agent.StepLLMRequest:
		tools := s.Tools
		if tools == nil {
			tools = []string{}
		}
		rec := Record{Type: "llm_request", Iteration: s.Iteration, Tools: tools}
		text := "offered tools: " + orNone(strings.Join(s.Tools, ", "))
		if t.Messages {
			text += fmt.Sprintf("\n%ssees %d messages:", pad(fmt.Sprintf("llm #%d", s.Iteration)), len(s.Messages))
			for _, m := range s.Messages {
				mr := MessageRecord{Role: m.Role, Content: deref(m.Content), ToolCallID: deref(m.ToolCallID)}
				line := oneLine(mr.Content)
				for _, c := range m.ToolCalls {
					mr.ToolCalls = append(mr.ToolCalls, call(c))
					line = strings.TrimPrefix(line+"; calls "+c.Function.Name+" "+c.Function.Arguments, "; ")
				}
				rec.Messages = append(rec.Messages, mr)
				text += fmt.Sprintf("\n%s  %-10s %s", pad(""), m.Role, line)
			}
		}
		t.write(rec, fmt.Sprintf("llm #%d", s.Iteration), text)
	case agent.StepLLMResponse:
		rec := Record{Type: "llm_response", Iteration: s.Iteration, Content: s.Text}
		var lines []string
		if s.Text != "" {
			lines = append(lines, "says: "+s.Text)
		}
		for _, c := range s.Calls {
			rec.ToolCalls = append(rec.ToolCalls, call(c))
			lines = append(lines, "calls "+c.Function.Name+" "+c.Function.Arguments)
		}
		t.write(rec, fmt.Sprintf("llm #%d", s.Iteration), strings.Join(lines, "\n"+pad("")))
	case agent.StepTool:
		rec := Record{Type: "tool", Tool: s.Tool, Arguments: s.Arguments, Outcome: s.Outcome, By: s.By, ByDefault: s.ByDefault, Reason: s.Reason, Result: result(s.Result)}
		args := compact(s.Arguments)
		line := fmt.Sprintf("%s %s ", s.Tool, args)
		if s.LLMCall != nil {
			rec.LLMCall = &LLMCallRecord{Tool: s.LLMCall.Tool, Arguments: s.LLMCall.Arguments}
			line += fmt.Sprintf("(the LLM called %s %s) ", s.LLMCall.Tool, compact(s.LLMCall.Arguments))
		}
		switch s.Outcome {
		case agent.ToolRan:
			rec.DurationMS = millis(s.Duration)
			line += "ran"
			if s.ByDefault {
				line += " by default (" + s.Reason + ")"
			}
		case agent.ToolAnswered:
			line += "answered by hook " + s.By
		default:
			line += s.Outcome
			if s.By != "" {
				line += " by hook " + s.By
			}
			if s.ByDefault {
				line += " by default"
			}
		}
		if s.Result != nil {
			line += ": " + s.Result.ForLLM
			if s.Result.IsError != nil && *s.Result.IsError {
				line += " (error)"
			}
		}
		t.write(rec, "tool", line)
	case agent.StepMessage:
		t.write(Record{Type: "message", Content: s.Text}, "message", s.Text)
	case agent.StepContext:
		t.write(Record{Type: "context", Iteration: s.Iteration, Content: s.Text}, fmt.Sprintf("llm #%d", s.Iteration), "reads context from hooks: "+oneLine(s.Text))
	case agent.StepTurnEnd:
		rec := Record{Type: "turn_end", Status: s.Outcome, Answer: s.Text, By: s.By, Reason: s.Reason, DurationMS: millis(s.Duration)}
		line := s.Text
		if s.Outcome != agent.TurnDone {
			line = s.Reason
			if s.By != "" {
				line = "by hook " + s.By + colon(s.Reason)
			}
		}
		t.write(rec, s.Outcome, fmt.Sprintf("%s  (%s)", line, ms(s.Duration)))
	}
}

// plainEncoder writes JSON as a reader expects it: "rm -rf > /dev/sda", not
// encoding/json's HTML-safe "\u003e".
func plainEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// compact is v as one line of JSON, for the text transcript.
func compact(v any) string {
	var buf bytes.Buffer
	_ = plainEncoder(&buf).Encode(v)
	return strings.TrimSuffix(buf.String(), "\n")
}

func (t *Writer) write(rec Record, label, text string) {
	var line []byte
	if t.jsonl {
		var buf bytes.Buffer
		if err := plainEncoder(&buf).Encode(rec); err != nil {
			buf.Reset()
			fmt.Fprintf(&buf, "{\"type\":\"error\",\"error\":%q}\n", err.Error())
		}
		line = buf.Bytes()
	} else {
		line = []byte(pad(label) + text + "\n")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		_, t.err = t.w.Write(line)
	}
}

func call(c protocol.ToolCall) CallRecord {
	var args map[string]any
	_ = json.Unmarshal([]byte(c.Function.Arguments), &args)
	return CallRecord{ID: deref(c.ID), Name: c.Function.Name, Arguments: args}
}

// oneLine shows a message's text on one line, cut at 200 characters.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

func pad(label string) string { return fmt.Sprintf("%-9s ", label) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func colon(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
