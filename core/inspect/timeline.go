package inspect

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wiretap"
)

// How a session's items become its timeline: a call's request paired with
// its reply and with the runtime's word on it, a hook's stderr given to its
// call, a turn opened and closed by the agent's steps.

// stderrAfter is how long after a failed call a line of the hook's stderr
// is still taken for that call's: the traceback of a Python hook comes on
// another pipe than its reply, often just after it.
const stderrAfter = 500 * time.Millisecond

// take adds an item of a live session to its timeline.
func (st *store) take(s *session, it item) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s.changes++
	switch it.Type {
	case "call":
		s.ran(it)
	case "wire":
		s.wire(it)
	case "stderr":
		if last := s.lastCall(it.Hook); last != nil && last.Failed && it.Time.Sub(last.Time) < stderrAfter {
			last.stderr = append(last.stderr, it.Text)
			last.Stderr++
			last.changed = s.changes
			return
		}
		s.pending[it.Hook] = append(s.pending[it.Hook], it.Text)
	case "event":
		s.event(it)
	case "end":
		s.Ended = true
		s.flush()
	}
}

// call appends a call.
func (s *session) call(e *entry) {
	s.Calls++
	if s.turn != nil {
		e.Turn = s.turn.Turn
	}
	s.append(e)
	s.judge(e)
}

// judge sorts a call by what came of it, and counts it in its session.
func (s *session) judge(e *entry) {
	v := ""
	switch {
	case e.Failed:
		v = "failed"
	case e.Action == "deny_tool" || e.Action == "denied":
		v = "deny"
	case e.Action == "abort_turn" || e.Action == "hard_abort":
		v = "abort"
	}
	s.count(e.Verdict, -1)
	e.Verdict = v
	s.count(v, 1)
}

func (s *session) count(verdict string, n int) {
	switch verdict {
	case "failed":
		s.Failures += n
	case "deny":
		s.Denials += n
	case "abort":
		s.Aborts += n
	case "junk":
		s.Junk += n
	}
}

// done gives a call that is over the stderr lines its hook wrote since the
// last one was.
func (s *session) done(e *entry) {
	e.stderr = append(e.stderr, s.pending[e.Hook]...)
	e.Stderr = len(e.stderr)
	delete(s.pending, e.Hook)
	e.changed = s.changes
}

// ran takes what the runtime says of a call once it is over. A process
// hook's call is already a row, from its request on the wire: the oldest
// one of that hook and method that the runtime has not spoken of yet. An
// in-process hook's is a row of its own.
func (s *session) ran(it item) {
	var e *entry
	for i, x := range s.unclaimed {
		if x.Hook == it.Hook && x.Method == it.Method {
			e = x
			s.unclaimed = append(s.unclaimed[:i], s.unclaimed[i+1:]...)
			break
		}
	}
	if e == nil {
		p, r := paramsOf(it.Params), resultOf(it.Result)
		e = &entry{Row: Row{Type: "call", Time: it.Time, Hook: it.Hook, Method: it.Method, Tool: p.tool, Arg: p.arg, Action: r.verb(), Reason: r.reason}, params: it.Params, result: it.Result}
		s.call(e)
	}
	e.LatencyNS, e.Host, e.Policy = it.DurationNS, it.Host, it.Policy
	if it.Error != "" && !e.Failed {
		e.Failed, e.Text = true, it.Error
		s.judge(e)
	}
	s.done(e)
}

func (s *session) append(e *entry) {
	e.Seq, e.changed = len(s.rows), s.changes
	s.rows = append(s.rows, e)
}

func (s *session) lastCall(hook string) *entry {
	for i := len(s.rows) - 1; i >= 0 && i >= len(s.rows)-50; i-- {
		if e := s.rows[i]; e.Type == "call" && e.Hook == hook {
			return e
		}
	}
	return nil
}

// flush puts the stderr lines no call took in rows of their own.
func (s *session) flush() {
	for hook, lines := range s.pending {
		for _, l := range lines {
			s.append(&entry{Row: Row{Type: "stderr", Hook: hook, Text: l}})
		}
	}
	clear(s.pending)
}

// wire pairs the lines of the wire into calls: a request is a row, its
// reply fills it in.
func (s *session) wire(it item) {
	s.keep(it)
	if it.Message == nil {
		s.junk(&entry{Row: Row{Type: "log", Time: it.Time, Hook: it.Hook, Text: it.Dir + " " + it.Text}}, it.Dir)
		return
	}
	m := it.message
	key := it.Hook + "\x00" + m.id
	switch {
	case it.Dir == wiretap.Send && m.method != "" && m.id != "":
		e := &entry{Row: Row{Type: "call", Time: it.Time, Hook: it.Hook, Method: m.method, Tool: m.tool, Arg: m.arg}, params: m.params}
		s.open[key] = e
		if m.method != "hook.hello" && s.Source == "live" {
			s.unclaimed = append(s.unclaimed, e)
			if len(s.unclaimed) > 1000 { // a producer without the runtime's word: tap
				s.unclaimed = s.unclaimed[1:]
			}
		}
		s.call(e)
	case it.Dir == wiretap.Send && m.method != "":
		s.append(&entry{Row: Row{Type: "notify", Time: it.Time, Hook: it.Hook, Method: m.method, Text: m.method + gist(m.params)}, params: m.params})
	case it.Dir == wiretap.Recv && s.open[key] != nil:
		e := s.open[key]
		delete(s.open, key)
		e.LatencyNS = it.LatencyNS
		if e.LatencyNS == 0 && !it.Time.IsZero() && !e.Time.IsZero() {
			e.LatencyNS = int64(it.Time.Sub(e.Time))
		}
		e.result = m.result
		e.Action = cmp.Or(m.callReply.verb(), "answered") // hook.hello's result has no action
		e.Reason = m.reason
		if m.error != nil {
			e.result, e.Failed, e.Text = m.error, true, "error reply: "+string(m.error)
		}
		s.judge(e)
		s.done(e)
	default:
		s.junk(&entry{Row: Row{Type: "log", Time: it.Time, Hook: it.Hook, Text: it.Dir + " " + wirefmt.Clip(string(it.Message), 200)}, data: it.Message}, it.Dir)
	}
}

// junk appends a line of the wire that is not JSON-RPC: a problem, since
// the protocol's stdout is for its messages alone (a print of a hook's).
func (s *session) junk(e *entry, dir string) {
	if dir == wiretap.Send || dir == wiretap.Recv {
		e.Verdict = "junk"
		s.Junk++
	}
	if s.turn != nil {
		e.Turn = s.turn.Turn
	}
	s.append(e)
}

// twins are the runtime's events that say what a step of the agent says
// too, once: the step is shown, not its twin.
var twins = map[string]bool{
	protocol.KindTurnStart: true, protocol.KindTurnEnd: true,
	protocol.KindLLMRequest: true, protocol.KindLLMResponse: true,
	protocol.KindToolExecStart: true, protocol.KindToolExecEnd: true, protocol.KindToolExecSkipped: true,
}

// steps are the agent's steps (hookwire run --json's records) that the
// page folds under their turn.
var steps = map[string]bool{"event": true, "llm_request": true, "llm_response": true, "tool": true, "turn_end": true,
	"context": true, "message": true, "hook": true, "host": true, "hook_down": true, "observe": true, "hooks": true}

// event takes an event: a user's prompt opens a turn, the turn's end
// says how it went on the turn's row, and the runtime's twin of a step
// is left out.
func (s *session) event(it item) {
	var ev struct {
		Kind    string `json:"kind"`
		Content string `json:"content"`
		Status  string `json:"status"`
		Reason  string `json:"reason"`
		By      string `json:"by"`
	}
	_ = protocol.Unmarshal(it.Data, &ev)
	if it.Name == "event" && twins[ev.Kind] {
		return
	}
	e := &entry{Row: Row{Type: "event", Time: it.Time, Text: eventText(it.Name, it.Data), Fold: steps[it.Name]}, data: it.Data}
	if it.Name != "user" && s.Prompt == "" && bytes.Contains(it.Data, []byte(`"prompt"`)) {
		s.Prompt = wirefmt.Clip(agentPrompt(it.Data), 200)
	}
	switch it.Name {
	case "user":
		s.Turns++
		if s.Prompt == "" {
			s.Prompt = wirefmt.Clip(ev.Content, 200)
		}
		e.Type, e.Text, e.Fold = "turn", ev.Content, false
		e.Turn = s.Turns
		s.turn = e
	case "turn_end":
		s.Outcome = ev.Status
		if t := s.turn; t != nil {
			t.Outcome, t.Reason, t.changed = ev.Status, ev.Reason, s.changes
			if ev.By != "" {
				t.Reason = strings.TrimSuffix("by hook "+ev.By+": "+ev.Reason, ": ")
			}
		}
	}
	if s.turn != nil {
		e.Turn = s.turn.Turn
	}
	s.append(e)
}

// eventText is an event's row: its name, or the kind of a runtime event,
// and the gist of the rest.
func eventText(name string, data json.RawMessage) string {
	var members map[string]json.RawMessage
	if protocol.Unmarshal(data, &members) != nil {
		return name + gist(data)
	}
	var kind string
	if protocol.Unmarshal(members["kind"], &kind) == nil && kind != "" {
		name = kind
		delete(members, "kind")
	}
	delete(members, "type")
	if len(members) == 0 {
		return name
	}
	rest, _ := protocol.Marshal(members)
	return name + gist(rest)
}

// gist is a short form of an event's data, for its row.
func gist(data json.RawMessage) string {
	if len(data) == 0 || string(data) == "null" {
		return ""
	}
	return " " + wirefmt.Clip(string(data), 160)
}
