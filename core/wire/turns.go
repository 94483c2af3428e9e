package wire

import (
	"context"
	"os"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/internal/waits"
)

// readTurns is the faster way to read the peer's output, used where r
// can be interrupted (a pipe or another *os.File with read deadlines):
// a caller waiting for its reply reads the pipe itself. A lone caller then
// gets its reply with no hand-off from the connection's reader goroutine,
// which on a small machine costs more than the rest of the call: in the
// round-trip bench the hand-off takes the Go loop through the runtime from
// about 1.3x the same loop on a bare pipe client to 2.5x and more (see
// BENCHMARKS.md), where the target is 1.3x.
//
// The peer's output is read by one goroutine at a time, the holder of the
// read token. Replies a caller reads for other calls go to their callers
// (deliver), and when it has its own it passes the token on. While no call
// is made for a moment, the connection's reader goroutine holds the token,
// so that what the peer writes between calls and its end are still read;
// the next call interrupts it with a read deadline in the past.
type readTurns struct {
	c   *Conn
	rd  readDeadliner
	tok chan struct{} // the read token: held by whoever reads r
	// deadline is the read deadline last set on rd by the token holder;
	// interrupt sets an earlier one behind its back.
	deadline time.Time
	calls    uint64      // calls made so far, under c.mu: the reader goroutine waits for a pause
	idle     atomic.Bool // the reader goroutine holds the token and reads; set true under c.mu
}

type readDeadliner interface{ SetReadDeadline(time.Time) error }

// idlePause is how long no call must be made before the reader goroutine
// takes the token. Calls made closer together than that read their replies
// themselves; what the peer writes between them waits at most this long.
const idlePause = 5 * time.Millisecond

// errInterrupted is how a reader learns that a read deadline cut its read
// short: another goroutine wants the token, or its own call has ended.
var errInterrupted = os.ErrDeadlineExceeded

// takeTurns is the readTurns of c, when r can be interrupted.
func takeTurns(c *Conn, r any) (*readTurns, bool) {
	rd, ok := r.(readDeadliner)
	if !ok || rd.SetReadDeadline(time.Time{}) != nil {
		return nil, false
	}
	return &readTurns{c: c, rd: rd, tok: make(chan struct{}, 1)}, true
}

func (t *readTurns) sending() {
	t.c.mu.Lock()
	t.calls++
	idle := t.idle.Load()
	t.c.mu.Unlock()
	if idle {
		t.interrupt() // the reader goroutine gives the token up while the request goes out
	}
}

// await reads for itself when the token is free, or waits for the reply
// or the token, whichever comes first. A deadline costs a call no timer
// while it reads: it is the pipe's read deadline, which a stream of calls
// sets once for many, as write does.
func (t *readTurns) await(ctx context.Context, deadline time.Time, id uint64, ch chan reply) (reply, error) {
	ctxFirst := false
	if dl := waits.DeadlineOf(ctx); !dl.IsZero() && (deadline.IsZero() || dl.Before(deadline)) {
		deadline, ctxFirst = dl, true
	}
	if t.idle.Load() {
		t.interrupt() // it took over during a long write
	}
	var r reply
	var ok bool
	select {
	case t.tok <- struct{}{}: // the token is free: no timer needed
		r, ok = t.readFor(ctx, deadline, id, ch)
	default:
		r, ok = t.wait(ctx, deadline, id, ch)
	}
	if ok {
		return r, nil
	}
	if r, answered := t.c.abandon(id, ch); answered {
		return r, nil // the reply won the race
	}
	if ctxFirst {
		<-ctx.Done() // ctx's deadline has come: its error, with its cause, in a moment
	}
	if ctx.Err() != nil {
		return reply{}, waits.Err(ctx)
	}
	return reply{}, context.DeadlineExceeded
}

// wait waits for the reply while another goroutine holds the read token,
// and takes the token, to read for itself, when it is let go; ok is false
// when ctx or deadline ended the wait first.
func (t *readTurns) wait(ctx context.Context, deadline time.Time, id uint64, ch chan reply) (r reply, ok bool) {
	expired, stop := waits.Expiry(deadline)
	defer stop()
	select {
	case r := <-ch:
		return r, true
	case t.tok <- struct{}{}:
		return t.readFor(ctx, deadline, id, ch)
	case <-ctx.Done():
	case <-expired:
	}
	return reply{}, false
}

// readFor reads the peer's output, holding the read token, until ch has
// the reply of call id, or ctx or deadline ends (ok false); then it
// passes the token on.
func (t *readTurns) readFor(ctx context.Context, deadline time.Time, id uint64, ch chan reply) (r reply, ok bool) {
	defer func() { <-t.tok }()
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, t.interrupt)
		defer stop()
	}
	// A read deadline set by an earlier call that is not later than this
	// call's is kept: should it cut a read short, this call's is set.
	if !deadline.IsZero() && (t.deadline.IsZero() || t.deadline.After(deadline)) {
		t.setDeadline(deadline)
	}
	for {
		select {
		case r := <-ch:
			return r, true
		default:
		}
		switch t.c.readOne() {
		case errEnded:
			select {
			case r := <-ch:
				return r, true
			default: // a guard: fail answers every call in flight
				if r, answered := t.c.abandon(id, ch); answered {
					return r, true
				}
				return reply{err: t.c.Err()}, true
			}
		case errInterrupted:
			// Meant for the reader goroutine, for this call, or an earlier
			// call's deadline: this call's is set, then the call looked
			// at, so that an interruption of its own is never lost.
			t.setDeadline(deadline)
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

// setDeadline sets the pipe's read deadline; only the token holder calls it.
func (t *readTurns) setDeadline(d time.Time) {
	_ = t.rd.SetReadDeadline(d)
	t.deadline = d
}

// interrupt cuts short the read under way.
func (t *readTurns) interrupt() { _ = t.rd.SetReadDeadline(longAgo) }

var longAgo = time.Unix(1, 0)

// ended lets the callers reading for themselves go, even where a child of
// the hook keeps its stdout open; then the reader goroutine reads what is
// left.
func (t *readTurns) ended() { t.interrupt() }

// run reads the peer's output while no call is being made, until the
// connection ends, then to the end of the output.
func (t *readTurns) run() {
	pause := time.NewTimer(idlePause)
	defer pause.Stop()
	var seen uint64 // calls made when last looked
	for {
		select {
		case <-t.c.done:
			t.drain()
			return
		case <-pause.C:
		}
		if !t.readIdle(&seen) {
			t.drain()
			return
		}
		pause.Reset(idlePause)
	}
}

// drain reads what the peer writes after the connection has ended, to the
// end of its output or until Close, as oneReader does.
func (t *readTurns) drain() {
	t.tok <- struct{}{} // the callers reading have let go: ended interrupted them
	for {
		t.setDeadline(time.Time{})
		err := t.c.readOne()
		for err == nil {
			err = t.c.readOne()
		}
		if err == errEnded {
			return
		}
	}
}

// readIdle takes the token, if it is free and no call has been made since
// the last look, and reads until a call interrupts it. It reports whether
// the connection is still open.
func (t *readTurns) readIdle(seen *uint64) bool {
	select {
	case t.tok <- struct{}{}:
	default:
		return true // a caller is reading
	}
	defer func() { <-t.tok }()
	// Cleared before looking at the calls, so that a call made after the
	// look interrupts the read below.
	t.setDeadline(time.Time{})
	// A call whose request is still being written counts as quiet: the
	// hook may be writing too, and must not block on a full pipe.
	t.c.mu.Lock()
	quiet := t.calls == *seen
	*seen = t.calls
	ended := t.c.err != nil
	t.idle.Store(quiet && !ended)
	t.c.mu.Unlock()
	if !quiet || ended {
		return !ended
	}
	err := t.c.readOne()
	for err == nil {
		err = t.c.readOne()
	}
	t.idle.Store(false)
	return err == errInterrupted
}
