package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// Expectation is one item of a scenario's "expect" list: what a run must
// do for the scenario to pass as a test (hookwire run --check). It is one
// of three kinds, told apart by the member that leads it:
//
//	{"call": 2, "action": "deny_tool", "reason": "rm .*"}   the 2nd hook call, in the order the hooks were asked
//	{"tool": "shell", "runs": false}                         whether the tool shell runs at all
//	{"done": "sunny"}                                        the last turn ends done, its answer matching
//
// A call may also name the hook, method and tool it must be. reason and
// done are regular expressions (Go's syntax), matched anywhere in the text
// as grep does; anchor them with ^ and $ to match the whole.
type Expectation struct {
	// At is where the expectation is in the file, such as "expect[1]", and
	// Text the expectation as written, on one line: both for the report.
	At, Text string

	// Call is the hook call's number, from 1: every interceptor and
	// approver call counts, in the order they were made. 0 when the
	// expectation is of another kind.
	Call int
	// Hook, Method and Tool, when set, are what the call must be: which
	// hook was asked, its method ("hook.before_tool"), the tool it is about.
	Hook, Method, Tool string
	// Action, when set, is what the hook answered: an action of the
	// method's result (continue, modify, respond, deny_tool, abort_turn,
	// hard_abort), an approver's approved, denied or abstained, or failed
	// when the call failed (an error, a crash, its deadline).
	Action string
	// Reason, when set, matches the answer's reason (a failed call's error).
	Reason *regexp.Regexp

	// Runs, with Tool and no Call, says whether the tool runs: true, at
	// least once; false, never (denied, unapproved, answered by a hook, or
	// never called).
	Runs *bool

	// Done matches the answer of the last turn, which must end done.
	Done *regexp.Regexp
}

// The members of each kind of expectation, the one that leads it first.
var (
	callMembers = []string{"call", "hook", "method", "tool", "action", "reason"}
	toolMembers = []string{"tool", "runs"}
	doneMembers = []string{"done"}
)

// callActions are the values of a call expectation's action.
var callActions = []string{
	string(protocol.ActionContinue), string(protocol.ActionModify), string(protocol.ActionRespond),
	string(protocol.ActionDenyTool), string(protocol.ActionAbortTurn), string(protocol.ActionHardAbort),
	"approved", "denied", "abstained", "failed",
}

// ParseExpect reads a scenario's "expect" list: each item an object of
// one kind of Expectation. An unknown member is an error that names it and
// the known member nearest to it. Nothing (nil, null) is no expectation.
func ParseExpect(list json.RawMessage) ([]Expectation, error) {
	if len(bytes.TrimSpace(list)) == 0 || string(bytes.TrimSpace(list)) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(list, &items); err != nil {
		return nil, fmt.Errorf(`expect: want a list of expectations, such as [{"tool": "shell", "runs": false}], got %s`, wirefmt.Clip(strings.TrimSpace(string(list)), 60))
	}
	var out []Expectation
	for i, raw := range items {
		at := fmt.Sprintf("expect[%d]", i)
		x, err := parseExpectation(at, raw)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func parseExpectation(at string, raw json.RawMessage) (Expectation, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil || members == nil {
		return Expectation{}, fmt.Errorf(`%s: want an object, such as {"tool": "shell", "runs": false}, got %s`, at, wirefmt.Clip(strings.TrimSpace(string(raw)), 60))
	}
	known := slices.Concat(callMembers, toolMembers[1:], doneMembers)
	for _, key := range slices.Sorted(maps.Keys(members)) {
		if !slices.Contains(known, key) {
			hint := cli.DidYouMean(key, known)
			if hint == "" {
				hint = " (known: " + strings.Join(known, ", ") + ")"
			}
			return Expectation{}, fmt.Errorf("%s.%s: unknown member%s", at, key, hint)
		}
	}
	var kind string
	var allowed []string
	switch {
	case members["call"] != nil:
		kind, allowed = "call", callMembers
	case members["done"] != nil:
		kind, allowed = "done", doneMembers
	case members["runs"] != nil || members["tool"] != nil:
		kind, allowed = "tool", toolMembers
	default:
		return Expectation{}, fmt.Errorf(`%s: expects nothing: lead it with call (a hook call's answer: {"call": 1, "action": "deny_tool"}), tool and runs (whether a tool runs: {"tool": "shell", "runs": false}) or done (the final answer: {"done": "sunny"})`, at)
	}
	for _, key := range slices.Sorted(maps.Keys(members)) {
		if !slices.Contains(allowed, key) {
			return Expectation{}, fmt.Errorf("%s.%s: a %s expectation has no %s (its members: %s); write it as an expectation of its own", at, key, kind, key, strings.Join(allowed, ", "))
		}
	}
	var text bytes.Buffer
	if err := json.Compact(&text, raw); err != nil {
		return Expectation{}, fmt.Errorf("%s: %w", at, err)
	}
	x := Expectation{At: at, Text: text.String()}
	for _, key := range slices.Sorted(maps.Keys(members)) {
		if err := x.set(key, members[key]); err != nil {
			return Expectation{}, fmt.Errorf("%s.%s: %w", at, key, err)
		}
	}
	if kind == "tool" {
		switch {
		case x.Tool == "":
			return Expectation{}, fmt.Errorf("%s.tool: required: the tool that runs or not, as in {\"tool\": \"shell\", \"runs\": false}", at)
		case x.Runs == nil:
			return Expectation{}, fmt.Errorf("%s.runs: required: true (%s runs at least once) or false (it never runs)", at, x.Tool)
		}
	}
	return x, nil
}

// set reads one member of an expectation.
func (x *Expectation) set(key string, raw json.RawMessage) error {
	str := func() (string, error) {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return "", fmt.Errorf("want a string that is not empty, got %s", wirefmt.Clip(strings.TrimSpace(string(raw)), 60))
		}
		return s, nil
	}
	re := func() (*regexp.Regexp, error) {
		s, err := str()
		if err != nil {
			return nil, err
		}
		r, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("not a regular expression: %w", err)
		}
		return r, nil
	}
	var err error
	switch key {
	case "call":
		var n float64
		if json.Unmarshal(raw, &n) != nil || n < 1 || n != float64(int(n)) {
			return fmt.Errorf("want the hook call's number, from 1, got %s", wirefmt.Clip(strings.TrimSpace(string(raw)), 60))
		}
		x.Call = int(n)
	case "hook":
		x.Hook, err = str()
	case "tool":
		x.Tool, err = str()
	case "method":
		if x.Method, err = str(); err == nil {
			if !strings.HasPrefix(x.Method, "hook.") {
				x.Method = "hook." + x.Method
			}
			if m, ok := protocol.Lookup(x.Method); !ok || m.Notification {
				return fmt.Errorf("no hook method %q%s", x.Method, cli.DidYouMean(x.Method, requestMethods()))
			}
		}
	case "action":
		if x.Action, err = str(); err == nil && !slices.Contains(callActions, x.Action) {
			hint := cli.DidYouMean(x.Action, callActions)
			if hint == "" {
				hint = " (known: " + strings.Join(callActions, ", ") + ")"
			}
			return fmt.Errorf("no action %q%s", x.Action, hint)
		}
	case "reason":
		x.Reason, err = re()
	case "done":
		x.Done, err = re()
	case "runs":
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return fmt.Errorf("want true or false, got %s", wirefmt.Clip(strings.TrimSpace(string(raw)), 60))
		}
		x.Runs = &b
	}
	return err
}

func requestMethods() []string {
	var out []string
	for _, m := range protocol.Methods {
		if !m.Notification {
			out = append(out, m.Name)
		}
	}
	return out
}

// Recorder keeps what a run does, for Scenario.Check: its Call fits
// runtime.Options.OnCall and its Step Agent.OnStep. Safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	calls []recordedCall
	steps []recordedStep
	turn  int
}

type recordedCall struct {
	runtime.CallRecord
	turn int
}

type recordedStep struct {
	Step
	turn int
}

// Call records a hook call.
func (r *Recorder) Call(c runtime.CallRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, recordedCall{c, r.turn})
}

// Step records a step of the agent.
func (r *Recorder) Step(s Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Kind == StepUser {
		r.turn++
	}
	r.steps = append(r.steps, recordedStep{s, r.turn})
}

// Miss is an expectation that did not hold, and how.
type Miss struct {
	// At and Text are the expectation's (Expectation.At, Expectation.Text).
	At, Text string
	// Want is what was expected, Got what happened, Where where in the run.
	Want, Got, Where string
}

// String shows the miss on four lines, as hookwire run --check prints it.
func (m Miss) String() string {
	return fmt.Sprintf("MISS  %s %s\n  want:  %s\n  got:   %s\n  where: %s", m.At, m.Text, m.Want, m.Got, m.Where)
}

// Check holds the run r recorded to the scenario's expectations, in their
// order, and returns those that missed.
func (s Scenario) Check(r *Recorder) []Miss {
	r.mu.Lock()
	defer r.mu.Unlock()
	var misses []Miss
	for _, x := range s.Expectations {
		var m *Miss
		switch {
		case x.Call > 0:
			m = x.checkCall(r.calls)
		case x.Done != nil:
			m = x.checkDone(r.steps)
		default:
			m = x.checkTool(r.steps)
		}
		if m != nil {
			m.At, m.Text = x.At, x.Text
			misses = append(misses, *m)
		}
	}
	return misses
}

func (x Expectation) checkCall(calls []recordedCall) *Miss {
	var want []string
	if x.Hook != "" {
		want = append(want, "to hook "+x.Hook)
	}
	if x.Method != "" {
		want = append(want, x.Method)
	}
	if x.Tool != "" {
		want = append(want, "about tool "+x.Tool)
	}
	if x.Action != "" {
		want = append(want, "answered "+x.Action)
	}
	if x.Reason != nil {
		want = append(want, fmt.Sprintf("with a reason matching /%s/", x.Reason))
	}
	wanted := fmt.Sprintf("hook call %d", x.Call)
	if len(want) > 0 {
		wanted += ": " + strings.Join(want, ", ")
	}
	if x.Call > len(calls) {
		return &Miss{Want: wanted, Got: fmt.Sprintf("%d hook calls in all", len(calls)), Where: "the whole run" + lastCall(calls)}
	}
	c := calls[x.Call-1]
	tool := callTool(c.Params)
	action, reason := answer(c.CallRecord)
	got := action
	if reason != "" {
		got += ": " + reason
	}
	where := fmt.Sprintf("hook call %d of %d: %s %s", x.Call, len(calls), c.Hook, c.Method)
	if tool != "" {
		where += " " + tool
	}
	where += fmt.Sprintf(", turn %d", c.turn)
	var wrong []string
	if x.Hook != "" && x.Hook != c.Hook {
		wrong = append(wrong, "to hook "+c.Hook)
	}
	if x.Method != "" && x.Method != c.Method {
		wrong = append(wrong, c.Method)
	}
	if x.Tool != "" && x.Tool != tool {
		wrong = append(wrong, "about tool "+cmpOr(tool, "none"))
	}
	if len(wrong) > 0 {
		how := ", answered "
		if action == "failed" {
			how = ", " // "failed: why" says it
		}
		return &Miss{Want: wanted, Got: strings.Join(wrong, ", ") + how + got, Where: where}
	}
	if (x.Action != "" && x.Action != action) || (x.Reason != nil && !x.Reason.MatchString(reason)) {
		if x.Reason != nil && reason == "" && x.Action == action {
			got += " (with no reason)"
		}
		return &Miss{Want: wanted, Got: got, Where: where}
	}
	return nil
}

// lastCall says what the last hook call was, to place a missing one.
func lastCall(calls []recordedCall) string {
	if len(calls) == 0 {
		return ""
	}
	c := calls[len(calls)-1]
	return fmt.Sprintf("; the last was %s %s, turn %d", c.Hook, c.Method, c.turn)
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// callTool is the tool a call is about: every call about a tool has a
// Tool member in its params.
func callTool(params any) string {
	if p := reflect.Indirect(reflect.ValueOf(params)); p.Kind() == reflect.Struct {
		if tool := p.FieldByName("Tool"); tool.Kind() == reflect.String {
			return tool.String()
		}
	}
	return ""
}

// answer names what a hook answered, in the words of a call expectation's
// action, and its reason (a failed call's error).
func answer(c runtime.CallRecord) (action, reason string) {
	switch v := c.Result.(type) {
	case nil:
		if c.Err == nil {
			return "failed", ""
		}
		return "failed", c.Err.Error()
	case protocol.Variant:
		return string(v.ResultAction()), protocol.ReasonOf(v)
	}
	// The one result that is not a union on action: an approver's.
	var a struct {
		Approved bool    `json:"approved"`
		Reason   *string `json:"reason"`
		Abstain  *bool   `json:"abstain"`
	}
	if b, err := protocol.Marshal(c.Result); err != nil || json.Unmarshal(b, &a) != nil {
		return fmt.Sprintf("%T", c.Result), ""
	}
	switch {
	case a.Abstain != nil && *a.Abstain:
		return "abstained", deref(a.Reason)
	case a.Approved:
		return "approved", deref(a.Reason)
	}
	return "denied", deref(a.Reason)
}

func (x Expectation) checkTool(steps []recordedStep) *Miss {
	var calls []recordedStep
	for _, s := range steps {
		if s.Kind == StepTool && s.Tool == x.Tool {
			calls = append(calls, s)
		}
	}
	ran := slices.IndexFunc(calls, func(s recordedStep) bool { return s.Outcome == ToolRan })
	if !*x.Runs {
		if ran < 0 {
			return nil
		}
		s := calls[ran]
		return &Miss{Want: x.Tool + " never runs", Got: fmt.Sprintf("%s ran with %s", x.Tool, compactJSON(s.Arguments)),
			Where: fmt.Sprintf("call %d of %d to %s, turn %d", ran+1, len(calls), x.Tool, s.turn)}
	}
	if ran >= 0 {
		return nil
	}
	if len(calls) == 0 {
		return &Miss{Want: x.Tool + " runs", Got: "no call to " + x.Tool + " (the tools called: " + cmpOr(strings.Join(toolsCalled(steps), ", "), "none") + ")", Where: "the whole run"}
	}
	s := calls[0]
	got := fmt.Sprintf("%s was %s", x.Tool, s.Outcome)
	if s.By != "" {
		got += " by hook " + s.By
	}
	if s.Reason != "" {
		got += ": " + s.Reason
	}
	if len(calls) > 1 {
		got += fmt.Sprintf(" (and %d more calls to it, none ran)", len(calls)-1)
	}
	return &Miss{Want: x.Tool + " runs", Got: got, Where: fmt.Sprintf("call 1 of %d to %s, turn %d", len(calls), x.Tool, s.turn)}
}

func toolsCalled(steps []recordedStep) []string {
	var names []string
	for _, s := range steps {
		if s.Kind == StepTool && !slices.Contains(names, s.Tool) {
			names = append(names, s.Tool)
		}
	}
	return names
}

func compactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(buf.String(), "\n")
}

func (x Expectation) checkDone(steps []recordedStep) *Miss {
	want := fmt.Sprintf("the last turn ends done, its answer matching /%s/", x.Done)
	last := -1
	for i, s := range steps {
		if s.Kind == StepTurnEnd {
			last = i
		}
	}
	if last < 0 {
		return &Miss{Want: want, Got: "no turn ended", Where: "the whole run"}
	}
	s := steps[last]
	where := fmt.Sprintf("turn %d, the last", s.turn)
	if s.Outcome != TurnDone {
		got := "the turn ended " + s.Outcome
		if s.By != "" {
			got += " by hook " + s.By
		}
		if s.Reason != "" {
			got += ": " + s.Reason
		}
		return &Miss{Want: want, Got: got, Where: where}
	}
	if !x.Done.MatchString(s.Text) {
		return &Miss{Want: want, Got: fmt.Sprintf("it answered %q", s.Text), Where: where}
	}
	return nil
}
