package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/internal/waits"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
)

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
	line = wirefmt.AppendString(line, method)
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
