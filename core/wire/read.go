package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hookwire/hookwire/core/internal/waits"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
)

// reading is how the peer's output is read and its replies reach the
// calls waiting for them. Both ways share the map of pending calls and
// readOne: oneReader, the connection's reader goroutine alone, and
// readTurns (turns.go), faster, where callers read their own replies.
type reading interface {
	// run is the connection's reader goroutine: it reads until the
	// connection has ended and the peer's output is read to its end (or
	// r is closed), so that the hook's last lines are traced and logged
	// and its writes never block.
	run()
	// sending is told that a call's request is about to be written.
	sending()
	// await waits, once the request is written, for the reply on ch,
	// the end of ctx or deadline; the error is that of the wait that
	// ended first. The end of the connection comes as a reply: fail
	// answers every call in flight. It returns with ch empty and out of
	// the map of pending calls.
	await(ctx context.Context, deadline time.Time, id uint64, ch chan reply) (reply, error)
	// ended is told that the connection has ended; c.mu is held.
	ended()
}

// oneReader is the plain way: one goroutine reads every line the peer
// writes and hands each reply to its call. It is used where r's reads
// cannot be interrupted.
type oneReader struct{ c *Conn }

func (o oneReader) run() {
	for o.c.readOne() == nil {
	}
}

func (oneReader) sending() {}

func (oneReader) ended() {}

func (o oneReader) await(ctx context.Context, deadline time.Time, id uint64, ch chan reply) (reply, error) {
	if dl := waits.DeadlineOf(ctx); !dl.IsZero() && !dl.After(deadline) {
		// ctx ends first, and says why: no timer of the call's own.
		deadline = time.Time{}
	}
	expired, stop := waits.Expiry(deadline)
	defer stop()
	var err error
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		err = waits.Err(ctx)
	case <-expired:
		err = context.DeadlineExceeded
	}
	if r, answered := o.c.abandon(id, ch); answered {
		return r, nil // the reply won the race
	}
	return reply{}, err
}

// read runs the connection's reader goroutine, then closes r.
func (c *Conn) read() {
	defer close(c.readEnd)
	defer func() {
		if rc, ok := c.r.(io.Closer); ok {
			rc.Close()
		}
	}()
	c.reading.run()
}

// readOne reads one line from the peer and routes it. Its error is
// errInterrupted when a read deadline cut the read short (readTurns: the
// line read so far is kept for the next reader), or errEnded when the
// peer's output ended, could not be read, or a line could not be handled:
// the connection has ended, if it had not already. Only one goroutine at
// a time calls it.
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

// errEnded tells the reader that the connection has ended.
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
			c.log.Warn("dropped a reply with a null id", "line", wirefmt.Clip(string(line), 200))
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
			c.log.Warn("skipped a line of stdout that is not JSON", "line", wirefmt.Clip(string(line), 200))
		case c.garbage%1000 == 0 || c.garbage == 11:
			c.log.Warn("skipping lines of stdout that are not JSON", "skipped", c.garbage)
		}
	case json.Unmarshal(line, &head) == nil && head.ID != nil:
		c.log.Warn("dropped a reply that cannot be read", "id", wirefmt.Clip(string(head.ID), 200), "error", err)
	default:
		c.log.Warn("skipped a line of stdout that is not a JSON-RPC reply", "line", wirefmt.Clip(string(line), 200), "error", err)
	}
}

// requestFromHook answers a request the hook sent: version 1 has no
// methods a hook may call on its host.
func (c *Conn) requestFromHook(id *uint64, method json.RawMessage) {
	c.log.Warn("hook sent a request; hosts have no methods to call", "method", wirefmt.Clip(string(method), 200))
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
