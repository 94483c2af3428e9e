package wire

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/internal/waits"
)

// Call sends a request and waits for its reply, the end of ctx or the end of
// the connection. params may be any value that encodes to a JSON object,
// including a json.RawMessage. A JSON-RPC error reply comes back as a
// *protocol.RPCError.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.call(ctx, time.Time{}, method, params)
}

// call is Call, bounded by deadline as well when it is not zero: a call
// that meets it fails with context.DeadlineExceeded, and a caller with a
// deadline of its own needs no context for it.
func (c *Conn) call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, error) {
	id := c.nextID.Add(1)
	line, err := encodeMessage(&id, method, params)
	if err != nil {
		return nil, err
	}
	defer line.free()
	ch, err := c.register(id)
	if err != nil {
		return nil, err
	}
	// Registered before the request goes out: the reply may be read
	// before the write returns.
	c.reading.sending()
	if err := c.write(ctx, earlier(deadline, waits.DeadlineOf(ctx)), line.b); err != nil {
		c.abandon(id, ch)
		replyChans.Put(ch)
		return nil, err
	}
	r, err := c.reading.await(ctx, deadline, id, ch)
	replyChans.Put(ch) // await leaves it empty and out of the map
	if err != nil {
		return nil, err
	}
	return r.result, r.err
}

// earlier is the earlier of two deadlines, zero meaning none.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// replyChans are the channels calls wait on for their reply, reused: a
// channel goes back to the pool only once it is empty and out of the map,
// where no reply can come to it any more.
var replyChans = sync.Pool{New: func() any { return make(chan reply, 1) }}

// register enters a call in the map of pending calls; its reply will come
// on the channel returned.
func (c *Conn) register(id uint64) (chan reply, error) {
	ch := replyChans.Get().(chan reply)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		replyChans.Put(ch)
		return nil, c.err
	}
	c.pending[id] = ch
	return ch, nil
}

// abandon forgets a call that gave up, freeing its slot at once: a hook
// that never answers costs no memory. When the call had left the map, its
// reply is on its way (deliver and fail send it right after taking it
// out, into a buffer of one): it is waited for and returned, answered true.
func (c *Conn) abandon(id uint64, ch chan reply) (r reply, answered bool) {
	c.mu.Lock()
	_, waiting := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !waiting {
		r = <-ch
	}
	return r, !waiting
}

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
