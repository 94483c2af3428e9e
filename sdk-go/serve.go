package hookwire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Serve speaks the protocol on r and w: it reads one JSON-RPC message per
// line from r and writes one line per reply to w, until r ends or ctx is
// done. Requests are handled concurrently, so a slow handler holds up no
// other, and replies go out as their handlers finish, matched by id.
// Notifications get no reply. A line that is not JSON gets a -32700 error
// with a null id, and reading goes on. Input lines have no length limit;
// a reply line longer than the host reads ([Hook.MaxLineBytes]) is
// replaced, with a warning, by one that never lets through what the hook
// would have stopped or changed: an after_tool modify cut to fit, else a
// denial or an abort (docs/protocol.md, "Replies longer than the host
// reads").
//
// When r ends, Serve waits for the handlers in flight and writes their
// replies, runs the [Hook.OnClose] functions and returns nil. The host has
// gone, or is going, and a hook must not outlive it: handlers still running
// half a second after r ends have their context cancelled, and those still
// running a quarter of a second later are abandoned, with a
// warning, and their replies dropped. When ctx is done, Serve
// cancels the handlers' context, waits for them, runs the OnClose functions
// and returns nil, leaving behind a read in progress, which it cannot
// interrupt. Serve returns an error only when reading r or
// writing w fails. It does not touch stdout: [Hook.Run] does.
func (h *Hook) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &session{h: h, ctx: ctx, out: replyWriter{w: bufio.NewWriterSize(w, 64<<10), fail: cancel}}
	ended := make(chan error, 1)
	go s.read(bufio.NewReaderSize(r, 64<<10), ended)

	var err error
	select {
	case err = <-ended:
		s.closeWithin(cancel)
	case <-ctx.Done():
		s.close()
	}
	h.close(ctx)
	if err == nil {
		err = s.out.err
	}
	return err
}

// session is one run of Serve. Everything that may write a reply or call
// an observer is a task counted in wg, so that close can wait for all of
// them.
type session struct {
	h   *Hook
	ctx context.Context
	out replyWriter

	mu       sync.Mutex
	closed   bool
	wg       sync.WaitGroup
	events   []notification // in arrival order, for the one observer task
	draining bool
}

type notification struct {
	method string
	params json.RawMessage
}

// begin counts a new task, unless the session is closing.
func (s *session) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

func (s *session) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wg.Wait()
}

// stdinGrace is how long the handlers in flight when the host closes stdin
// have to finish before their context is cancelled, and cancelGrace how
// long they have after that before the hook stops without them: the hook
// exits within a second of its host.
const (
	stdinGrace  = 500 * time.Millisecond
	cancelGrace = 250 * time.Millisecond
)

// closeWithin is close when the input has ended: it waits for the tasks in
// flight, cancelling them after stdinGrace and abandoning them after
// cancelGrace more.
func (s *session) closeWithin(cancel context.CancelFunc) {
	done := make(chan struct{})
	go func() {
		s.close()
		close(done)
	}()
	grace := time.NewTimer(stdinGrace)
	defer grace.Stop()
	select {
	case <-done:
		return
	case <-grace.C:
	}
	cancel()
	grace.Reset(cancelGrace)
	select {
	case <-done:
	case <-grace.C:
		s.h.logger().Warn("stdin is closed and handlers are still running; stopping without their replies",
			"waited", stdinGrace+cancelGrace)
		s.out.stop()
	}
}

// handOff is how long a request may hold up the reading of the next line.
const handOff = 100 * time.Microsecond

// read reads the input, one line at a time, and runs each request right
// where its line was read: most handlers finish in microseconds, less than
// it costs to start a goroutine and wake a thread for each. A handler that
// is still running after handOff gets the goroutine to itself: the reading
// goes on in a new one, so that a slow handler holds up no other request;
// hook.hello alone holds up the reading, since what it says applies to the
// requests after it. There is one reader at a time, so that events keep
// their order. The
// reader that meets the end of the input says why on ended.
func (s *session) read(r *bufio.Reader, ended chan<- error) {
	for {
		line, err := r.ReadBytes('\n')
		var req *envelope
		if len(bytes.TrimSpace(line)) > 0 {
			req = s.receive(line)
		}
		if err != nil || s.ctx.Err() != nil {
			if err == io.EOF {
				err = nil
			}
			ended <- err
			if req != nil {
				s.handle(req)
			}
			return
		}
		if req == nil {
			continue
		}
		if req.Method == MethodHello {
			// The hello sets what the next replies must fit (the host's
			// line limit, its extensions): nothing is read past it until
			// it is answered.
			s.handle(req)
			continue
		}
		next := time.AfterFunc(handOff, func() { s.read(r, ended) })
		s.handle(req)
		if !next.Stop() {
			return // the reading went on without us
		}
	}
}

// replyWriter writes whole reply lines, one at a time. A reply is flushed
// by the last of the handlers waiting to write, so that a burst of replies
// costs one write, and a lone reply goes out at once.
type replyWriter struct {
	waiting atomic.Int32
	mu      sync.Mutex
	w       *bufio.Writer
	fail    context.CancelFunc
	err     error // the first failed write; later replies are dropped
	stopped bool  // Serve has returned: the replies of handlers it abandoned are dropped
}

// stop drops every later reply, and flushes those written so far.
func (rw *replyWriter) stop() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.stopped = true
	if rw.err == nil {
		rw.err = rw.w.Flush()
	}
}

// send writes a reply line made of parts, one after the other: a large
// result goes from the buffer it was encoded in to w, not copied into a
// line first.
func (rw *replyWriter) send(parts ...[]byte) {
	rw.waiting.Add(1)
	rw.mu.Lock()
	defer rw.mu.Unlock()
	last := rw.waiting.Add(-1) == 0
	if rw.err != nil || rw.stopped {
		return
	}
	var err error
	for _, p := range parts {
		if _, err = rw.w.Write(p); err != nil {
			break
		}
	}
	if err == nil && last {
		err = rw.w.Flush()
	}
	if err != nil {
		rw.err = err
		rw.fail()
	}
}

// envelope is the part of a message that routes it, read in one pass over
// its line: the members are slices of the line.
type envelope struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// readEnvelope reads the members of a message that route it. It checks
// that the line is JSON, except for the params of a request that
// [Hook.decodes]: their decoder checks them as it reads them, and a large
// request is read once rather than twice. Member names match exactly, as
// JSON-RPC has them.
func (h *Hook) readEnvelope(line []byte) (m envelope, err error) {
	if string(bytes.TrimSpace(line)) == "null" {
		return m, nil // JSON, and nothing to answer
	}
	members, err := splitMembers(line)
	if err != nil {
		return m, err
	}
	if id, ok := members["id"]; ok {
		if !validJSON(id) {
			return m, errSyntax
		}
		m.ID = id
	}
	if method, ok := members["method"]; ok {
		if err := decodeInto(method, &m.Method); err != nil {
			return m, err
		}
	}
	for name, raw := range members {
		switch name {
		case "id", "method":
		case "params":
			m.Params = raw
			if (validID(m.ID) == nil || !h.decodes(m.Method)) && !validJSON(raw) {
				return m, errSyntax
			}
		default:
			if !validJSON(raw) {
				return m, errSyntax
			}
		}
	}
	return m, nil
}

// notJSON is the parse error of a line that is not JSON, and nil for one
// that is. It is for replies that are errors already: it reads the whole
// line again.
func notJSON(line []byte) *RPCError {
	if !utf8.Valid(line) {
		return &RPCError{Code: CodeParseError, Message: "parse error: " + errUTF8.Error()}
	}
	var syntax *json.SyntaxError
	if err := json.Unmarshal(line, new(struct{})); errors.As(err, &syntax) {
		return &RPCError{Code: CodeParseError, Message: "parse error: " + err.Error()}
	}
	return nil
}

// maxDepth is how deep encoding/json reads nested objects and arrays; it
// calls anything deeper a syntax error, though it is JSON.
const maxDepth = 10000

var tooDeep = fmt.Sprintf("objects and arrays nested deeper than %d levels", maxDepth)

// nestsTooDeep reports whether data nests objects and arrays deeper than
// encoding/json reads: what it calls a syntax error may be a request whose
// id must be answered. It reads the whole data: it is for error replies.
func nestsTooDeep(data []byte) bool {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			if i = endOfString(data, i); i < 0 {
				return false
			}
			i--
		case '{', '[':
			if depth++; depth > maxDepth {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// receive deals with a line, except for a request, which it counts as a
// task and returns to be handled.
func (s *session) receive(line []byte) *envelope {
	m, err := s.h.readEnvelope(line)
	if err != nil {
		if parse := notJSON(line); parse != nil {
			if id := validID(m.ID); id != nil && nestsTooDeep(line) {
				// JSON all the same, and a request with an id gets an answer.
				s.reply(id, nil, &RPCError{Code: CodeInvalidRequest, Message: "invalid request: " + tooDeep})
			} else {
				s.reply(nil, nil, parse)
			}
		} else {
			s.reply(validID(m.ID), nil, &RPCError{Code: CodeInvalidRequest, Message: "invalid request: " + err.Error()})
		}
		return nil
	}
	switch {
	case isNotification(m.Method):
		// Observe methods never get a reply; older hosts send them with id 0.
		s.notify(notification{m.Method, m.Params})
	case len(m.ID) == 0 || string(m.ID) == "null":
		s.h.logger().Debug("ignoring a notification", "method", m.Method)
	case validID(m.ID) == nil || m.Method == "":
		s.reply(validID(m.ID), nil, &RPCError{Code: CodeInvalidRequest, Message: "invalid request: want a method and a number or string id"})
	default:
		if s.begin() {
			return &m
		}
	}
	return nil
}

func (s *session) handle(m *envelope) {
	defer s.wg.Done()
	result, err := s.h.dispatch(s.ctx, m.Method, m.Params)
	if err != nil && err.Code == CodeInvalidParams && len(m.Params) > 0 {
		// Params that could not be decoded may not be JSON at all, which
		// readEnvelope left to their decoder to find out.
		if parse := notJSON(m.Params); parse != nil {
			if nestsTooDeep(m.Params) {
				err = &RPCError{Code: CodeInvalidParams, Message: "invalid params of " + m.Method + ": " + tooDeep}
			} else {
				m.ID, err = nil, parse
			}
		}
	}
	if err == nil {
		result, err = s.h.fit(m, result)
	}
	s.out.send(replyLine(m.ID, result, err)...)
}

// reply sends a reply the reader makes itself, such as a parse error.
func (s *session) reply(id json.RawMessage, result []byte, err *RPCError) {
	if s.begin() {
		s.out.send(replyLine(id, result, err)...)
		s.wg.Done()
	}
}

// notify queues an event for the observers. One task delivers the queue in
// order; a slow observer delays later events, never requests.
func (s *session) notify(n notification) {
	if len(s.h.observers) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.events = append(s.events, n)
	if !s.draining {
		s.draining = true
		s.wg.Add(1)
		go s.drain()
	}
}

func (s *session) drain() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(s.events) == 0 {
			s.draining = false
			s.mu.Unlock()
			return
		}
		n := s.events[0]
		s.events[0] = notification{}
		s.events = s.events[1:]
		s.mu.Unlock()
		s.h.observe(s.ctx, n.method, n.params)
	}
}

// validID is id when it is a number or a string, the only ids a reply may
// carry, and nil otherwise.
func validID(id json.RawMessage) json.RawMessage {
	if len(id) > 0 && (id[0] == '"' || id[0] == '-' || ('0' <= id[0] && id[0] <= '9')) {
		return id
	}
	return nil
}

// replyLine is a whole reply line, in parts for [replyWriter.send]. It is
// built by hand: the id goes back exactly as it came, and the result is
// already encoded.
func replyLine(id json.RawMessage, result []byte, rpcErr *RPCError) [][]byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	member := `,"result":`
	if rpcErr != nil {
		var err error
		if result, err = rpcErr.MarshalJSON(); err != nil {
			result = []byte(`{"code":-32603,"message":"the error reply could not be encoded"}`)
		}
		member = `,"error":`
	}
	head := make([]byte, 0, len(id)+32)
	head = append(head, `{"jsonrpc":"2.0","id":`...)
	head = append(head, id...)
	head = append(head, member...)
	return [][]byte{head, result, replyEnd}
}

var replyEnd = []byte("}\n")
