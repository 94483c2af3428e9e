package runtime

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// release.
type batchRecorder struct {
	release chan struct{}
	mu      sync.Mutex
	batches []int
	got     chan struct{}
}

func (b *batchRecorder) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	panic("a batch observer is given batches")
}

func (b *batchRecorder) OnEvents(ctx context.Context, evs []protocol.RuntimeEvent) (int, error) {
	b.mu.Lock()
	first := len(b.batches) == 0
	b.batches = append(b.batches, len(evs))
	b.mu.Unlock()
	if first {
		<-b.release
	}
	b.got <- struct{}{}
	return len(evs), nil
}

// Events that queue up while one is delivered are delivered together.
func TestObserveQueueDeliversWhatQueuedUpAtOnce(t *testing.T) {
	obs := &batchRecorder{release: make(chan struct{}), got: make(chan struct{}, 10)}
	q := newObserveQueue("b", obs, 16, time.Second, OverflowDrop, slog.New(slog.DiscardHandler))
	q.push(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	for {
		obs.mu.Lock()
		n := len(obs.batches)
		obs.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for range 10 {
		if !q.push(protocol.RuntimeEvent{Kind: protocol.KindLLMRequest}) {
			t.Fatal("an event was dropped from a queue with room")
		}
	}
	close(obs.release)
	<-obs.got
	<-obs.got
	q.close(context.Background())
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if want := []int{1, 10}; !slices.Equal(obs.batches, want) {
		t.Errorf("batches %v, want %v", obs.batches, want)
	}
	if d := q.dropped.Load(); d != 0 {
		t.Errorf("%d dropped", d)
	}
}
