package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/internal/waits"
	"github.com/hookwire/hookwire/core/wire"

	"github.com/hookwire/hookwire/core/protocol"
)

// processHook is a hook process kept running: it is restarted with backoff
// when it crashes, and it is asked over the wire (call).
type processHook struct {
	cmd     Command
	opts    ProcessOptions
	restart RestartPolicy
	log     *slog.Logger
	onDown  func(why error) // Options.OnHookDown, or nil

	mu      sync.Mutex
	proc    *Process      // nil while the hook is down
	down    error         // set when the hook will not come back
	changed chan struct{} // closed when proc or down changes
	served  atomic.Bool   // the current process has answered a call

	ctx  context.Context // ends when the hook is closed
	stop context.CancelFunc
	done chan struct{} // closed when supervise returns
}

func newProcessHook(cmd Command, opts ProcessOptions, restart RestartPolicy, log *slog.Logger) *processHook {
	ctx, stop := context.WithCancel(context.Background())
	return &processHook{
		cmd: cmd, opts: opts, restart: restart, log: log.With("hook", cmd.Name),
		changed: make(chan struct{}),
		ctx:     ctx,
		stop:    stop,
		done:    make(chan struct{}),
	}
}

// start spawns the hook and begins watching over it.
func (h *processHook) start(ctx context.Context) error {
	p, err := Spawn(ctx, h.cmd, h.opts)
	if err != nil {
		close(h.done)
		return err
	}
	h.set(p, nil)
	go h.supervise(p)
	return nil
}

func (h *processHook) set(p *Process, down error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.proc, h.down = p, down
	h.served.Store(false)
	close(h.changed)
	h.changed = make(chan struct{})
}

// current is the running process; while the hook restarts it waits, at most
// until ctx ends or deadline, when it is not zero.
func (h *processHook) current(ctx context.Context, deadline time.Time) (*Process, error) {
	var expired <-chan time.Time
	for {
		h.mu.Lock()
		p, down, changed := h.proc, h.down, h.changed
		h.mu.Unlock()
		if down != nil {
			return nil, down
		}
		if p != nil {
			select {
			case <-p.Done(): // crashed; the supervisor is about to notice
			default:
				return p, nil
			}
		}
		if expired == nil && !deadline.IsZero() { // once, and only for a wait
			var stop func() bool
			expired, stop = waits.Expiry(deadline)
			defer stop()
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("hook is restarting: %w", waits.Err(ctx))
		case <-expired:
			return nil, fmt.Errorf("hook is restarting: %w", context.DeadlineExceeded)
		}
	}
}

// supervise restarts the hook each time it crashes, until stopped.
func (h *processHook) supervise(p *Process) {
	defer close(h.done)
	failures := 0
	for {
		select {
		case <-p.Done():
		case <-h.ctx.Done():
			p.Close()
			return
		}
		if h.served.Load() {
			failures = 0
		}
		h.set(nil, nil)
		why := p.Err()
		select {
		case <-p.Exited():
			h.log.Warn("hook crashed", "error", why)
			why = fmt.Errorf("hook crashed: %w", why)
		default:
			// Its connection ended while it runs: its output can no longer
			// be read, so it is broken, and stopped like a crashed one.
			h.log.Warn("hook is broken: stopping it", "error", why)
			why = fmt.Errorf("hook is broken, stopping it: %w", why)
		}
		if h.onDown != nil {
			h.onDown(why)
		}
		p.Close() // stop what it left running in its process group
		if h.restart.Never {
			h.set(nil, fmt.Errorf("hook is down (%v); restart is disabled", p.Err()))
			return
		}
		for p = nil; p == nil; {
			failures++
			if failures > h.restart.max() {
				h.log.Error("hook is down for good", "restarts", failures-1)
				h.set(nil, fmt.Errorf("hook is down: gave up after %d restarts", failures-1))
				return
			}
			delay := h.restart.delay(failures)
			h.log.Info("restarting hook", "in", delay, "attempt", failures)
			select {
			case <-h.ctx.Done():
				return
			case <-time.After(delay):
			}
			np, err := Spawn(h.ctx, h.cmd, h.opts)
			if err != nil {
				h.log.Warn("restart failed", "error", err)
				continue
			}
			p = np
		}
		h.set(p, nil)
	}
}

// close stops the hook for good.
func (h *processHook) close() {
	h.stop()
	<-h.done
	h.set(nil, errors.New("runtime closed"))
}

// call makes one call to the hook, waiting out a restart if one is under way.
func (h *processHook) call(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, error) {
	p, err := h.current(ctx, deadline)
	if err != nil {
		return nil, err
	}
	raw, err := p.CallUntil(ctx, deadline, method, params)
	if err == nil {
		h.served.Store(true)
	}
	return raw, err
}

// decodeAs decodes the result of a call to method as an R.
func decodeAs[R any](method string, raw json.RawMessage) (R, error) {
	var zero R
	v, err := protocol.DecodeResult(method, raw)
	if err != nil {
		return zero, err
	}
	r, ok := v.(R)
	if !ok {
		return zero, fmt.Errorf("%s result: unexpected %T", method, v)
	}
	return r, nil
}

func (h *processHook) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	p, err := h.current(ctx, waits.DeadlineOf(ctx))
	if err != nil {
		return err
	}
	return p.Notify(ctx, protocol.MethodRuntimeEvent, ev)
}

func (h *processHook) OnEvents(ctx context.Context, evs []protocol.RuntimeEvent) (int, error) {
	p, err := h.current(ctx, waits.DeadlineOf(ctx))
	if err != nil {
		return 0, err
	}
	return wire.NotifyAll(ctx, p, protocol.MethodRuntimeEvent, evs)
}
