package wiretap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// DefaultTimeout bounds each reply of a replay.
const DefaultTimeout = 5 * time.Second

// NoReply is the error of a call that got no reply within its deadline.
type NoReply time.Duration

func (e NoReply) Error() string { return fmt.Sprintf("no reply within %v", time.Duration(e)) }
func (e NoReply) Unwrap() error { return context.DeadlineExceeded }

// ReplayOptions tune a replay. The zero value is ready to use.
type ReplayOptions struct {
	// Hook picks the hook of a recording that holds several (a trace of
	// hookwire run); it may be left empty when there is one.
	Hook string
	// Ignore lists members left out of the comparison: a JSON Pointer into
	// the reply ("/result/reason") leaves out that member, a bare name
	// ("duration") every member of that name, at any depth.
	Ignore []string
	// Timeout bounds each reply; zero means DefaultTimeout.
	Timeout time.Duration
	// Process tunes the hook's process; its logger gets the hook's stderr.
	Process wire.ProcessOptions
	// Trace, when set, sees every line, with the hook's name.
	Trace func(hook string, out bool, line []byte)
}

// Report is the outcome of a replay: one entry per request of the
// recording, in the order they were sent.
type Report struct {
	// Hook is the name the recording's host gave the hook.
	Hook string `json:"hook"`
	// Command is the hook's argv.
	Command []string `json:"command"`
	Calls   []Call   `json:"calls"`
}

// Call is one request, replayed.
type Call struct {
	// ID is the request's id in the recording.
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	// Tool is the tool of a tool method's request, to tell calls apart.
	Tool  string `json:"tool,omitempty"`
	Match bool   `json:"match"`
	// Diffs are the members whose values differ, when both sides replied.
	Diffs []Diff `json:"diffs,omitempty"`
	// Error says why a side has no reply to compare.
	Error string `json:"error,omitempty"`
}

// Diff is one member of a reply that differs: Path is its JSON Pointer in
// the reply; Recorded and Replayed are its values, absent (nil) where the
// member is missing. A member missing on one side and empty on the other
// (null, "", 0, false, [], {}) is no difference: a host that reads replies
// into typed values, as PicoClaw does, sees none.
type Diff struct {
	Path     string          `json:"path"`
	Recorded json.RawMessage `json:"recorded,omitempty"`
	Replayed json.RawMessage `json:"replayed,omitempty"`
}

// OK is true when every call matched.
func (r *Report) OK() bool {
	for _, c := range r.Calls {
		if !c.Match {
			return false
		}
	}
	return true
}

// String names a call: its method, tool and recorded id.
func (c Call) String() string {
	s := c.Method
	if c.Tool != "" {
		s += " " + c.Tool
	}
	return s + " (id " + string(c.ID) + ")"
}

// WriteText writes the report for people: each call, MATCH or DIFF, each
// difference on a line of its own, then a total.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "replay of hook %s against %s\n", r.Hook, strings.Join(r.Command, " "))
	differ := 0
	for _, c := range r.Calls {
		status := "MATCH"
		if !c.Match {
			status = "DIFF "
			differ++
		}
		fmt.Fprintf(&b, "  %s  %s\n", status, c)
		if c.Error != "" {
			fmt.Fprintf(&b, "           %s\n", c.Error)
		}
		for _, d := range c.Diffs {
			fmt.Fprintf(&b, "           %s: recorded %s, replayed %s\n", d.Path, shown(d.Recorded), shown(d.Replayed))
		}
	}
	fmt.Fprintf(&b, "%d calls: %d match, %d differ\n", len(r.Calls), len(r.Calls)-differ, differ)
	_, err := io.WriteString(w, b.String())
	return err
}

func shown(v json.RawMessage) string {
	if v == nil {
		return "nothing"
	}
	return wirefmt.Clip(string(v), 200)
}

// exchange is a request of the recording, and what became of it.
type exchange struct {
	index    int // of its record
	msg      envelope
	recorded *envelope // the recorded reply; nil when there is none
	replyAt  int       // index of the recorded reply's record
	done     chan struct{}
	replayed *envelope
	err      error
}

// Replay plays the host's side of a recording to the hook cmd and compares
// each reply with the recorded one. The hook gets the recording's hello
// (its name, modes and extensions), then the same requests and
// notifications in the same order; a request is sent once the replies that
// had come before it in the recording have come again, so requests that
// were in flight together are again, and no others. cmd.Name, Modes and
// Extensions are taken from the recording.
//
// Replay fails when the recording holds no hello for the hook, when the
// hook cannot be started or does not answer hello, and when ctx ends.
func Replay(ctx context.Context, recs []Record, cmd wire.Command, opts ReplayOptions) (*Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	recs, err := pick(recs, opts.Hook)
	if err != nil {
		return nil, err
	}
	hello, exchanges, err := plan(recs)
	if err != nil {
		return nil, err
	}
	cmd.Name, cmd.Modes, cmd.Extensions = hello.Name, hello.Modes, hello.Extensions
	if opts.Trace != nil {
		opts.Process.Conn.Trace = func(out bool, line []byte) { opts.Trace(hello.Name, out, line) }
	}
	if opts.Process.HelloTimeout == 0 {
		opts.Process.HelloTimeout = opts.Timeout
	}
	p, err := wire.Spawn(ctx, cmd, opts.Process)
	if err != nil {
		return nil, err
	}
	defer p.Close()

	byIndex := map[int]*exchange{}
	for _, x := range exchanges {
		byIndex[x.index] = x
	}
	for i, r := range recs {
		if r.Dir != Send || r.Text != nil {
			continue
		}
		// What had been answered before this line went must be answered again.
		for _, x := range exchanges {
			if x.recorded != nil && x.replyAt < i && x.index < i {
				select {
				case <-x.done:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
		}
		m := r.envelope()
		switch {
		case m.Method == nil || *m.Method == protocol.MethodHello:
		case byIndex[i] != nil:
			go byIndex[i].replay(ctx, p, opts.Timeout)
		default:
			// A notification has no decision to compare; one that cannot be
			// sent means the hook is gone, which the calls after it report.
			_ = p.Notify(ctx, *m.Method, params(m))
		}
	}
	report := &Report{Hook: hello.Name, Command: cmd.Argv}
	ignore := newIgnore(opts.Ignore)
	for _, x := range exchanges {
		select {
		case <-x.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		report.Calls = append(report.Calls, x.compare(ignore))
	}
	return report, nil
}

// pick keeps the records of one hook.
func pick(recs []Record, hook string) ([]Record, error) {
	names := map[string]bool{}
	for _, r := range recs {
		if r.Hook != "" {
			names[r.Hook] = true
		}
	}
	if hook == "" {
		if len(names) > 1 {
			return nil, fmt.Errorf("the recording holds several hooks (%s): say which", strings.Join(slices.Sorted(maps.Keys(names)), ", "))
		}
		return recs, nil
	}
	if !names[hook] {
		return nil, fmt.Errorf("the recording holds no hook %s", hook)
	}
	var out []Record
	for _, r := range recs {
		if r.Hook == hook || r.Hook == "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// plan finds the hello and the requests of a recording, each with its
// recorded reply.
func plan(recs []Record) (protocol.HelloParams, []*exchange, error) {
	var hello protocol.HelloParams
	found := false
	var exchanges []*exchange
	waiting := map[string]*exchange{}
	for i, r := range recs {
		m := r.envelope()
		if r.Text != nil {
			continue
		}
		if r.Dir == Recv {
			if x := waiting[m.idKey()]; x != nil && m.Method == nil {
				x.recorded, x.replyAt = &m, i
				delete(waiting, m.idKey())
			}
			continue
		}
		if m.Method == nil {
			continue
		}
		if *m.Method == protocol.MethodHello {
			if found {
				return hello, nil, fmt.Errorf("record %d: a second hook.hello: the hook was restarted; replay one of its lives at a time", i+1)
			}
			if err := protocol.Unmarshal(m.Params, &hello); err != nil {
				return hello, nil, fmt.Errorf("record %d: hook.hello params: %v", i+1, err)
			}
			found = true
			continue
		}
		if !found {
			return hello, nil, fmt.Errorf("record %d: %s before hook.hello", i+1, *m.Method)
		}
		if m.isRequest() {
			x := &exchange{index: i, msg: m, done: make(chan struct{})}
			exchanges = append(exchanges, x)
			waiting[m.idKey()] = x
		}
	}
	if !found {
		return hello, nil, errors.New("the recording holds no hook.hello")
	}
	return hello, exchanges, nil
}

func params(m envelope) any {
	if len(m.Params) == 0 {
		return nil
	}
	return json.RawMessage(m.Params)
}

func (x *exchange) replay(ctx context.Context, p *wire.Process, timeout time.Duration) {
	defer close(x.done)
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, NoReply(timeout))
	defer cancel()
	result, err := p.Call(cctx, *x.msg.Method, params(x.msg))
	var rpcErr *protocol.RPCError
	switch {
	case errors.As(err, &rpcErr):
		b, _ := protocol.Marshal(rpcErr)
		x.replayed = &envelope{Error: b}
	case err != nil:
		x.err = err
	default:
		x.replayed = &envelope{Result: result}
	}
}

// compare says whether the replayed reply is the recorded one.
func (x *exchange) compare(ignore ignore) Call {
	c := Call{ID: x.msg.ID, Method: *x.msg.Method}
	var call struct {
		Tool string `json:"tool"`
	}
	if json.Unmarshal(x.msg.Params, &call) == nil {
		c.Tool = call.Tool
	}
	switch {
	case x.recorded == nil && x.replayed == nil:
		c.Match = true
		c.Error = "no reply, as in the recording"
	case x.recorded == nil:
		c.Error = "the recording has no reply; the hook replied"
	case x.replayed == nil:
		c.Error = x.err.Error()
	default:
		var rec, rep any
		if err := decodeReply(*x.recorded, &rec); err != nil {
			c.Error = "recorded reply: " + err.Error()
			return c
		}
		if err := decodeReply(*x.replayed, &rep); err != nil {
			c.Error = "replayed reply: " + err.Error()
			return c
		}
		diff("", rec, rep, ignore, &c.Diffs)
		c.Match = len(c.Diffs) == 0
	}
	return c
}

// decodeReply takes the result or error of a reply, as the object
// {"result": ...} or {"error": ...}, for comparison.
func decodeReply(m envelope, v *any) error {
	obj := map[string]json.RawMessage{}
	if m.Result != nil {
		obj["result"] = m.Result
	}
	if m.Error != nil {
		obj["error"] = m.Error
	}
	b, _ := json.Marshal(obj)
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

// ignore is what a comparison leaves out.
type ignore struct {
	paths, names map[string]bool
}

func newIgnore(list []string) ignore {
	ig := ignore{paths: map[string]bool{}, names: map[string]bool{}}
	for _, s := range list {
		if strings.HasPrefix(s, "/") {
			ig.paths[s] = true
		} else if s != "" {
			ig.names[s] = true
		}
	}
	return ig
}

// diff appends the differences between a and b, at path.
func diff(path string, a, b any, ig ignore, out *[]Diff) {
	if ig.paths[path] {
		return
	}
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			keys := slices.Sorted(maps.Keys(av))
			for k := range bv {
				if _, ok := av[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				if ig.names[k] {
					continue
				}
				at := path + "/" + escape(k)
				x, inA := av[k]
				y, inB := bv[k]
				switch {
				case inA && inB:
					diff(at, x, y, ig, out)
				case ig.paths[at] || Empty(x) && Empty(y):
				default:
					*out = append(*out, Diff{Path: at, Recorded: encode(x, inA), Replayed: encode(y, inB)})
				}
			}
			return
		}
	case []any:
		if bv, ok := b.([]any); ok {
			for i := range max(len(av), len(bv)) {
				at := path + "/" + strconv.Itoa(i)
				if i < len(av) && i < len(bv) {
					diff(at, av[i], bv[i], ig, out)
				} else if !ig.paths[at] {
					*out = append(*out, Diff{Path: at, Recorded: encode(at2(av, i)), Replayed: encode(at2(bv, i))})
				}
			}
			return
		}
	case json.Number:
		if bv, ok := b.(json.Number); ok && sameNumber(av, bv) {
			return
		}
	default:
		if a == b {
			return
		}
	}
	*out = append(*out, Diff{Path: path, Recorded: encode(a, true), Replayed: encode(b, true)})
}

// Empty is true for a JSON value (decoded with json.Decoder.UseNumber)
// that a host reading it into typed values takes for its zero, as it takes
// a missing member: null, "", 0, false, [] and {}.
func Empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case json.Number:
		return sameNumber(v, "0")
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

func at2(s []any, i int) (any, bool) {
	if i < len(s) {
		return s[i], true
	}
	return nil, false
}

func encode(v any, present bool) json.RawMessage {
	if !present {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// sameNumber compares numbers by value: 1, 1.0 and 1e0 are the same.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, _, errA := big.ParseFloat(string(a), 10, 256, big.ToNearestEven)
	y, _, errB := big.ParseFloat(string(b), 10, 256, big.ToNearestEven)
	return errA == nil && errB == nil && x.Cmp(y) == 0
}

// escape writes a member name as a JSON Pointer token.
func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
