package wire

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
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/internal/waits"

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
//
// The peer's output is read by one goroutine at a time, the holder of the
// read token. When r can be interrupted (a pipe or other *os.File with read
// deadlines), a caller waiting for its reply takes the token and reads the
// pipe itself: a lone caller gets its reply with no hand-off from another
// goroutine, which on a small machine costs more than the rest of the call.
// Replies it reads for other calls go to their callers, and when it has its
// own it passes the token to the next caller waiting. While no call is made
// for a moment, an idle reader of the connection's own holds the token, so
// that notifications' stray output and a hook's exit are still read; the
// next call interrupts it with a read deadline. When r cannot be
// interrupted, that reader holds the token for good and hands every reply
// over.
type Conn struct {
	r    io.Reader
	w    io.Writer
	opts ConnOptions
	log  *slog.Logger
	wsem chan struct{} // held while a line is written, so lines never interleave
	// writeDeadline is the deadline last set on w; the wsem holder's.
	writeDeadline time.Time
	nextID        atomic.Uint64

	rtok chan struct{} // the read token: held by whoever reads r
	rd   readDeadliner // r, when its reads can be interrupted
	// readDeadline is the deadline last set on rd by the token holder;
	// interrupt sets an earlier one behind its back.
	readDeadline time.Time
	lr           lineReader // the token holder's
	garbage      int        // lines that were not JSON; the token holder's

	mu      sync.Mutex
	pending map[uint64]chan reply
	calls   uint64      // calls made so far: the idle reader waits for a pause
	idle    atomic.Bool // the idle reader holds the token and reads; set true under mu
	err     error       // why the connection ended; set once
	done    chan struct{}
	readEnd chan struct{} // closed when the idle reader has stopped and closed r
}

type readDeadliner interface{ SetReadDeadline(time.Time) error }

// idlePause is how long no call must be made before the idle reader takes
// over the pipe. Calls made closer together than that read their replies
// themselves; what the peer writes between them waits at most this long.
const idlePause = 5 * time.Millisecond

// errInterrupted is how a reader learns that a read deadline cut its read
// short: another goroutine wants the token, or its own call has ended.
var errInterrupted = os.ErrDeadlineExceeded

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
		rtok:    make(chan struct{}, 1),
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if c.opts.MaxLineSize <= 0 {
		c.opts.MaxLineSize = DefaultMaxLineSize
	}
	c.lr = lineReader{br: bufio.NewReaderSize(r, 64<<10), limit: c.opts.MaxLineSize}
	if rd, ok := r.(readDeadliner); ok && rd.SetReadDeadline(time.Time{}) == nil {
		c.rd = rd
	}
	go c.idleRead()
	return c
}

// Call sends a request and waits for its reply, the end of ctx or the end of
// the connection. params may be any value that encodes to a JSON object,
// including a json.RawMessage. A JSON-RPC error reply comes back as a
// *protocol.RPCError.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.call(ctx, time.Time{}, method, params)
}

// call is Call, bounded by deadline as well when it is not zero: a call
// that meets it fails with context.DeadlineExceeded. A deadline costs a
// call no context of its own, nor, most of the time, a timer: the reader
// of its own reply uses it as the pipe's read deadline, which a stream of
// calls sets once for many, as write does.
func (c *Conn) call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, error) {
	ctxFirst := false
	if dl := waits.DeadlineOf(ctx); !dl.IsZero() && (deadline.IsZero() || dl.Before(deadline)) {
		deadline, ctxFirst = dl, true
	}
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
	c.calls++
	idle := c.idle.Load()
	c.mu.Unlock()
	if idle {
		c.interrupt() // the idle reader gives the token up while the request goes out
	}

	if err := c.write(ctx, deadline, line.b); err != nil {
		c.abandon(id)
		return nil, err
	}
	if c.idle.Load() {
		c.interrupt() // it took over during a long write
	}
	select {
	case c.readable() <- struct{}{}: // the token is free: no timer needed
		if r, ok := c.readFor(ctx, deadline, ch); ok {
			return r.result, r.err
		}
	default:
		if r, ok := c.await(ctx, deadline, ch); ok {
			return r.result, r.err
		}
	}
	c.abandon(id)
	select {
	case r := <-ch: // the reply won the race
		return r.result, r.err
	default:
	}
	if ctxFirst {
		<-ctx.Done() // ctx's deadline has come: its error, with its cause, in a moment
	}
	if ctx.Err() != nil {
		return nil, waits.Err(ctx)
	}
	return nil, context.DeadlineExceeded
}

// readable is the read token's channel, or nil when the reader cannot be
// interrupted: the idle reader then holds the token for good, and a caller
// that took it first could wait for ever.
func (c *Conn) readable() chan struct{} {
	if c.rd == nil {
		return nil
	}
	return c.rtok
}

// await waits for the reply while another goroutine holds the read token,
// and takes the token, to read for itself, when it is let go; ok is false
// when ctx or deadline ended the wait first.
func (c *Conn) await(ctx context.Context, deadline time.Time, ch chan reply) (r reply, ok bool) {
	expired, stop := waits.Expiry(deadline)
	defer stop()
	select {
	case r := <-ch:
		return r, true
	case c.readable() <- struct{}{}:
		return c.readFor(ctx, deadline, ch)
	case <-ctx.Done():
	case <-expired:
	}
	return reply{}, false
}

// readFor reads the peer's output, holding the read token, until ch has
// the reply of the caller, or ctx or deadline ends (ok false); then it
// passes the token on.
func (c *Conn) readFor(ctx context.Context, deadline time.Time, ch chan reply) (r reply, ok bool) {
	defer func() { <-c.rtok }()
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, c.interrupt)
		defer stop()
	}
	// A read deadline set by an earlier call that is not later than this
	// call's is kept: should it cut a read short, this call's is set.
	if !deadline.IsZero() && (c.readDeadline.IsZero() || c.readDeadline.After(deadline)) {
		c.setReadDeadline(deadline)
	}
	for {
		select {
		case r := <-ch:
			return r, true
		default:
		}
		switch c.readOne() {
		case errEnded:
			select {
			case r := <-ch:
				return r, true
			default: // a guard: fail answers every call in flight
				return reply{err: c.Err()}, true
			}
		case errInterrupted:
			// Meant for the idle reader, for this call, or an earlier
			// call's deadline: this call's is set, then the call looked
			// at, so that an interruption of its own is never lost.
			c.setReadDeadline(deadline)
			if ctx.Err() != nil || (!deadline.IsZero() && !time.Now().Before(deadline)) {
				select {
				case r := <-ch:
					return r, true
				default:
					return reply{}, false
				}
			}
		}
	}
}

// setReadDeadline sets the pipe's read deadline; only the token holder calls it.
func (c *Conn) setReadDeadline(t time.Time) {
	_ = c.rd.SetReadDeadline(t)
	c.readDeadline = t
}

// interrupt cuts short the read under way, if r can be interrupted.
func (c *Conn) interrupt() {
	if c.rd != nil {
		_ = c.rd.SetReadDeadline(longAgo)
	}
}

var longAgo = time.Unix(1, 0)

// Notify sends a notification; it returns once the line is written.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	line, err := encodeMessage(nil, method, params)
	if err != nil {
		return err
	}
	defer line.free()
	return c.write(ctx, waits.DeadlineOf(ctx), line.b)
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
		err := c.write(ctx, waits.DeadlineOf(ctx), buf)
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
		ch <- reply{err: err}
		delete(c.pending, id)
	}
	// Callers reading for themselves let go, even where a child of the
	// hook keeps its stdout open; then the idle reader reads what is left.
	c.interrupt()
	close(c.done)
}

// abandon forgets a call that gave up, freeing its slot at once: a hook
// that never answers costs no memory.
func (c *Conn) abandon(id uint64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// inFlight is how many calls wait for their reply.
func (c *Conn) inFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

type deadliner interface{ SetWriteDeadline(time.Time) error }

// brokenPipeWait bounds the wait for the end of a connection whose hook
// stopped reading.
const brokenPipeWait = 200 * time.Millisecond

// write sends whole lines, within deadline when it is not zero. A line cut
// short leaves the stream corrupt, so it ends the connection.
func (c *Conn) write(ctx context.Context, dl time.Time, line []byte) error {
	select {
	case c.wsem <- struct{}{}:
	default:
		if err := c.awaitWrite(ctx, dl); err != nil {
			return err
		}
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
	// Setting a deadline costs a lock and a timer, so one is set only when
	// the one already set would let the write outlive this one's. Calls'
	// deadlines come later and later: most keep an earlier call's, and when
	// that one cuts a write short, this one's is set and the write goes on.
	d, canTimeout := c.w.(deadliner)
	if canTimeout && !dl.IsZero() && (c.writeDeadline.IsZero() || c.writeDeadline.After(dl)) {
		_ = d.SetWriteDeadline(dl)
		c.writeDeadline = dl
	}
	written := 0
	for {
		n, err := c.w.Write(line[written:])
		written += n
		switch {
		case err == nil:
			return nil
		case canTimeout && errors.Is(err, os.ErrDeadlineExceeded) && !c.writeDeadline.Equal(dl) && ctx.Err() == nil:
			_ = d.SetWriteDeadline(dl)
			c.writeDeadline = dl
			continue
		case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
			err = fmt.Errorf("hook is not reading its stdin: %w", context.DeadlineExceeded)
		case errors.Is(err, syscall.EPIPE):
			// The hook has closed its stdin, most likely exiting: how it
			// ended, which its reader learns in a moment, says more.
			select {
			case <-c.done:
				return c.Err()
			case <-ctx.Done():
			case <-time.After(brokenPipeWait):
			}
		}
		if written > 0 {
			c.fail(fmt.Errorf("write cut short after %d of %d bytes: %w", written, len(line), err))
		}
		return err
	}
}

// awaitWrite waits for the line being written to be written, ctx or
// deadline permitting; it returns holding wsem, or the error of the wait.
func (c *Conn) awaitWrite(ctx context.Context, deadline time.Time) error {
	expired, stop := waits.Expiry(deadline)
	defer stop()
	select {
	case c.wsem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return waits.Err(ctx)
	case <-expired:
		return fmt.Errorf("hook is not reading its stdin: %w", context.DeadlineExceeded)
	case <-c.done:
		return c.Err()
	}
}

// idleRead reads the peer's output while no call is being made, until the
// connection ends; then it closes r.
func (c *Conn) idleRead() {
	defer close(c.readEnd)
	defer func() {
		if rc, ok := c.r.(io.Closer); ok {
			rc.Close()
		}
	}()
	if c.rd == nil {
		// Nothing can interrupt a read: this goroutine reads for good.
		c.rtok <- struct{}{}
		for c.readOne() == nil {
		}
		return
	}
	pause := time.NewTimer(idlePause)
	defer pause.Stop()
	var seen uint64 // calls made when last looked
	for {
		select {
		case <-c.done:
			c.drain()
			return
		case <-pause.C:
		}
		if !c.readIdle(&seen) {
			c.drain()
			return
		}
		pause.Reset(idlePause)
	}
}

// drain reads what the peer writes after the connection has ended, to the
// end of its output or until Close, as a reader of its own would: the
// hook's last lines are traced and logged, and its writes do not block.
func (c *Conn) drain() {
	c.rtok <- struct{}{} // the callers reading have let go: fail interrupted them
	for {
		c.setReadDeadline(time.Time{})
		err := c.readOne()
		for err == nil {
			err = c.readOne()
		}
		if err == errEnded {
			return
		}
	}
}

// readIdle takes the token, if it is free and no call has been made since
// the last look, and reads until a call interrupts it. It reports whether
// the connection is still open.
func (c *Conn) readIdle(seen *uint64) bool {
	select {
	case c.rtok <- struct{}{}:
	default:
		return true // a caller is reading
	}
	defer func() { <-c.rtok }()
	// Cleared before looking at the calls, so that a call made after the
	// look interrupts the read below.
	c.setReadDeadline(time.Time{})
	// A call whose request is still being written counts as quiet: the
	// hook may be writing too, and must not block on a full pipe.
	c.mu.Lock()
	quiet := c.calls == *seen
	*seen = c.calls
	ended := c.err != nil
	c.idle.Store(quiet && !ended)
	c.mu.Unlock()
	if !quiet || ended {
		return !ended
	}
	err := c.readOne()
	for err == nil {
		err = c.readOne()
	}
	c.idle.Store(false)
	return err == errInterrupted
}

// readOne reads one line from the peer and routes it. Its error is
// errInterrupted when a read deadline cut the read short (the line read so
// far is kept for the next reader), or errEnded when the peer's output
// ended, could not be read, or a line could not be handled: the connection
// has ended, if it had not already. Only the token holder calls it.
func (c *Conn) readOne() (err error) {
	defer func() {
		// A reader that stops strands every call to the hook: whatever
		// stopped it ends the connection instead, and says what.
		if p := recover(); p != nil {
			c.fail(fmt.Errorf("the hook's stdout reader stopped: %v", p))
			err = errEnded
		}
	}()
	line, err := c.lr.next()
	var tooLong *LineTooLongError
	switch {
	case err == nil:
	case errors.As(err, &tooLong):
		c.tooLong(tooLong)
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errInterrupted
	case c.Err() != nil:
		return errEnded // its end, once the connection has ended
	case err == io.EOF || errors.Is(err, os.ErrClosed):
		err = errors.New("hook closed its stdout")
		if c.opts.OnEOF != nil {
			err = c.opts.OnEOF()
		}
		c.fail(err)
		return errEnded
	default:
		c.fail(fmt.Errorf("reading the hook's stdout: %w", err))
		return errEnded
	}
	if c.opts.Trace != nil {
		c.opts.Trace(false, line)
	}
	c.dispatch(line)
	return nil
}

// errEnded tells a reader that the connection has ended.
var errEnded = errors.New("connection ended")

func (c *Conn) tooLong(e *LineTooLongError) {
	if e.ID == nil {
		c.log.Warn("dropped a line without an id", "error", e)
		return
	}
	if !c.deliver(*e.ID, reply{err: e}) {
		c.log.Warn("dropped a line", "id", *e.ID, "error", e)
	}
}

// deliver hands a reply to the call waiting for id; false when the id was
// never sent.
func (c *Conn) deliver(id uint64, r reply) bool {
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		if id == 0 || id > c.nextID.Load() {
			return false
		}
		// Calls that give up keep no record, so that a hook that never
		// answers costs nothing: an id that was sent is late (or answered
		// twice).
		c.log.Warn("reply dropped: no call waits for its id (the call gave up, or the hook answered it twice)", "id", id)
		return true
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
	_ = c.write(ctx, waits.DeadlineOf(ctx), append(line, '\n'))
}

// encodeMessage writes a request (id set) or notification as one line, in
// a buffer to free once written. The envelope is written here rather than
// through protocol.Request so that the params, which may be megabytes, are
// encoded once, in place.
func encodeMessage(id *uint64, method string, params any) (*lineBuf, error) {
	if raw, ok := params.(json.RawMessage); ok && raw == nil {
		params = nil
	}
	lb := linePool.Get().(*lineBuf)
	line := append(lb.b[:0], `{"jsonrpc":"2.0",`...)
	if id != nil {
		line = append(line, `"id":`...)
		line = strconv.AppendUint(line, *id, 10)
		line = append(line, ',')
	}
	line = append(line, `"method":`...)
	line = appendString(line, method)
	if params != nil {
		var err error
		line = append(line, `,"params":`...)
		if line, err = appendParams(line, params); err != nil {
			lb.b = line
			lb.free()
			return nil, fmt.Errorf("%s params: %w", method, err)
		}
	}
	lb.b = append(line, '}', '\n')
	return lb, nil
}

// protocolPath is the package of the wire types.
var protocolPath = reflect.TypeFor[protocol.Meta]().PkgPath()

// appendParams appends params as one line's worth of JSON.
func appendParams(line []byte, params any) ([]byte, error) {
	switch p := params.(type) {
	case json.RawMessage:
		if !bytes.ContainsAny(p, "\r\n") {
			return append(line, p...), nil
		}
		b := bytes.NewBuffer(line)
		err := json.Compact(b, p)
		return b.Bytes(), err
	default:
		if t := reflect.TypeOf(p); t.PkgPath() == protocolPath || (t.Kind() == reflect.Pointer && t.Elem().PkgPath() == protocolPath) {
			// Compact, and the only encoding that keeps Extra members.
			return protocol.AppendMarshal(line, params)
		}
		raw, err := json.Marshal(params)
		return append(line, raw...), err
	}
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

// clip shortens a line for a log record.
func clip(b []byte) string {
	const max = 200
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}
