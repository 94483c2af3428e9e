package inspect

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

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
	if protocol.Unmarshal(result, &members) != nil {
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
