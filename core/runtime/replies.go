package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"
)

// How a process hook's replies are read differs between hosts. The
// difference is chosen once, when the hook is mounted (callerFor), as
// wrappers around the plain call, so that the chain's callHook has one
// path whatever the host.

// A processCaller makes one call to a hook process and returns the result
// of its reply as the host reads it, with notes on what the host made of
// it.
type processCaller interface {
	call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, []string, error)
}

// callerFor is the caller of a process hook under the runtime's host: the
// reply as it came, read as the host reads it when the host reads replies
// its own way (host.Reads), and, under a host whose reader stops after a
// long line (host.StopsReadingAfterLongLine), no reply at all once one
// line was over its limit.
func (r *Runtime) callerFor(name string, p *processHook) processCaller {
	hst := r.host()
	var c processCaller = repliesAsSent{p}
	if hst.StopsReadingAfterLongLine {
		c = &stopsReadingAfterLongLine{next: c, hook: name, limit: r.maxLineSize(), host: hst.Name, log: r.logger()}
	}
	if hst.Reads != nil {
		c = repliesAsHostReads{next: c, reads: hst.Reads}
	}
	return c
}

// repliesAsSent takes a reply as the hook sent it.
type repliesAsSent struct{ p *processHook }

func (c repliesAsSent) call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, []string, error) {
	raw, err := c.p.call(ctx, deadline, method, params)
	return raw, nil, err
}

// repliesAsHostReads reads a reply as the host does (host.Reads).
type repliesAsHostReads struct {
	next  processCaller
	reads func(method string, raw json.RawMessage) (json.RawMessage, []string)
}

func (c repliesAsHostReads) call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, []string, error) {
	raw, notes, err := c.next.call(ctx, deadline, method, params)
	if err != nil {
		return raw, notes, err
	}
	raw, more := c.reads(method, raw)
	return raw, append(notes, more...), nil
}

// stopsReadingAfterLongLine is the reader of a host that stops reading a
// hook for good at a reply line over its limit (a line scanner that met
// its limit reads nothing more): that call and every later one to the hook
// get no reply, until their deadlines, as they would under the host.
type stopsReadingAfterLongLine struct {
	next           processCaller
	hook, host     string
	limit          int
	log            *slog.Logger
	stoppedReading atomic.Bool
}

func (c *stopsReadingAfterLongLine) call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, []string, error) {
	if !c.stoppedReading.Load() {
		raw, notes, err := c.next.call(ctx, deadline, method, params)
		var long *LineTooLongError
		if !errors.As(err, &long) {
			return raw, notes, err
		}
		c.stoppedReading.Store(true)
		c.log.Warn("a reply line is over the longest the host reads: its reader of the hook stops for good", "hook", c.hook, "size", long.Size, "limit", c.limit, "host", c.host)
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	<-ctx.Done()
	return nil, nil, ctx.Err()
}
