package conformance

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/schema"
	"github.com/hookwire/hookwire/core/wire"
)

// samples are realistic params for every method, in the shapes PicoClaw
// writes them (taken from its host capture and the source documents).
//
//go:embed samples.json
var samplesJSON []byte

var samples = sync.OnceValue(func() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(samplesJSON, &m); err != nil {
		panic("conformance: samples.json: " + err.Error())
	}
	return m
})

// Sample is realistic params of a method, as a host such as PicoClaw
// sends them; nil for hook.hello and for a method the protocol lacks.
func Sample(method string) json.RawMessage {
	return slices.Clone(samples()[method])
}

var validator = sync.OnceValues(schema.NewValidator)

const (
	// noSuchMethod is a method no version of the protocol will define.
	noSuchMethod = "hook.conformance_no_such_method"
	// quiet is how long a hook has, after answering the request that
	// follows some notifications, to (wrongly) answer them too.
	quiet = 200 * time.Millisecond
)

// suite is one run of every check against one hook command.
type suite struct {
	cmd  wire.Command
	opts Options

	results    map[string]Result
	stderr     map[string][]string // what the hook wrote on stderr during each failed check
	skipReason string
	name       string
	modes      []protocol.Mode // the modes whose methods are asked
	procs      []*proc
	// minimal are the ids of the requests sent with their required
	// members only: what a host would make of their answers is not
	// warned of, since the host's own warnings are about the sample calls.
	minimal map[uint64]bool
	// helloTaken, when set, says that the host of Options.Host took a
	// hello reply that the protocol refuses, and how.
	helloTaken string
	// guardFaults are the first fault of each guard method the hook failed
	// (those of guards), for policyWarnings.
	guardFaults map[string]string
}

func (s *suite) pass(check, format string, args ...any) {
	s.results[check] = Result{Check: check, Status: Pass, Reason: fmt.Sprintf(format, args...)}
}

func (s *suite) fail(check, format string, args ...any) {
	s.results[check] = Result{Check: check, Status: Fail, Reason: fmt.Sprintf(format, args...)}
}

// during makes one check's exchange with p, and keeps for it what the
// hook wrote on stderr from mark on, should it fail: a handler's traceback
// says why, where the check's reason can only say what.
func (s *suite) during(p *proc, mark int, check string, exchange func()) {
	exchange()
	if s.results[check].Status != Fail {
		return
	}
	p.stderrSettles(100*time.Millisecond, time.Second)
	if lines := p.stderrSince(mark); len(lines) > 0 {
		s.stderr[check] = lines
	}
}

func (s *suite) start() (*proc, error) {
	p, err := start(s.cmd, s.opts.Timeout, s.opts.Stderr, s.opts.MaxOutput)
	if err == nil {
		s.procs = append(s.procs, p)
	}
	return p, err
}

func (s *suite) run(ctx context.Context) {
	v, err := validator()
	if err != nil {
		panic("conformance: the protocol's schema does not compile: " + err.Error())
	}
	p, err := s.start()
	if err != nil {
		s.fail(Handshake, "the hook did not start: %v", err)
		s.skipReason = "the hook did not start"
		return
	}
	defer p.stop()
	ok := false
	// The handshake's lines are all those since the start: a hook that
	// fails it has most often died starting, its traceback written then.
	s.during(p, 0, Handshake, func() { ok = s.handshake(ctx, p) })
	if !ok {
		s.skipReason = "the handshake failed"
		return
	}
	s.during(p, p.stderrMark(), ActionsAllowed, func() { s.actions(ctx, p) })
	s.during(p, p.stderrMark(), MissingMembers, func() { s.missingMembers(ctx, p) })
	s.during(p, p.stderrMark(), NotificationsSilent, func() { s.notifications(ctx, p) })
	s.during(p, p.stderrMark(), UnknownMethod, func() { s.unknownMethod(ctx, p) })
	s.during(p, p.stderrMark(), Concurrent50, func() { s.concurrent(ctx, p) })
	s.during(p, p.stderrMark(), ExitOnEOF, func() { s.exitOnEOF(p) })
	p.stop()
	s.malformed(ctx)
	// Both runs have ended: every line they wrote is in.
	s.repliesValid(v)
	s.stdoutClean()
}

// hello is the host's hook.hello.
func (s *suite) hello() protocol.HelloParams {
	return protocol.HelloParams{Name: s.cmd.Name, Version: protocol.Version, Modes: s.cmd.Modes}
}

// params are the params the suite sends with a request.
func (s *suite) params(method string) any {
	if method == protocol.MethodHello {
		return s.hello()
	}
	return samples()[method]
}

func (s *suite) handshake(ctx context.Context, p *proc) bool {
	m, err := p.call(ctx, protocol.MethodHello, s.hello())
	if err != nil {
		s.fail(Handshake, "hook.hello got no answer: %v%s", err, strays(p, 0))
		return false
	}
	if m.err != nil {
		s.fail(Handshake, "hook.hello was answered with error %d: %s", m.err.Code, m.err.Message)
		return false
	}
	var hr protocol.HelloResult
	err = protocol.Unmarshal(m.result, &hr)
	if (err != nil || !hr.OK) && s.hostTakesHello(m.result) {
		// A host that reads the reply its own way takes it: the hook runs
		// there, asked the methods of every mode offered.
		s.helloTaken = fmt.Sprintf("hook.hello was answered with %s: %s takes it, but the reference host and hookwire's runtime want ok: true and fail the hook's start",
			cmp.Or(wirefmt.Clip(string(m.result), 120), "no result"), s.opts.Host.Title)
		hr = protocol.HelloResult{}
	} else if err != nil {
		s.fail(Handshake, "the result of hook.hello cannot be read: %v: %s", err, wirefmt.Clip(string(m.result), 120))
		return false
	} else if !hr.OK {
		s.fail(Handshake, "hook.hello was answered with ok: false")
		return false
	}
	if hr.Name != nil {
		s.name = *hr.Name
	}
	declared := hr.Modes
	var note string
	if declared == nil {
		s.modes = s.cmd.Modes
		note = "declares no modes, so it is asked the methods of every mode offered: " + modeList(s.modes)
	} else {
		for _, mode := range s.cmd.Modes {
			if slices.Contains(declared, mode) {
				s.modes = append(s.modes, mode)
			}
		}
		note = "modes " + modeList(declared)
	}
	if s.helloTaken != "" {
		s.pass(Handshake, "%s takes the reply, %s", s.opts.Host.Title, note)
		return true
	}
	s.pass(Handshake, "ok: true, name %q, %s", s.name, note)
	return true
}

// hostTakesHello reports whether the host of Options.Host, which reads the
// hello reply its own way (host.ReadHello), lets the hook start with this
// result.
func (s *suite) hostTakesHello(result json.RawMessage) bool {
	h := s.opts.Host
	return h != nil && h.ReadHello != nil && h.ReadHello(result, nil) == nil
}

// requestMethods are the request methods of the modes asked, in table order.
func (s *suite) requestMethods() []string {
	var out []string
	for _, m := range protocol.Methods {
		if !m.Notification && m.Mode != "" && slices.Contains(s.modes, m.Mode) {
			out = append(out, m.Name)
		}
	}
	return out
}

func (s *suite) actions(ctx context.Context, p *proc) {
	s.ask(ctx, p, ActionsAllowed, s.params, nil)
}

// missingMembers asks each method with params that carry only their
// required members: hosts leave out what is empty (PicoClaw a call's
// messages, a tool's arguments and result), and a handler that reads them
// unguarded fails there.
func (s *suite) missingMembers(ctx context.Context, p *proc) {
	s.ask(ctx, p, MissingMembers, func(method string) any {
		var sample map[string]json.RawMessage
		if err := json.Unmarshal(samples()[method], &sample); err != nil {
			panic("conformance: samples.json: " + err.Error())
		}
		minimal := map[string]json.RawMessage{}
		for _, name := range []string{"model", "tool"} {
			if v, ok := sample[name]; ok {
				minimal[name] = v
			}
		}
		return minimal
	}, func(id uint64) { s.minimal[id] = true })
}

// ask asks each request method of the hook's modes, with params from
// paramsOf, and records check as passed when every answer is a result its
// method allows. asked, when set, is given the id of each answer.
func (s *suite) ask(ctx context.Context, p *proc, check string, paramsOf func(method string) any, asked func(id uint64)) {
	methods := s.requestMethods()
	if len(methods) == 0 {
		s.pass(check, "no method to ask: the hook's modes (%s) receive no requests", modeList(s.modes))
		return
	}
	var answers, faults []string
	for _, method := range methods {
		m, err := p.call(ctx, method, paramsOf(method))
		if err == nil && m.id != nil && asked != nil {
			asked(*m.id)
		}
		fault := ""
		switch {
		case err != nil:
			fault = fmt.Sprintf("%s got no answer: %v", method, err)
		case m.err != nil:
			fault = fmt.Sprintf("%s was answered with error %d: %s", method, m.err.Code, m.err.Message)
		default:
			decision, err := decide(method, m.result)
			if err != nil {
				fault = err.Error()
			} else {
				answers = append(answers, strings.TrimPrefix(method, "hook.")+": "+decision)
			}
		}
		if fault != "" {
			faults = append(faults, fault)
			if _, seen := s.guardFaults[method]; !seen && guards[method] != "" {
				s.guardFaults[method] = fault
			}
		}
	}
	if len(faults) > 0 {
		s.fail(check, "%s", strings.Join(faults, "; "))
		return
	}
	s.pass(check, "%s", strings.Join(answers, ", "))
}

// guards are the methods whose failure a host's failure policy decides
// (--failure-policy), with what an open policy makes of it.
var guards = map[string]string{
	protocol.MethodBeforeTool:  "a host goes on without this hook's answer: the tool call it guards runs, unless another hook stops it",
	protocol.MethodApproveTool: "a host passes this approver over: with no other approver to answer, the tool call runs",
}

// policyWarnings say, under Options.FailurePolicy, what a host does with
// the tool call of each guard request the hook failed.
func (s *suite) policyWarnings() []string {
	var out []string
	for _, method := range []string{protocol.MethodBeforeTool, protocol.MethodApproveTool} {
		fault, failed := s.guardFaults[method]
		switch {
		case !failed:
		case s.opts.FailurePolicy == "open":
			out = append(out, fmt.Sprintf("%s failed (%s): under failure policy open, %s", method, fault, guards[method]))
		case s.opts.FailurePolicy == "closed":
			out = append(out, fmt.Sprintf("%s failed (%s): under failure policy closed, a host blocks the tool call it guards, each one while the hook fails so", method, fault))
		}
	}
	return out
}

// decide reads a result the way a host does, action first, and names the decision.
func decide(method string, result json.RawMessage) (string, error) {
	v, err := protocol.DecodeResult(method, result)
	if err != nil {
		return "", err
	}
	if r, ok := v.(protocol.Variant); ok {
		return string(r.ResultAction()), nil
	}
	// The one result that is not a union on action, an approver's, says
	// yes or no in its approved member.
	var approval struct {
		Approved *bool `json:"approved"`
	}
	switch {
	case json.Unmarshal(result, &approval) != nil || approval.Approved == nil:
		return "answered", nil
	case *approval.Approved:
		return "approved", nil
	}
	return "denied", nil
}

func (s *suite) notifications(ctx context.Context, p *proc) {
	zero := 0
	notes := [][]byte{
		notification(protocol.MethodRuntimeEvent, samples()[protocol.MethodRuntimeEvent], nil),
		// Older hosts send hook.event with an id of 0: still a notification.
		notification(protocol.MethodEvent, samples()[protocol.MethodEvent], &zero),
		notification("hook.conformance_no_such_notification", json.RawMessage(`{}`), nil),
	}
	mark := p.mark()
	if err := p.write(slices.Concat(notes...)); err != nil {
		s.fail(NotificationsSilent, "sending notifications: %v", err)
		return
	}
	next, err := p.call(ctx, protocol.MethodHello, s.hello())
	if err != nil {
		s.fail(NotificationsSilent, "after %d notifications, hook.hello got no answer: %v", len(notes), err)
		return
	}
	time.Sleep(quiet)
	var replies []string
	for _, m := range p.since(mark) {
		if m.method == "" && (m.id == nil || *m.id != *next.id) {
			replies = append(replies, m.String())
		}
	}
	if len(replies) > 0 {
		s.fail(NotificationsSilent, "%d notifications got %d replies, the first: %s", len(notes), len(replies), replies[0])
		return
	}
	s.pass(NotificationsSilent, "hook.runtime_event, hook.event (id 0) and an unknown notification got no reply")
}

// list joins items, shortened after a few.
func list(items []string) string {
	const max = 5
	if len(items) > max {
		return strings.Join(items[:max], ", ") + fmt.Sprintf(" and %d more", len(items)-max)
	}
	return strings.Join(items, ", ")
}

func modeList(modes []protocol.Mode) string {
	if len(modes) == 0 {
		return "none"
	}
	s := make([]string, len(modes))
	for i, m := range modes {
		s[i] = string(m)
	}
	return strings.Join(s, ", ")
}
