package inspect

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wiretap"
)

// Row is one line of a session's timeline, as the page lists it: what a
// filter or a search needs, never a message's body.
type Row struct {
	Seq  int       `json:"seq"`
	Type string    `json:"type"` // call, notify, event, stderr, log
	Time time.Time `json:"time,omitzero"`
	Hook string    `json:"hook,omitempty"`
	// Method, Action and Tool are a call's.
	Method string `json:"method,omitempty"`
	Action string `json:"action,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Failed is set on a call that failed; Policy then says whether the
	// host went on without the hook (open) or stopped (closed).
	Failed    bool   `json:"failed,omitempty"`
	Policy    string `json:"policy,omitempty"`
	LatencyNS int64  `json:"latency_ns,omitempty"`
	// Host is what the host did with the reply besides taking it:
	// reverted, dropped, one phrase each.
	Host []string `json:"host,omitempty"`
	// Arg is a call's key argument: the command of a shell call, the
	// path of a file call (the member of params.canonical the runtime
	// fills where it can), or else the argument that says most.
	Arg string `json:"arg,omitempty"`
	// Reason is why a hook denied the tool or aborted, or why a turn ended.
	Reason string `json:"reason,omitempty"`
	// Verdict sorts a row for its colour and the session's counts: deny
	// (deny_tool, a refused approval), abort (abort_turn, hard_abort),
	// failed, or junk (a line of the wire that is not JSON-RPC).
	Verdict string `json:"verdict,omitempty"`
	// Text is an event's name and gist, a log or stderr line, a failure,
	// a turn's prompt.
	Text string `json:"text,omitempty"`
	// Stderr counts the hook's stderr lines that came with the call.
	Stderr int `json:"stderr,omitempty"`
	// Turn is the turn a row belongs to, from 1: a row of type turn (the
	// user's prompt) opens it, with the turn's Outcome once it ends.
	Turn    int    `json:"turn,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	// Fold marks the agent's steps and the runtime's events, which the
	// page folds under their turn.
	Fold bool `json:"fold,omitempty"`
}

// entry is a row and what the page fetches when it is opened.
type entry struct {
	Row
	params, result, data json.RawMessage
	stderr               []string
	// changed is the session's change count when the row last changed.
	changed int
}

// Detail is an opened row.
type Detail struct {
	Row
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
	Stderr []string        `json:"stderr,omitempty"`
	// Diff is what a modify changed: before, the object the hook was sent;
	// after, the one it sent back.
	Diff []Change `json:"diff,omitempty"`
}

// Change is a member a modify changed, at its JSON Pointer.
type Change struct {
	Path   string          `json:"path"`
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

// Summary is a session in the session list.
type Summary struct {
	ID int `json:"id"`
	feed.Info
	// Source is where the session came from: live (published while it
	// ran), log (a bridge session's log), recording (opened).
	Source   string `json:"source"`
	Name     string `json:"name,omitempty"`
	Calls    int    `json:"calls"`
	Failures int    `json:"failures"`
	Denials  int    `json:"denials"`
	Aborts   int    `json:"aborts"`
	// Junk counts the lines of the wire that are not JSON-RPC: a hook's
	// prints on its stdout.
	Junk int `json:"junk"`
	// Prompt is the first turn's prompt; Turns counts them, and Outcome
	// is how the last one ended (done, aborted, failed, ...).
	Prompt  string `json:"prompt,omitempty"`
	Turns   int    `json:"turns,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Rows    int    `json:"rows"`
	// Changes counts the items taken: the page fetches rows when it grows.
	Changes int  `json:"changes"`
	Ended   bool `json:"ended"`
	// Wire counts the lines of the wire kept: a session with some is
	// exported as a recording, and replayed.
	Wire int `json:"wire"`
}

type session struct {
	Summary
	rows []*entry
	// pending are stderr lines by hook, waiting for the call they belong to.
	pending map[string][]string
	// open are requests seen on the wire with no reply yet, by hook and id.
	open map[string]*entry
	// unclaimed are the calls seen on the wire that no item of the
	// runtime has spoken of yet, oldest first.
	unclaimed []*entry
	// records are the lines of the wire, an opened recording's or a live
	// session's (keep), for a replay and an export.
	records []wiretap.Record
	// changes counts the items taken: a page that saw n of them asks for
	// the rows that changed since.
	changes int
	// turn is the row of the turn under way.
	turn *entry
}

// store holds every session the inspector knows. Its methods are safe for
// concurrent use; changed is signalled (without blocking) after each change.
type store struct {
	mu       sync.Mutex
	sessions []*session
	changed  func()
}

func (st *store) add(sum Summary) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	sum.ID = len(st.sessions) + 1
	s := &session{Summary: sum, pending: map[string][]string{}, open: map[string]*entry{}}
	st.sessions = append(st.sessions, s)
	return s
}

func (st *store) notify() {
	if st.changed != nil {
		st.changed()
	}
}

func (st *store) list() []Summary {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Summary, len(st.sessions))
	for i, s := range st.sessions {
		out[i] = s.Summary
		out[i].Rows, out[i].Changes, out[i].Wire = len(s.rows), s.changes, len(s.records)
	}
	return out
}

func (st *store) get(id int) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	if id < 1 || id > len(st.sessions) {
		return nil
	}
	return st.sessions[id-1]
}

// Rows are the rows of a session that are new or changed since a page
// last asked.
type Rows struct {
	Rows []Row `json:"rows"`
	// Changes is what the page passes as since next time.
	Changes int `json:"changes"`
}

// rows returns a session's rows from the from'th on, and those before it
// that changed after the since'th change (a call whose reply came since).
func (st *store) rows(id, from, since int) (Rows, bool) {
	s := st.get(id)
	if s == nil {
		return Rows{}, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	from = max(0, min(from, len(s.rows)))
	out := Rows{Rows: make([]Row, 0, len(s.rows)-from), Changes: s.changes}
	for _, e := range s.rows[:from] {
		if e.changed > since {
			out.Rows = append(out.Rows, e.Row)
		}
	}
	for _, e := range s.rows[from:] {
		out.Rows = append(out.Rows, e.Row)
	}
	return out, true
}

func (st *store) detail(id, seq int) (Detail, bool) {
	s := st.get(id)
	if s == nil {
		return Detail{}, false
	}
	st.mu.Lock()
	if seq < 0 || seq >= len(s.rows) {
		st.mu.Unlock()
		return Detail{}, false
	}
	e := s.rows[seq]
	d := Detail{Row: e.Row, Params: e.params, Result: e.result, Data: e.data, Stderr: slicesClone(e.stderr)}
	st.mu.Unlock()
	if e.Action == "modify" {
		d.Diff = modified(e.params, e.result)
	}
	return d, true
}

// maxMatches is how many rows a search names at most.
const maxMatches = 100_000

// search returns the rows of a session whose bodies (request, reply,
// data, stderr) hold q, in any case: what a row shows, the page searches
// itself.
func (st *store) search(id int, q string) ([]int, bool) {
	s := st.get(id)
	if s == nil {
		return nil, false
	}
	st.mu.Lock()
	entries := slices.Clone(s.rows)
	st.mu.Unlock()
	want := []byte(strings.ToLower(q))
	out := []int{}
	if len(want) == 0 {
		return out, true
	}
	// The bodies of a row are never changed once set, only replaced.
	for _, e := range entries {
		st.mu.Lock()
		bodies := [][]byte{e.params, e.result, e.data}
		for _, l := range e.stderr {
			bodies = append(bodies, []byte(l))
		}
		st.mu.Unlock()
		for _, b := range bodies {
			if containsFold(b, want) {
				out = append(out, e.Seq)
				break
			}
		}
		if len(out) == maxMatches {
			break
		}
	}
	return out, true
}

// containsFold says whether b holds want (lower case) in any case,
// ASCII's, or as JSON escapes it ("\/" for "/").
func containsFold(b, want []byte) bool {
	if len(b) < len(want) {
		return false
	}
	lower := bytes.ToLower(b)
	if bytes.Contains(lower, want) {
		return true
	}
	return bytes.IndexByte(want, '/') >= 0 && bytes.Contains(lower, bytes.ReplaceAll(want, []byte("/"), []byte(`\/`)))
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// modified is what a modify changed: the reply's object (request,
// response, call or result: the one member besides action and reason)
// against the params.
func modified(params, result json.RawMessage) []Change {
	var members map[string]json.RawMessage
	if json.Unmarshal(result, &members) != nil {
		return nil
	}
	var after json.RawMessage
	for k, v := range members {
		if k != "action" && k != "reason" && len(v) > 0 && v[0] == '{' {
			after = v
		}
	}
	if after == nil {
		return nil
	}
	var out []Change
	for _, d := range wiretap.Compare(params, after) {
		if d.Path == "/meta" || strings.HasPrefix(d.Path, "/meta/") || d.Replayed == nil && origin[d.Path] {
			continue // the host keeps where the call comes from when a reply leaves it out
		}
		out = append(out, Change{Path: d.Path, Before: d.Recorded, After: d.Replayed})
	}
	return out
}

// origin are the members that say where a call comes from, which the
// runtime keeps across a modify that leaves them out.
var origin = map[string]bool{"/context": true, "/channel": true, "/chat_id": true}

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
		s.junk(&entry{Row: Row{Type: "log", Time: it.Time, Hook: it.Hook, Text: it.Dir + " " + clip(string(it.Message), 200)}, data: it.Message}, it.Dir)
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
	_ = json.Unmarshal(it.Data, &ev)
	if it.Name == "event" && twins[ev.Kind] {
		return
	}
	e := &entry{Row: Row{Type: "event", Time: it.Time, Text: eventText(it.Name, it.Data), Fold: steps[it.Name]}, data: it.Data}
	if it.Name != "user" && s.Prompt == "" && bytes.Contains(it.Data, []byte(`"prompt"`)) {
		s.Prompt = clip(agentPrompt(it.Data), 200)
	}
	switch it.Name {
	case "user":
		s.Turns++
		if s.Prompt == "" {
			s.Prompt = clip(ev.Content, 200)
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

// paramsOf is what a row shows of a call's params.
func paramsOf(params json.RawMessage) (p callArgs) {
	read := bodyReader(p.read)
	_ = protocol.Unmarshal(params, &read)
	return p
}

// resultOf is what a row shows of a call's result.
func resultOf(result json.RawMessage) (r callReply) {
	read := bodyReader(r.read)
	_ = protocol.Unmarshal(result, &read)
	return r
}

type bodyReader func(*jsontext.Decoder) error

func (f bodyReader) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return f(dec) }

// eventText is an event's row: its name, or the kind of a runtime event,
// and the gist of the rest.
func eventText(name string, data json.RawMessage) string {
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return name + gist(data)
	}
	var kind string
	if json.Unmarshal(members["kind"], &kind) == nil && kind != "" {
		name = kind
		delete(members, "kind")
	}
	delete(members, "type")
	if len(members) == 0 {
		return name
	}
	rest, _ := json.Marshal(members)
	return name + gist(rest)
}

// gist is a short form of an event's data, for its row.
func gist(data json.RawMessage) string {
	if len(data) == 0 || string(data) == "null" {
		return ""
	}
	return " " + clip(string(data), 160)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// maxLine is the longest line the inspector reads from a producer or a
// file: a message of the runtime's 64 MiB limit, and room for the rest.
const maxLine = wiretap.MaxRecordSize

// readLines calls fn with each line of r, refusing one longer than maxLine.
func readLines(r io.Reader, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			frag, err := br.ReadSlice('\n')
			line = append(line, frag...)
			if len(line) > maxLine {
				return fmt.Errorf("a line longer than %d bytes", maxLine)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if len(bytes.TrimSpace(line)) > 0 {
				if ferr := fn(bytes.TrimRight(line, "\r\n")); ferr != nil {
					return ferr
				}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			break
		}
	}
}

// decodeInfo reads the first line of a producer's stream.
func decodeInfo(line []byte) (feed.Info, error) {
	var info feed.Info
	if err := json.Unmarshal(line, &info); err != nil {
		return info, fmt.Errorf("a session's first line is not its info: %v", err)
	}
	if info.Kind == "" {
		return info, errors.New(`a session's first line has no "kind"`)
	}
	return info, nil
}

// item is an item of a producer's stream, and what a row needs of its
// message (a wire item's), read with it.
type item struct {
	feed.Item
	message
}

// message is what the store takes of a line of the wire that is a JSON-RPC
// message (of another, nothing): its members, the bodies as they are in
// the line.
type message struct {
	id             string // as it is on the wire, "" for none or null
	method         string
	params, result json.RawMessage
	error          json.RawMessage // nil for none or null
	callArgs                       // what a row shows of params
	callReply                      // and of result
}

// callArgs is what a row shows of a call's params: the tool and its key
// argument.
type callArgs struct {
	tool, arg string
}

// argNames are the arguments that say most of a call, when the runtime
// gave no canonical member: the first a call has is its key argument.
var argNames = []string{"command", "cmd", "file_path", "path", "url", "pattern", "query"}

func (p *callArgs) read(dec *jsontext.Decoder) error {
	var canonical, named, first string
	err := readObject(dec, func(name []byte) (err error) {
		switch string(name) {
		case "tool":
			if dec.PeekKind() != '"' {
				return dec.SkipValue()
			}
			p.tool, err = readString(dec)
		case "canonical":
			if dec.PeekKind() != '{' {
				return dec.SkipValue()
			}
			// The first of command, path, url, pattern, server.
			rank := len(canonicalNames)
			return readObject(dec, func(name []byte) error {
				i := indexOf(canonicalNames, string(name))
				if i < 0 || i >= rank || dec.PeekKind() != '"' {
					return dec.SkipValue()
				}
				v, err := readString(dec)
				if v != "" {
					canonical, rank = v, i
				}
				return err
			})
		case "arguments":
			if dec.PeekKind() != '{' {
				return dec.SkipValue()
			}
			rank := len(argNames)
			return readObject(dec, func(name []byte) error {
				if dec.PeekKind() != '"' {
					return dec.SkipValue()
				}
				key := string(name)
				v, err := readString(dec)
				if i := indexOf(argNames, key); i >= 0 && i < rank && v != "" {
					named, rank = v, i
				} else if first == "" && v != "" {
					first = key + "=" + v
				}
				return err
			})
		default:
			return dec.SkipValue()
		}
		return err
	})
	switch {
	case canonical != "":
		p.arg = canonical
	case named != "":
		p.arg = named
	default:
		p.arg = first
	}
	p.arg = clip(p.arg, 300)
	return err
}

var canonicalNames = []string{"command", "path", "url", "pattern", "server"}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// callReply is what a row shows of a call's result: its action, or an
// approver's answer, and the reason.
type callReply struct {
	action, reason    string
	approved, abstain bool
	approval          bool // the result has "approved"
}

// verb is the action of a result, or an approver's answer: approved,
// denied, abstained.
func (r callReply) verb() string {
	switch {
	case r.action != "" || !r.approval:
		return r.action
	case r.approved:
		return "approved"
	case r.abstain:
		return "abstained"
	}
	return "denied"
}

func (r *callReply) read(dec *jsontext.Decoder) error {
	return readObject(dec, func(name []byte) (err error) {
		k := dec.PeekKind()
		switch string(name) {
		case "action":
			if k != '"' {
				return dec.SkipValue()
			}
			r.action, err = readString(dec)
		case "reason":
			if k != '"' {
				return dec.SkipValue()
			}
			r.reason, err = readString(dec)
			r.reason = clip(r.reason, 300)
		case "approved":
			r.approval = true
			r.approved = k == 't'
			err = dec.SkipValue()
		case "abstain":
			r.abstain = k == 't'
			err = dec.SkipValue()
		default:
			err = dec.SkipValue()
		}
		return err
	})
}

// decodeItem reads one item of a producer's stream, in one pass: a wire
// item's message with it (the inspector reads three lines for each call
// of a host it listens to, on the same cores as the host). What a row
// keeps (Params, Message, the message's params, ...) is a slice of line,
// which the caller must not reuse; of the rest, only what a row shows is
// decoded.
func decodeItem(line []byte) (item, error) {
	r := itemReader{line: line}
	if err := protocol.Unmarshal(line, &r); err != nil {
		// A wire item carries the hook's line as it was, unchecked: when
		// that line only looked like a JSON object, it is text.
		head, msg, ok := bytes.Cut(line, []byte(`,"message":`))
		head = append(head[:len(head):len(head)], '}')
		r = itemReader{line: head}
		if !ok || !bytes.HasPrefix(head, []byte(`{"type":"wire",`)) || protocol.Unmarshal(head, &r) != nil || !bytes.HasSuffix(msg, []byte("}")) {
			return item{}, fmt.Errorf("an item that is not JSON: %v", err)
		}
		r.it.Message, r.it.Text = nil, string(msg[:len(msg)-1])
	}
	it := r.it
	switch it.Type {
	case "call", "wire", "stderr", "event", "end":
	default:
		return it, fmt.Errorf("an item of unknown type %q", it.Type)
	}
	if it.Type == "wire" && it.Dir != wiretap.Send && it.Dir != wiretap.Recv {
		return it, fmt.Errorf(`a wire item's "dir" is %q`, it.Dir)
	}
	return it, nil
}

// itemReader decodes an item with the decoder of its line, whose offsets
// find the bodies in the line.
type itemReader struct {
	it   item
	line []byte
}

func (r *itemReader) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	it := &r.it
	return readObject(dec, func(name []byte) (err error) {
		switch string(name) {
		case "type":
			it.Type, err = readString(dec)
		case "time":
			err = jsonv2.UnmarshalDecode(dec, &it.Time)
		case "hook":
			it.Hook, err = readString(dec)
		case "method":
			it.Method, err = readString(dec)
		case "error":
			it.Error, err = readString(dec)
		case "policy":
			it.Policy, err = readString(dec)
		case "dir":
			it.Dir, err = readString(dec)
		case "text":
			it.Text, err = readString(dec)
		case "name":
			it.Name, err = readString(dec)
		case "duration_ns":
			err = jsonv2.UnmarshalDecode(dec, &it.DurationNS)
		case "latency_ns":
			err = jsonv2.UnmarshalDecode(dec, &it.LatencyNS)
		case "host":
			err = jsonv2.UnmarshalDecode(dec, &it.Host)
		case "params":
			it.Params, _, err = readValue(dec, r.line, "")
		case "result":
			it.Result, _, err = readValue(dec, r.line, "")
		case "data":
			it.Data, _, err = readValue(dec, r.line, "")
		case "message":
			start := dec.InputOffset()
			it.message, err = readMessage(dec, r.line)
			it.Message = valueAt(r.line, start, dec.InputOffset())
		default:
			err = dec.SkipValue()
		}
		return err
	})
}

// messageOf is what the store takes of a message of a recording.
func messageOf(msg json.RawMessage) message {
	r := messageReader{line: msg}
	if protocol.Unmarshal(msg, &r) != nil {
		return message{}
	}
	return r.m
}

type messageReader struct {
	m    message
	line []byte
}

func (r *messageReader) UnmarshalJSONFrom(dec *jsontext.Decoder) (err error) {
	r.m, err = readMessage(dec, r.line)
	return err
}

// readMessage reads a line of the wire: a JSON-RPC message, or another
// value, skipped.
func readMessage(dec *jsontext.Decoder, line []byte) (m message, err error) {
	if dec.PeekKind() != '{' {
		return m, dec.SkipValue()
	}
	rpc := true
	err = readObject(dec, func(name []byte) (err error) {
		switch string(name) {
		case "id":
			var id json.RawMessage
			if id, _, err = readValue(dec, line, ""); string(id) != "null" {
				m.id = string(id)
			}
		case "method":
			if k := dec.PeekKind(); k != '"' && k != 'n' {
				rpc = false
				return dec.SkipValue()
			}
			m.method, err = readString(dec)
		case "params":
			m.params, err = readMember(dec, line, m.callArgs.read)
		case "result":
			m.result, err = readMember(dec, line, m.callReply.read)
		case "error":
			if m.error, _, err = readValue(dec, line, ""); string(m.error) == "null" {
				m.error = nil
			}
		default:
			err = dec.SkipValue()
		}
		return err
	})
	if !rpc {
		return message{}, err
	}
	return m, err
}

// readObject reads an object, calling member with each name to read its
// value. The name is the decoder's: it lasts until the next read.
func readObject(dec *jsontext.Decoder, member func(name []byte) error) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("an object was expected, not %v", tok)
	}
	for dec.PeekKind() != '}' {
		// Read as a value, a name is not copied into a string.
		quoted, err := dec.ReadValue()
		if err != nil {
			return err
		}
		name := quoted[1 : len(quoted)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name, _ = jsontext.AppendUnquote(nil, quoted)
		}
		if err := member(name); err != nil {
			return err
		}
	}
	_, err = dec.ReadToken()
	return err
}

// readString reads a string, or null as "".
func readString(dec *jsontext.Decoder) (string, error) {
	tok, err := dec.ReadToken()
	switch {
	case err != nil:
		return "", err
	case tok.Kind() == '"':
		return tok.String(), nil
	case tok.Kind() == 'n':
		return "", nil
	}
	return "", fmt.Errorf("a string was expected, not %v", tok)
}

// readValue reads a value and returns it as it is in line.
func readValue(dec *jsontext.Decoder, line []byte, _ string) (body json.RawMessage, value string, err error) {
	body, err = readMember(dec, line, nil)
	return body, "", err
}

// readMember reads a value and returns it as it is in line, having read it,
// when it is an object, with read.
func readMember(dec *jsontext.Decoder, line []byte, read func(*jsontext.Decoder) error) (json.RawMessage, error) {
	start := dec.InputOffset()
	var err error
	if read != nil && dec.PeekKind() == '{' {
		err = read(dec)
	} else {
		err = dec.SkipValue()
	}
	return valueAt(line, start, dec.InputOffset()), err
}

// valueAt is the value between two offsets of the decoder: from after a
// member's name (start), without the colon and the blanks before the value.
func valueAt(line []byte, start, end int64) json.RawMessage {
	if start < 0 || end > int64(len(line)) || start > end {
		return nil
	}
	return bytes.TrimLeft(line[start:end:end], ": \t\r\n")
}

// ingest reads a producer's stream into a new session until it ends.
func (st *store) ingest(r io.Reader) error {
	var s *session
	err := readLines(r, func(line []byte) error {
		if s == nil {
			info, err := decodeInfo(line)
			if err != nil {
				return err
			}
			s = st.add(Summary{Info: info, Source: "live"})
			st.notify()
			return nil
		}
		it, err := decodeItem(line)
		if err != nil {
			// One item lost, not the session.
			st.take(s, item{Item: feed.Item{Type: "wire", Dir: "?", Text: "an item the inspector cannot read: " + err.Error()}})
			return nil
		}
		st.take(s, it)
		st.notify()
		return nil
	})
	if s != nil {
		st.mu.Lock()
		s.Ended = true
		s.flush()
		st.mu.Unlock()
		st.notify()
	}
	return err
}

// openRecording adds a recording (hookwire tap --out, hookwire run
// --trace FILE) as a session.
func (st *store) openRecording(name string, r io.Reader) (int, error) {
	recs, err := wiretap.Read(r)
	if err != nil {
		return 0, err
	}
	info := feed.Info{Kind: "recording"}
	if len(recs) > 0 {
		info.Start, info.Command = recs[0].Time, recs[0].Hook
	}
	s := st.add(Summary{Info: info, Source: "recording", Name: name, Ended: true})
	for _, rec := range recs {
		it := feed.Item{Type: "wire", Time: rec.Time, Hook: rec.Hook, Dir: rec.Dir, Message: rec.Message, LatencyNS: int64(rec.Latency)}
		if rec.Text != nil {
			it.Text = *rec.Text
		}
		st.take(s, item{Item: it, message: messageOf(rec.Message)})
	}
	st.mu.Lock()
	s.records = recs
	st.mu.Unlock()
	st.notify()
	return s.ID, nil
}

// maxLogRows is how many of a log's last lines a session of a log shows.
const maxLogRows = 10_000

// openLogs adds a session for each bridge session's log in dir: the
// sessions that ran, or began, before the inspector.
func (st *store) openLogs(dir string) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		var lines []string
		_ = readLines(f, func(line []byte) error {
			lines = append(lines, string(line))
			if len(lines) > 2*maxLogRows {
				lines = append(lines[:0], lines[len(lines)-maxLogRows:]...)
			}
			return nil
		})
		f.Close()
		lines = lines[max(0, len(lines)-maxLogRows):]
		fi, _ := os.Stat(p)
		// The bridge names a log AGENT-HASH.log.
		agent := filepath.Base(p)
		agent = agent[:max(0, strings.LastIndex(agent, "-"))]
		info := feed.Info{Kind: "bridge", Host: agent, Log: filepath.Base(p)}
		if fi != nil {
			info.Start = fi.ModTime()
		}
		s := st.add(Summary{Info: info, Source: "log", Name: filepath.Base(p), Ended: true})
		st.mu.Lock()
		for _, l := range lines {
			s.append(&entry{Row: Row{Type: "log", Text: l}})
		}
		st.mu.Unlock()
	}
	st.notify()
}
