package wire

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
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
// A call (call.go) enters its id in the map of pending calls, writes its
// request (write.go) and waits for its reply, its context, its deadline or
// the end of the connection, whichever comes first. The peer's output is
// read (read.go) by a goroutine of the connection's own, from the start to
// the end of the output: replies go to the calls waiting for them through
// the map, and what else the peer writes, between calls or while a long
// request is written, is read, so that the peer never blocks on a full
// pipe and its end is noticed. Where r can be interrupted (a pipe), a
// caller waiting for its reply reads the pipe itself while it waits, and
// that goroutine reads only between calls (turns.go): the hand-off from
// one goroutine to another costs more than the rest of the call.
type Conn struct {
	r    io.Reader
	w    io.Writer
	opts ConnOptions
	log  *slog.Logger
	wsem chan struct{} // held while a line is written, so lines never interleave
	// writeDeadline is the deadline last set on w; the wsem holder's.
	writeDeadline time.Time
	nextID        atomic.Uint64

	reading reading
	lr      lineReader // the reader's
	garbage int        // lines that were not JSON; the reader's

	mu      sync.Mutex
	pending map[uint64]chan reply
	err     error // why the connection ended; set once
	done    chan struct{}
	readEnd chan struct{} // closed when the reader has stopped and closed r
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
	c.lr = lineReader{br: bufio.NewReaderSize(r, 64<<10), limit: c.opts.MaxLineSize}
	c.reading = oneReader{c}
	if t, ok := takeTurns(c, r); ok {
		c.reading = t
	}
	go c.read()
	return c
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
// every call in flight. The reader goes on reading what the peer writes,
// to the end of its output or until Close.
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
	c.reading.ended()
	close(c.done)
}

// inFlight is how many calls wait for their reply.
func (c *Conn) inFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}
