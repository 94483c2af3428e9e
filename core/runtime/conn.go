package runtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// ErrClosed is the error of calls made on, or cut short by, a closed connection.
var ErrClosed = errors.New("connection closed")

// ConnOptions tune a Conn. The zero value is ready to use.
type ConnOptions struct {
	// MaxLineSize is the longest line read from the peer; a longer reply
	// fails its call and the connection goes on. Zero means DefaultMaxLineSize.
	MaxLineSize int
	// Logger receives what the peer gets wrong: lines that are not JSON,
	// replies nobody waits for. Nil means slog.Default().
	Logger *slog.Logger
	// Trace, when set, sees every line sent (out is true), just before it
	// is written, and every line received, as it is on the wire, without
	// its newline. It must not keep line.
	Trace func(out bool, line []byte)
	// OnEOF, when set, is asked why the peer closed its output; its answer
	// becomes the error of the calls in flight. A process uses it to report
	// an exit status rather than a bare end of file.
	OnEOF func() error
}

// Conn is a JSON-RPC 2.0 connection to one hook, one message per line.
// Many calls may be in flight at once; replies are matched to calls by id
// and may come in any order. Conn is safe for concurrent use.
type Conn struct {
	r      io.Reader
	w      io.Writer
	opts   ConnOptions
	log    *slog.Logger
	wsem   chan struct{} // held while a line is written, so lines never interleave
	nextID atomic.Uint64

	mu      sync.Mutex
	pending map[uint64]chan reply // nil value: the caller gave up waiting
	err     error                 // why the connection ended; set once
	done    chan struct{}
	readEnd chan struct{} // closed when the reader has stopped and closed r
	garbage int           // lines that were not JSON; the reader's own
}

type reply struct {
	result json.RawMessage
	err    error
}

// NewConn starts a connection that writes requests to w and reads replies
// from r until r ends or Close is called.
func NewConn(r io.Reader, w io.Writer, opts ConnOptions) *Conn {
	c := &Conn{
		r:       r,
		w:       w,
		opts:    opts,
		log:     opts.Logger,
		wsem:    make(chan struct{}, 1),
		pending: map[uint64]chan reply{},
		done:    make(chan struct{}),
		readEnd: make(chan struct{}),
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if c.opts.MaxLineSize <= 0 {
		c.opts.MaxLineSize = DefaultMaxLineSize
	}
	go c.read(r)
	return c
}

// Call sends a request and waits for its reply, the end of ctx or the end of
// the connection. params may be any value that encodes to a JSON object,
// including a json.RawMessage. A JSON-RPC error reply comes back as a
// *protocol.RPCError.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	id := c.nextID.Add(1)
	line, err := encodeMessage(&id, method, params)
	if err != nil {
		return nil, err
	}
	defer line.free()
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()

	if err := c.write(ctx, line.b); err != nil {
		c.abandon(id, false)
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		c.abandon(id, true)
		select {
		case r := <-ch: // the reply won the race
			return r.result, r.err
		default:
		}
		return nil, ctxError(ctx)
	}
}

// Notify sends a notification; it returns once the line is written.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	line, err := encodeMessage(nil, method, params)
	if err != nil {
		return err
	}
	defer line.free()
	return c.write(ctx, line.b)
}

// pipeBuf is what a pipe takes in one write or not at all (PIPE_BUF on
// Linux): a write that meets its deadline never cuts a line of it short.
const pipeBuf = 4096

// notifyAll sends a notification for each of params, as few writes as it
// can: the lines go out together, up to pipeBuf bytes a write (a longer
// line alone), so that a burst of events does not cost a syscall each. It
// returns how many were sent.
func notifyAll[T any](ctx context.Context, c *Conn, method string, params []T) (int, error) {
	lb := linePool.Get().(*lineBuf)
	defer lb.free()
	buf, sent, queued := lb.b[:0], 0, 0
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		err := c.write(ctx, buf)
		if err == nil {
			sent += queued
		}
		buf, queued = buf[:0], 0
		return err
	}
	for _, p := range params {
		line, err := encodeMessage(nil, method, p)
		if err != nil {
			c.log.Warn("notification not sent", "method", method, "error", err)
			continue
		}
		if len(buf)+len(line.b) > pipeBuf {
			if err := flush(); err != nil {
				line.free()
				return sent, err
			}
		}
		buf = append(buf, line.b...)
		queued++
		line.free()
	}
	err := flush()
	lb.b = buf
	return sent, err
}

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why the connection ended, or is nil while it is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection: calls in flight fail with ErrClosed, and the
// writer and reader are closed when they are io.Closers.
func (c *Conn) Close() error {
	c.fail(ErrClosed)
	var errs []error
	for _, x := range []any{c.w, c.r} {
		if cl, ok := x.(io.Closer); ok {
			if err := cl.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// CloseWrite closes the writer only, which tells a hook to finish: the
// replies still on their way are read.
func (c *Conn) CloseWrite() error {
	if w, ok := c.w.(io.Closer); ok {
		return w.Close()
	}
	return nil
}

// fail ends the connection with err, unless it has ended already, and fails
// every call in flight.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	for id, ch := range c.pending {
		if ch != nil {
			ch <- reply{err: err}
		}
		delete(c.pending, id)
	}
	close(c.done)
}

// abandon forgets a call. A call that timed out leaves a marker, so that its
// late reply is logged as late rather than as unknown.
func (c *Conn) abandon(id uint64, late bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[id]; !ok {
		return
	}
	if late && c.err == nil {
		c.pending[id] = nil
	} else {
		delete(c.pending, id)
	}
}

type deadliner interface{ SetWriteDeadline(time.Time) error }

// write sends whole lines. A line cut short leaves the stream corrupt, so
// it ends the connection.
func (c *Conn) write(ctx context.Context, line []byte) error {
	select {
	case c.wsem <- struct{}{}:
	case <-ctx.Done():
		return ctxError(ctx)
	case <-c.done:
		return c.Err()
	}
	defer func() { <-c.wsem }()
	if err := c.Err(); err != nil {
		return err
	}
	// Traced before it is written: once written, the reply may be read,
	// and traced, before this goroutine runs again.
	if c.opts.Trace != nil {
		for l := range bytes.Lines(line) {
			c.opts.Trace(true, l[:len(l)-1])
		}
	}
	dl, _ := ctx.Deadline()
	d, canTimeout := c.w.(deadliner)
	if canTimeout {
		_ = d.SetWriteDeadline(dl)
	}
	n, err := c.w.Write(line)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("hook is not reading its stdin: %w", context.DeadlineExceeded)
		}
		if n > 0 {
			c.fail(fmt.Errorf("write cut short after %d of %d bytes: %w", n, len(line), err))
		}
		return err
	}
	return nil
}

// read takes lines from the peer until its output ends.
func (c *Conn) read(r io.Reader) {
	defer close(c.readEnd)
	if rc, ok := r.(io.Closer); ok {
		defer rc.Close()
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, c.opts.MaxLineSize)
		var tooLong *LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			c.tooLong(tooLong)
			continue
		case err == io.EOF || errors.Is(err, os.ErrClosed):
			err = errors.New("hook closed its stdout")
			if c.opts.OnEOF != nil {
				err = c.opts.OnEOF()
			}
			c.fail(err)
			return
		case err != nil:
			c.fail(fmt.Errorf("reading the hook's stdout: %w", err))
			return
		}
		if c.opts.Trace != nil {
			c.opts.Trace(false, line)
		}
		c.dispatch(line)
	}
}

func (c *Conn) tooLong(e *LineTooLongError) {
	if e.ID == nil {
		c.log.Warn("dropped a line without an id", "error", e)
		return
	}
	if !c.deliver(*e.ID, reply{err: e}) {
		c.log.Warn("dropped a line", "id", *e.ID, "error", e)
	}
}

// deliver hands a reply to the call waiting for id; false when none waits.
func (c *Conn) deliver(id uint64, r reply) bool {
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch == nil {
		if ok {
			c.log.Warn("late reply dropped: its call had given up", "id", id)
			return true
		}
		return false
	}
	ch <- r
	return true
}

// dispatch routes one line from the peer.
func (c *Conn) dispatch(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	var msg protocol.Response
	if err := protocol.Unmarshal(line, &msg); err != nil {
		c.unreadable(line, err)
		return
	}
	if method, ok := msg.Extra["method"]; ok {
		c.requestFromHook(msg.ID, method)
		return
	}
	if msg.ID == nil {
		if msg.Error != nil {
			c.log.Warn("hook reported an error without an id", "error", msg.Error)
		} else {
			c.log.Warn("dropped a reply with a null id", "line", clip(line))
		}
		return
	}
	r := reply{result: msg.Result}
	switch {
	case msg.Error != nil:
		r = reply{err: msg.Error}
	case msg.Result == nil:
		r = reply{err: errors.New("reply has neither result nor error")}
	}
	if !c.deliver(*msg.ID, r) {
		c.log.Warn("dropped a reply with an unknown id", "id", *msg.ID)
	}
}

// unreadable logs a line that is not a JSON-RPC reply and goes on.
func (c *Conn) unreadable(line []byte, err error) {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	switch {
	case !json.Valid(line):
		// A hook that floods stdout must not flood the log: the first lines
		// are logged, then a count now and then.
		c.garbage++
		switch {
		case c.garbage <= 10:
			c.log.Warn("skipped a line of stdout that is not JSON", "line", clip(line))
		case c.garbage%1000 == 0 || c.garbage == 11:
			c.log.Warn("skipping lines of stdout that are not JSON", "skipped", c.garbage)
		}
	case json.Unmarshal(line, &head) == nil && head.ID != nil:
		c.log.Warn("dropped a reply that cannot be read", "id", clip(head.ID), "error", err)
	default:
		c.log.Warn("skipped a line of stdout that is not a JSON-RPC reply", "line", clip(line), "error", err)
	}
}

// requestFromHook answers a request the hook sent: version 1 has no
// methods a hook may call on its host.
func (c *Conn) requestFromHook(id *uint64, method json.RawMessage) {
	c.log.Warn("hook sent a request; hosts have no methods to call", "method", clip(method))
	if id == nil || *id == 0 {
		return
	}
	resp := protocol.Response{
		JSONRPC: protocol.JSONRPCVersion,
		ID:      id,
		Error:   &protocol.RPCError{Code: protocol.CodeMethodNotFound, Message: "method not found: " + string(method)},
	}
	line, err := protocol.Marshal(resp)
	if err != nil {
		return
	}
	// Never block the reader on a hook that does not read: give up quickly.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.write(ctx, append(line, '\n'))
}

// encodeMessage writes a request (id set) or notification as one line, in
// a buffer to free once written. The envelope is written
// here rather than through protocol.Request so that the params, which may be
// megabytes, are encoded once.
func encodeMessage(id *uint64, method string, params any) (*lineBuf, error) {
	raw, err := encodeParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s params: %w", method, err)
	}
	lb := linePool.Get().(*lineBuf)
	line := slices.Grow(lb.b[:0], len(raw)+len(method)+64)
	line = append(line, `{"jsonrpc":"2.0",`...)
	if id != nil {
		line = append(line, `"id":`...)
		line = strconv.AppendUint(line, *id, 10)
		line = append(line, ',')
	}
	line = append(line, `"method":`...)
	line = appendString(line, method)
	if raw != nil {
		line = append(line, `,"params":`...)
		line = append(line, raw...)
	}
	lb.b = append(line, '}', '\n')
	return lb, nil
}

// protocolPath is the package of the wire types.
var protocolPath = reflect.TypeFor[protocol.Meta]().PkgPath()

// encodeParams encodes params as one line's worth of JSON.
func encodeParams(params any) ([]byte, error) {
	var raw []byte
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		raw = p
	default:
		if t := reflect.TypeOf(p); t.PkgPath() == protocolPath || (t.Kind() == reflect.Pointer && t.Elem().PkgPath() == protocolPath) {
			// Compact, and the only encoding that keeps Extra members.
			return protocol.Marshal(params)
		}
		return json.Marshal(params)
	}
	if bytes.ContainsAny(raw, "\r\n") {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, err
		}
		raw = b.Bytes()
	}
	return raw, nil
}

// appendString appends s as a JSON string. Method names need no escaping;
// anything else goes through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// lineBuf holds a line to write. Lines are pooled: most are a few hundred
// bytes, and every call needs one.
type lineBuf struct{ b []byte }

var linePool = sync.Pool{New: func() any { return new(lineBuf) }}

// maxPooledLine bounds the buffers kept, so that one long before_llm does
// not stay in memory for good.
const maxPooledLine = 64 << 10

func (lb *lineBuf) free() {
	if cap(lb.b) <= maxPooledLine {
		linePool.Put(lb)
	}
}

func ctxError(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return cause
	}
	return ctx.Err()
}

// clip shortens a line for a log record.
func clip(b []byte) string {
	const max = 200
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}
