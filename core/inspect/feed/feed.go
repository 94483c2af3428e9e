// Package feed is the producers' side of `hookwire inspect`: a session of
// `hookwire run`, `tap`, `mcp` or the bridge publishes what it does to the
// inspector while one runs, and costs nothing when none does.
//
// The inspector listens on a Unix socket in the per-user folder (Socket).
// A session dials it when it opens. A short session (hookwire run, tap,
// mcp) hooks into its runtime only if one listens then (Listening): with
// none, it runs exactly as without hookwire inspect, and its recording
// (run --trace FILE, tap --out FILE) shows it later. A long one (the
// bridge's, which lasts as long as the agent's session) publishes always,
// and dials again at most once a second while it has no inspector, so that
// one started later sees the rest; with none, each method returns after a
// lock and a clock reading. Once connected, every item is appended to one
// buffer in memory, written every 50 milliseconds in one write by a
// goroutine of its own: the host never waits for the inspector, pays for a
// wire line a copy into that buffer (not an encoding, nor an allocation),
// and nothing is dropped while the inspector reads.
//
// The stream is JSON Lines, one Item a line; the first line of a
// connection is the session's Info.
package feed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// Dir is the per-user folder of the bridge's sessions and the inspector's
// socket: $XDG_RUNTIME_DIR/hookwire; on Windows hookwire in %LOCALAPPDATA%;
// otherwise hookwire-UID in the temporary folder.
func Dir() string { return dirOf(goruntime.GOOS, os.Getenv, os.TempDir(), os.Getuid()) }

// dirOf is Dir on the platform goos, with getenv, the temporary folder tmp
// and the user id uid as given: a choice tests make for every platform.
func dirOf(goos string, getenv func(string) string, tmp string, uid int) string {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "hookwire")
	}
	if goos == "windows" {
		// Windows has no user id (Getuid is -1), and the user's profile,
		// where %LOCALAPPDATA% is, lets no other user in by its access
		// list: one name is enough there. A short folder leaves room in
		// the 108 bytes a Unix socket's path may have.
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "hookwire")
		}
		return filepath.Join(tmp, "hookwire")
	}
	return filepath.Join(tmp, "hookwire-"+strconv.Itoa(uid))
}

// SocketName is the inspector's socket in Dir.
const SocketName = "inspect.sock"

// Socket is the inspector's socket: HOOKWIRE_INSPECT_SOCKET, or SocketName
// in Dir.
func Socket() string {
	if s := os.Getenv("HOOKWIRE_INSPECT_SOCKET"); s != "" {
		return s
	}
	return filepath.Join(Dir(), SocketName)
}

// Info says what a session is; it is the first line of its stream.
type Info struct {
	// Kind is the producer: run, tap, bridge or mcp.
	Kind string `json:"kind"`
	// Host is the host or agent: reference, picoclaw, claude-code, ...
	Host string `json:"host,omitempty"`
	// Command is the hook command, or the hooks configuration.
	Command string `json:"command,omitempty"`
	// Scenario names what a run plays: its scenario file, with the
	// file's folder (weather/scenario.json), which the page shows as the
	// session's name.
	Scenario string `json:"scenario,omitempty"`
	// Log names the file where the session's whole log is, if any.
	Log   string    `json:"log,omitempty"`
	Start time.Time `json:"start"`
	PID   int       `json:"pid"`
	// Joined is set when the inspector came after the session started:
	// what came before is in the session's recording or log, not here.
	Joined bool `json:"joined,omitempty"`
}

// Item is one thing a session did. Type says which members are set:
//
//   - "call": a call to a hook through the runtime: Hook, Method, Params,
//     Result or Error, Policy, DurationNS, Host (what the host discarded of
//     the reply, or did besides).
//   - "wire": a line of the wire (tap): Hook, Dir ("send" or "recv"),
//     Message or Text, LatencyNS on a reply.
//   - "stderr": a line the hook wrote on its stderr: Hook, Text.
//   - "event": something the host did: Name, Data (a step of the agent, an
//     agent's event, the decision the host took).
//   - "end": the session is over.
type Item struct {
	Type       string          `json:"type"`
	Time       time.Time       `json:"time"`
	Hook       string          `json:"hook,omitempty"`
	Method     string          `json:"method,omitempty"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      string          `json:"error,omitempty"`
	Policy     string          `json:"policy,omitempty"`
	DurationNS int64           `json:"duration_ns,omitempty"`
	Host       []string        `json:"host,omitempty"`
	Dir        string          `json:"dir,omitempty"`
	Message    json.RawMessage `json:"message,omitempty"`
	Text       string          `json:"text,omitempty"`
	LatencyNS  int64           `json:"latency_ns,omitempty"`
	Name       string          `json:"name,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// Session publishes one session. A nil *Session publishes nothing; its
// methods are safe for concurrent use.
type Session struct {
	info   Info
	socket string
	log    *slog.Logger // where a refused inspector is said, once

	mu      sync.Mutex
	conn    net.Conn
	queue   []byte        // the lines not written yet
	closing chan struct{} // closed by Close: the writer writes the rest at once
	retryAt time.Time     // when to dial again while no inspector listens
	dialed  bool          // a dial was tried: a later connection joined late
	closed  bool
	refused bool            // an inspector that is not this user's was said
	done    chan struct{}   // closed when the writer of conn has returned
	wired   map[string]bool // the hooks whose wire has been seen
	stamp   []byte          // the time of the last wire line, to the second
	second  int64           // and that second
}

// retry is how often a session without an inspector looks for one, and
// flush how often the queue is written to one.
const (
	retry = time.Second
	flush = 50 * time.Millisecond
)

// Open starts publishing a long session (the bridge's) to the inspector at
// Socket: now if one listens, or from when one does.
func Open(info Info) *Session { return OpenAt(Socket(), info) }

// Listening starts publishing a short session (hookwire run, tap, mcp) to
// the inspector at Socket, if one listens now; with none it returns nil, a
// session that publishes nothing and looks for no inspector.
func Listening(info Info) *Session {
	if s := Open(info); s.Active() {
		return s
	}
	return nil
}

// OpenAt is Open with the inspector's socket named. An inspector that is
// not this user's (checkSocket, PeerIsUser) is sent nothing, and why is
// logged once, on the default logger.
func OpenAt(socket string, info Info) *Session { return openAt(socket, info, slog.Default()) }

func openAt(socket string, info Info, log *slog.Logger) *Session {
	if info.Start.IsZero() {
		info.Start = time.Now()
	}
	info.PID = os.Getpid()
	s := &Session{info: info, socket: socket, log: log}
	s.mu.Lock()
	s.connect()
	s.mu.Unlock()
	return s
}

// connect dials the inspector, with s.mu held, unless it did less than a
// second ago; it reports whether one listens.
func (s *Session) connect() bool {
	if s.conn != nil {
		return true
	}
	now := time.Now()
	if s.closed || now.Before(s.retryAt) {
		return false
	}
	s.retryAt = now.Add(retry)
	joined := s.dialed
	s.dialed = true
	// Checked at each dial: another user may make the folder, or plant a
	// socket, at any time while no inspector runs.
	if err := checkSocket(s.socket); err != nil {
		if err != errNoInspector {
			s.refuse(err)
		}
		return false
	}
	conn, err := net.DialTimeout("unix", s.socket, 100*time.Millisecond)
	if err != nil {
		return false
	}
	if err := PeerIsUser(conn); err != nil {
		conn.Close()
		s.refuse(fmt.Errorf("%s: %w; stop it, remove the socket, and start hookwire inspect again", s.socket, err))
		return false
	}
	info := s.info
	info.Joined = joined
	first, _ := json.Marshal(info)
	s.conn, s.queue = conn, append(first, '\n')
	s.closing, s.done = make(chan struct{}), make(chan struct{})
	go s.write(conn, s.closing, s.done)
	return true
}

// refuse says once, with s.mu held, why this session sends nothing to the
// inspector at its socket: a bridge dials again every second, and one line
// is enough.
func (s *Session) refuse(why error) {
	if s.refused {
		return
	}
	s.refused = true
	s.log.Warn("hookwire inspect: this session is not sent to the inspector at " + s.socket + ", which may not be this user's: " + why.Error())
}

// write sends the queue to the inspector until the session closes or the
// inspector goes away.
func (s *Session) write(conn net.Conn, closing, done chan struct{}) {
	defer close(done)
	defer conn.Close()
	tick := time.NewTicker(flush)
	defer tick.Stop()
	var spare []byte // the batch written last: the next queue, not a new one
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = spare[:0]
		closed := s.closed
		s.mu.Unlock()
		if !writeAll(conn, batch) {
			s.mu.Lock()
			if s.conn == conn {
				s.conn, s.queue = nil, nil
			}
			s.mu.Unlock()
			return
		}
		if closed {
			return
		}
		spare = nil
		if cap(batch) <= maxSpare {
			spare = batch
		}
		select {
		case <-tick.C:
		case <-closing:
		}
	}
}

// maxSpare is the largest batch kept for the next: 50 ms of a host that
// calls its hooks as fast as it can is about a megabyte, and a burst of
// more must not stay in memory for good.
const maxSpare = 4 << 20

// stuck is how long an inspector may take no byte before the session
// gives it up: a stuck inspector loses the session, never the host's time;
// a slow one loses nothing.
const stuck = 5 * time.Second

// writeAll writes the batch, as long as the inspector takes some of it
// within stuck each time.
func writeAll(conn net.Conn, batch []byte) bool {
	for len(batch) > 0 {
		conn.SetWriteDeadline(time.Now().Add(stuck))
		n, err := conn.Write(batch)
		batch = batch[n:]
		if err != nil && (n == 0 || !errors.Is(err, os.ErrDeadlineExceeded)) {
			return false
		}
	}
	return true
}

// Active reports whether an inspector listens: a producer may skip the
// work of an item when none does.
func (s *Session) Active() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connect()
}

// Publish queues an item for the inspector; its Time is set when zero.
func (s *Session) Publish(it Item) {
	if !s.Active() {
		return
	}
	if it.Time.IsZero() {
		it.Time = time.Now()
	}
	b, err := json.Marshal(it)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		s.queue = append(append(s.queue, b...), '\n')
	}
}

// Event publishes something the host did, with its data as JSON.
func (s *Session) Event(name string, data any) {
	if !s.Active() {
		return
	}
	b, _ := json.Marshal(data)
	s.Publish(Item{Type: "event", Name: name, Data: b})
}

// Wire publishes a line of the wire; it has the shape of
// runtime.Options.Trace and wiretap.Tap.Trace.
func (s *Session) Wire(hook string, out bool, line []byte) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.connect() {
		return
	}
	now := time.Now()
	if !s.wired[hook] {
		if s.wired == nil {
			s.wired = map[string]bool{}
		}
		s.wired[hook] = true
	}
	// The line of an Item of type wire, the message copied as it is: the
	// host pays a copy, not an encoding nor even a check. A line that only
	// looks like a JSON object is told apart by the inspector.
	b := append(s.queue, `{"type":"wire","time":"`...)
	b = s.appendTime(b, now)
	b = append(b, `","hook":`...)
	b = wirefmt.AppendString(b, hook)
	if out {
		b = append(b, `,"dir":"send"`...)
	} else {
		b = append(b, `,"dir":"recv"`...)
	}
	if len(line) > 1 && line[0] == '{' && line[len(line)-1] == '}' {
		b = append(append(b, `,"message":`...), line...)
	} else {
		b = append(b, `,"text":`...)
		b = wirefmt.AppendString(b, string(line))
	}
	s.queue = append(b, "}\n"...)
}

// appendTime appends now in RFC 3339, to the nanosecond, with s.mu held:
// the date and the time to the second are formatted once a second, not
// once a line.
func (s *Session) appendTime(b []byte, now time.Time) []byte {
	now = now.UTC()
	if sec := now.Unix(); sec != s.second || s.stamp == nil {
		s.stamp, s.second = now.AppendFormat(s.stamp[:0], "2006-01-02T15:04:05."), sec
	}
	b = append(b, s.stamp...)
	ns := now.Nanosecond()
	for d := 100_000_000; d > 0; d /= 10 {
		b = append(b, byte('0'+ns/d%10))
	}
	return append(b, 'Z')
}

// Close publishes the end of the session, and waits, at most two seconds,
// until the inspector has it all.
func (s *Session) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	closing, done := s.closing, s.done
	if s.conn != nil && !s.closed {
		end, _ := json.Marshal(Item{Type: "end", Time: time.Now()})
		s.queue = append(append(s.queue, end...), '\n')
		close(closing)
	}
	s.closed = true
	s.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

// Logger wraps a log handler so that each line a hook writes on its stderr
// (the runtime logs it with stream=stderr and the hook's name) is also
// published, beside the calls.
func (s *Session) Logger(h slog.Handler) slog.Handler { return stderrHandler{h, s, ""} }

type stderrHandler struct {
	slog.Handler
	s    *Session
	hook string // from WithAttrs
}

func (h stderrHandler) Handle(ctx context.Context, r slog.Record) error {
	if h.s.Active() {
		hook, stderr := h.hook, false
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "stream":
				stderr = a.Value.String() == "stderr"
			case "hook":
				hook = a.Value.String()
			}
			return true
		})
		if stderr {
			h.s.Publish(Item{Type: "stderr", Hook: hook, Text: r.Message})
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h stderrHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	hook := h.hook
	for _, a := range attrs {
		if a.Key == "hook" {
			hook = a.Value.String()
		}
	}
	return stderrHandler{h.Handler.WithAttrs(attrs), h.s, hook}
}

func (h stderrHandler) WithGroup(name string) slog.Handler {
	return stderrHandler{h.Handler.WithGroup(name), h.s, h.hook}
}

// Call publishes what the runtime says of a call to a hook once it is over:
// its latency, its failure and policy, what the host did with the reply. It
// has the shape of runtime.Options.OnCall. The request and the reply of a
// process hook are on the wire (Wire, as runtime.Options.Trace), where the
// inspector pairs them with the call; only an in-process hook's, which has
// no wire, are encoded here.
func (s *Session) Call(rec runtime.CallRecord) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.connect() {
		return
	}
	var bodies []byte
	if !s.wired[rec.Hook] {
		// An in-process hook's params and result, which no wire line
		// carries, are encoded without the lock.
		s.mu.Unlock()
		bodies = append(bodies, `,"time":"`...)
		bodies = time.Now().UTC().AppendFormat(bodies, time.RFC3339Nano)
		bodies = append(bodies, `","params":`...)
		bodies = appendJSON(bodies, rec.Params)
		if rec.Result != nil {
			bodies = append(bodies, `,"result":`...)
			bodies = appendJSON(bodies, rec.Result)
		}
		s.mu.Lock()
		if s.conn == nil {
			return
		}
	}
	b := append(s.queue, `{"type":"call","hook":`...)
	b = wirefmt.AppendString(b, rec.Hook)
	b = append(b, `,"method":`...)
	b = wirefmt.AppendString(b, rec.Method)
	b = append(b, `,"duration_ns":`...)
	b = strconv.AppendInt(b, int64(rec.Duration), 10)
	b = append(b, bodies...)
	if rec.Err != nil {
		b = append(b, `,"error":`...)
		b = appendJSON(b, rec.Err.Error())
		b = append(b, `,"policy":`...)
		b = appendJSON(b, string(rec.Policy))
	}
	if len(rec.Discarded) > 0 {
		b = append(b, `,"host":`...)
		b = appendJSON(b, rec.Discarded)
	}
	s.queue = append(b, "}\n"...)
}

// appendJSON appends v as the wire encodes it, or null.
func appendJSON(b []byte, v any) []byte {
	out, err := protocol.AppendMarshal(b, v)
	if err != nil {
		return append(b, "null"...)
	}
	return out
}

// Attach makes a runtime publish to the inspector: each call (OnCall), the
// wire (Trace) and the hooks' stderr (Logger), each after what opts
// already has. On a nil session (Listening found no inspector) it leaves
// opts as they are, and the runtime runs exactly as it would without.
func (s *Session) Attach(opts *runtime.Options) {
	if s == nil {
		return
	}
	if call := opts.OnCall; call != nil {
		opts.OnCall = func(rec runtime.CallRecord) { call(rec); s.Call(rec) }
	} else {
		opts.OnCall = s.Call
	}
	if trace := opts.Trace; trace != nil {
		opts.Trace = func(hook string, out bool, line []byte) { trace(hook, out, line); s.Wire(hook, out, line) }
	} else {
		opts.Trace = s.Wire
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	opts.Logger = slog.New(s.Logger(opts.Logger.Handler()))
}
