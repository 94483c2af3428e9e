package runtime

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/config"

	"github.com/hookwire/hookwire/core/protocol"
)

// DefaultObserveQueue is how many events wait for one observer before new
// ones are dropped (or, under OverflowWait, before the agent waits).
const DefaultObserveQueue = 256

// Overflow says what happens to an event that finds its observer's queue
// full (see config.Overflow).
type Overflow = config.Overflow

// The overflows.
const (
	OverflowDrop = config.OverflowDrop
	OverflowWait = config.OverflowWait
)

// ObserveStats counts what became of the events for one observer that
// found its queue full.
type ObserveStats struct {
	// Dropped counts the events dropped: the queue was full (under
	// OverflowWait: still full at the deadline), or the runtime closed
	// before they could be delivered.
	Dropped uint64
	// Waited counts the events for which the agent waited for room
	// (OverflowWait), queued in the end or dropped at the deadline, and
	// WaitedFor is how long it waited in all.
	Waited    uint64
	WaitedFor time.Duration
}

// pattern matches event kinds.
type pattern = config.Pattern

// observeQueue delivers events to one observer from a goroutine of its own,
// so that a slow observer never holds up the agent. When the queue is full
// new events are dropped, counted and logged; or, when the hook's overflow
// is OverflowWait, the agent waits for room, for at most the observer's
// deadline.
type observeQueue struct {
	hook    string
	obs     EventObserver
	timeout time.Duration
	wait    bool
	log     *slog.Logger

	events    chan protocol.RuntimeEvent
	dropped   atomic.Uint64
	mu        sync.Mutex
	closed    bool
	streak    uint64 // events dropped since the last one queued
	waited    atomic.Uint64
	waitedFor atomic.Int64 // nanoseconds
	ctx       context.Context
	abandon   context.CancelFunc // drop what is left instead of delivering it
	done      chan struct{}
}

func newObserveQueue(hook string, obs EventObserver, size int, timeout time.Duration, overflow Overflow, log *slog.Logger) *observeQueue {
	q := &observeQueue{
		hook: hook, obs: obs, timeout: timeout, wait: overflow == OverflowWait, log: log.With("hook", hook),
		events: make(chan protocol.RuntimeEvent, size),
		done:   make(chan struct{}),
	}
	q.ctx, q.abandon = context.WithCancel(context.Background())
	go q.run()
	return q
}

// push queues ev; it reports whether ev was queued. It waits only when the
// queue is full and the hook's overflow is OverflowWait, and then no longer
// than the observer's deadline. Pushes wait one at a time, in order.
func (q *observeQueue) push(ev protocol.RuntimeEvent) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		q.drop(ev.Kind)
		return false
	}
	select {
	case q.events <- ev:
		if q.streak > 0 {
			q.log.Warn("observe queue has room again", "dropped", q.streak)
			q.streak = 0
		}
		return true
	default:
	}
	if q.wait {
		start := time.Now()
		t := time.NewTimer(q.timeout)
		defer t.Stop()
		if q.waited.Add(1) == 1 {
			q.log.Info("observe queue full: the agent waits for the hook", "kind", ev.Kind)
		}
		select {
		case q.events <- ev:
			q.waitedFor.Add(int64(time.Since(start)))
			return true
		case <-t.C:
			q.waitedFor.Add(int64(time.Since(start)))
		}
	}
	q.drop(ev.Kind)
	return false
}

// stats never waits for a push that waits.
func (q *observeQueue) stats() ObserveStats {
	return ObserveStats{Dropped: q.dropped.Load(), Waited: q.waited.Load(), WaitedFor: time.Duration(q.waitedFor.Load())}
}

// drop counts a dropped event; the first of a streak is logged.
func (q *observeQueue) drop(kind string) {
	n := q.dropped.Add(1)
	if q.streak == 0 {
		q.log.Warn("observe queue full: dropping events", "kind", kind, "dropped_total", n)
	}
	q.streak++
}

// batchObserver takes the events queued for it at once: a hook process
// writes them together.
type batchObserver interface {
	OnEvents(ctx context.Context, evs []protocol.RuntimeEvent) (delivered int, err error)
}

func (q *observeQueue) run() {
	defer close(q.done)
	var left uint64
	defer func() {
		if left > 0 {
			q.dropped.Add(left)
			q.log.Warn("runtime closed: dropped undelivered events", "dropped", left)
		}
	}()
	batch := make([]protocol.RuntimeEvent, 0, cap(q.events))
	for ev := range q.events {
		batch = append(batch[:0], ev)
		// What queued up during the last delivery goes out in one go.
	more:
		for len(batch) < cap(batch) {
			select {
			case ev, ok := <-q.events:
				if !ok {
					break more
				}
				batch = append(batch, ev)
			default:
				break more
			}
		}
		if q.ctx.Err() != nil {
			left += uint64(len(batch))
			continue
		}
		q.deliver(batch)
	}
}

func (q *observeQueue) deliver(batch []protocol.RuntimeEvent) {
	if bo, ok := q.obs.(batchObserver); ok {
		ctx, cancel := context.WithTimeout(q.ctx, q.timeout)
		n, err := bo.OnEvents(ctx, batch)
		cancel()
		if err != nil {
			q.log.Warn("events not delivered", "events", len(batch)-n, "error", err)
		}
		return
	}
	for _, ev := range batch {
		ctx, cancel := context.WithTimeout(q.ctx, q.timeout)
		if err := q.obs.OnEvent(ctx, ev); err != nil {
			q.log.Warn("event not delivered", "kind", ev.Kind, "error", err)
		}
		cancel()
	}
}

// close stops taking events and delivers those queued until ctx ends; the
// rest are dropped and counted.
func (q *observeQueue) close(ctx context.Context) {
	q.mu.Lock()
	q.closed = true
	close(q.events)
	q.mu.Unlock()
	select {
	case <-q.done:
	case <-ctx.Done():
		q.abandon()
		<-q.done
	}
	q.abandon()
}
