package runtime

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// Under observe_overflow "wait", a full queue makes the agent wait for the
// observer instead of dropping: every event arrives, and the waits are
// counted.
func TestObserveOverflowWaitLosesNoEventOfAFlood(t *testing.T) {
	record := filepath.Join(t.TempDir(), "received")
	p := ProcessConfig{Enabled: true, Command: fixture("-record", record), Observe: []string{"*"}, ObserveOverflow: OverflowWait}
	log, _ := testLogger()
	cfg := Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{"audit": p}}}
	r, err := New(cfg, Options{Logger: log, ObserveQueue: 4, StopTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	const n = 2000
	for range n {
		r.Emit(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	}
	stats := r.ObserveStats()["audit"]
	closeAndCheck(t, r)
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	got := bytes.Count(b, []byte(protocol.MethodRuntimeEvent))
	if got != n || stats.Dropped != 0 {
		t.Errorf("the hook got %d of %d events; %d dropped", got, n, stats.Dropped)
	}
	if stats.Waited == 0 || stats.WaitedFor <= 0 {
		t.Errorf("stats %+v: no wait counted for a flood into a queue of 4", stats)
	}
}

// A wait for an observer that does not read its events ends at the
// observer's deadline: the event is dropped and counted, and the agent goes
// on.
func TestObserveOverflowWaitEndsAtTheObserverDeadline(t *testing.T) {
	log, logs := testLogger()
	obs := &stuckObserver{entered: make(chan struct{}), release: make(chan struct{})}
	q := newObserveQueue("stuck", obs, 1, 20*time.Millisecond, OverflowWait, log)
	q.push(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	<-obs.entered // and stays there: nothing takes the next event
	if !q.push(protocol.RuntimeEvent{Kind: protocol.KindLLMRequest}) {
		t.Fatal("an event was dropped from a queue with room")
	}
	if q.push(protocol.RuntimeEvent{Kind: protocol.KindLLMResponse}) {
		t.Fatal("an event was queued in a full queue")
	}
	if st := q.stats(); st.Dropped != 1 || st.Waited != 1 || st.WaitedFor < 20*time.Millisecond {
		t.Errorf("stats %+v, want 1 dropped after waiting out the deadline", st)
	}
	logs.WaitFor(t, "observe queue full: dropping events")
	close(obs.release)
	q.close(context.Background())
}

func TestObserveOverflowIsDropOrWait(t *testing.T) {
	for _, v := range []string{"drop", "wait"} {
		if _, err := ParseConfig([]byte(`{"hooks": {"processes": {"a": {"observe_overflow": "` + v + `"}}}}`)); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
	_, err := ParseConfig([]byte(`{"hooks": {"processes": {"a": {"observe_overflow": "block"}}}}`))
	if want := `hooks.processes.a.observe_overflow: "block" is not "drop" or "wait"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %s", err, want)
	}
	r, _ := New(Config{}, Options{})
	if err := r.Use(InProcess{Name: "x", Hook: &stuckObserver{}, ObserveOverflow: "block"}); err == nil {
		t.Error("an in-process hook took the overflow \"block\"")
	}
}

// stuckObserver blocks on its first event until released.
type stuckObserver struct {
	entered, release chan struct{}
	mu               sync.Mutex
	got              []string
}

func (o *stuckObserver) OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error {
	o.mu.Lock()
	first := len(o.got) == 0
	o.got = append(o.got, ev.Kind)
	o.mu.Unlock()
	if first {
		close(o.entered)
		<-o.release
	}
	return nil
}

func TestObserveFanOutNeverBlocksAndCountsDrops(t *testing.T) {
	log, logs := testLogger()
	obs := &stuckObserver{entered: make(chan struct{}), release: make(chan struct{})}
	r, err := New(Config{}, Options{Logger: log, ObserveQueue: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Use(InProcess{Name: "slow", Hook: obs, Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Emit(protocol.RuntimeEvent{Kind: protocol.KindTurnStart})
	<-obs.entered
	for range 5 {
		r.Emit(protocol.RuntimeEvent{Kind: protocol.KindLLMRequest}) // returns at once: the observer is stuck
	}
	if got := r.Dropped()["slow"]; got != 3 {
		t.Errorf("dropped %d events, want 3 (a queue of 2 took the first two)", got)
	}
	logs.WaitFor(t, "observe queue full: dropping events")
	close(obs.release)
	r.Close()
	if len(obs.got) != 3 {
		t.Errorf("the observer got %v, want the first event and the two queued", obs.got)
	}
}
