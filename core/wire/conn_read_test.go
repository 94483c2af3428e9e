package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/benchdata"

	"github.com/hookwire/hookwire/core/protocol"
)

// shufflingPeer answers each request with its own id as the result, after
// a random delay of up to maxDelay, so that replies to calls in flight
// together come back in any order; before some replies it writes a line
// that is not JSON. Requests whose method is "never" get no answer.
func shufflingPeer(r io.Reader, w io.Writer, maxDelay time.Duration) {
	var mu sync.Mutex
	send := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(w, s)
	}
	br := bufio.NewReader(r)
	for n := 0; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		_, rest, ok := bytes.Cut(line, []byte(`"id":`))
		if !ok || bytes.Contains(line, []byte(`"method":"never"`)) {
			continue
		}
		id := string(rest[:bytes.IndexByte(rest, ',')])
		reply := `{"jsonrpc":"2.0","id":` + id + `,"result":{"id":` + id + `}}` + "\n"
		if n%7 == 0 {
			reply = "stray output\n" + reply
		}
		d := time.Duration(rand.Int64N(int64(maxDelay) + 1))
		if d < maxDelay/2 {
			send(reply)
			continue
		}
		time.AfterFunc(d, func() { send(reply) })
	}
}

// readingWay is how a test connection reads the peer's output.
type readingWay string

const (
	byTurns     readingWay = "by turns"      // readTurns, as over a hook process's pipe
	byOneReader readingWay = "by one reader" // oneReader, where reads cannot be interrupted
)

// bothWays runs test once for each way of reading.
func bothWays(t *testing.T, test func(t *testing.T, way readingWay)) {
	for _, way := range []readingWay{byTurns, byOneReader} {
		t.Run(string(way), func(t *testing.T) { test(t, way) })
	}
}

// pipeConn is a connection over OS pipes to peer, run in this process.
func pipeConn(t testing.TB, opts ConnOptions, peer func(r io.Reader, w io.Writer)) *Conn {
	t.Helper()
	return pipeConnWith(t, byTurns, opts, peer)
}

// pipeConnWith is pipeConn reading the given way.
func pipeConnWith(t testing.TB, way readingWay, opts ConnOptions, peer func(r io.Reader, w io.Writer)) *Conn {
	t.Helper()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		peer(reqR, repW)
		repW.Close()
	}()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	var r io.ReadCloser = repR
	if way == byOneReader {
		r = struct{ io.ReadCloser }{repR} // no read deadlines
	}
	c := NewConn(r, reqW, opts)
	if _, plain := c.reading.(oneReader); plain != (way == byOneReader) {
		t.Fatalf("the connection does not read %s", way)
	}
	t.Cleanup(func() {
		c.Close()
		reqR.Close()
		<-c.readEnd
	})
	return c
}

// callOwn makes a call and checks that its reply is its own.
func callOwn(ctx context.Context, c *Conn) error {
	raw, err := c.Call(ctx, "m", map[string]int{})
	if err != nil {
		return err
	}
	var got struct{ ID uint64 }
	if err := json.Unmarshal(raw, &got); err != nil || got.ID == 0 {
		return fmt.Errorf("reply %s", raw)
	}
	return nil
}

// Calls go back and forth between one at a time, many at once (replies in
// any order, some calls giving up), and pauses with no call in flight:
// every call gets its own reply, and no call is left behind.
func TestCallsSwitchBetweenOneAndManyInFlightUnderLoad(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		var strays atomic.Int64
		log := slog.New(slog.NewTextHandler(countLines{&strays, "not JSON"}, nil))
		c := pipeConnWith(t, way, ConnOptions{Logger: log}, func(r io.Reader, w io.Writer) { shufflingPeer(r, w, 2*time.Millisecond) })
		ctx := context.Background()
		var wrong atomic.Int64
		for round := range 20 {
			for range 20 { // one at a time
				if err := callOwn(ctx, c); err != nil {
					t.Fatalf("round %d, a lone call: %v", round, err)
				}
			}
			var wg sync.WaitGroup
			for i := range 16 { // many at once; every fourth gives up early
				wg.Go(func() {
					for range 10 {
						cctx, cancel := context.WithTimeout(ctx, time.Hour)
						if i%4 == 0 {
							cctx, cancel = context.WithTimeout(ctx, time.Duration(rand.IntN(1500))*time.Microsecond)
						}
						err := callOwn(cctx, c)
						cancel()
						if err != nil && !(i%4 == 0 && errors.Is(err, context.DeadlineExceeded)) {
							t.Errorf("round %d: %v", round, err)
							wrong.Add(1)
						}
					}
				})
			}
			wg.Wait()
			if round%5 == 4 {
				time.Sleep(15 * time.Millisecond) // no call in flight for a while
			}
		}
		if n := c.inFlight(); n != 0 {
			t.Errorf("%d calls still pending", n)
		}
		if c.Err() != nil {
			t.Errorf("the connection ended: %v", c.Err())
		}
		if strays.Load() == 0 {
			t.Error("the peer's stray lines were never read")
		}
	})
}

// countLines counts log lines that hold a word.
type countLines struct {
	n    *atomic.Int64
	word string
}

func (c countLines) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.word)) {
		c.n.Add(1)
	}
	return len(p), nil
}

// What a hook writes while no call is made is read, so that its writes
// never block, and its end is noticed.
func TestOutputBetweenCallsIsReadAndTheEndNoticed(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		var strays atomic.Int64
		log := slog.New(slog.NewTextHandler(countLines{&strays, "not JSON"}, nil))
		wrote := make(chan struct{})
		c := pipeConnWith(t, way, ConnOptions{Logger: log}, func(r io.Reader, w io.Writer) {
			br := bufio.NewReader(r)
			line, _ := br.ReadBytes('\n')
			_, rest, _ := bytes.Cut(line, []byte(`"id":`))
			id := string(rest[:bytes.IndexByte(rest, ',')])
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"id":`+id+`}}`+"\n")
			// Four times what a pipe holds, with no call to read it.
			io.WriteString(w, strings.Repeat("log line between calls\n", 4*65536/23))
			close(wrote)
		})
		if err := callOwn(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		select {
		case <-wrote:
		case <-time.After(10 * time.Second):
			t.Fatal("the peer's writes between calls blocked")
		}
		select {
		case <-c.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the end of the peer's output was not noticed")
		}
		if strays.Load() == 0 {
			t.Error("nothing was read between calls")
		}
	})
}

// soakCalls is how many calls TestCallsThatGiveUpFreeTheirSlot makes:
// HOOKWIRE_SOAK_CALLS or 20,000.
func soakCalls() int {
	if n, err := strconv.Atoi(os.Getenv("HOOKWIRE_SOAK_CALLS")); err == nil && n > 0 {
		return n
	}
	return 20000
}

// rss is the resident set size of this process, in bytes, once the memory
// it does not use is given back; false where the system does not say (no
// /proc).
func rss() (int64, bool) {
	debug.FreeOSMemory()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// Calls to a hook that never answers give up at their 1 ms deadline and
// leave nothing behind: no call is pending after them, and the runtime's
// memory stays flat. HOOKWIRE_SOAK_CALLS=1000000 makes it the 1M-call soak
// (go tool mage bench runs it).
func TestCallsThatGiveUpFreeTheirSlot(t *testing.T) {
	p := spawn(t, quick(nil), "-hang", protocol.MethodBeforeTool)
	total := soakCalls()
	const callers = 32
	call := benchdata.BeforeTool()
	var made, wrong atomic.Int64
	run := func(n int64) {
		var wg sync.WaitGroup
		for range callers {
			wg.Go(func() {
				for made.Add(1) <= n {
					ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
					_, err := p.Call(ctx, protocol.MethodBeforeTool, call)
					cancel()
					if !errors.Is(err, context.DeadlineExceeded) {
						wrong.Add(1)
					}
				}
			})
		}
		wg.Wait()
		made.Store(n)
	}
	warm := int64(total / 10)
	run(warm)
	before, measured := rss()
	run(int64(total))
	after, _ := rss()
	if n := wrong.Load(); n > 0 {
		t.Errorf("%d calls did not end at their deadline", n)
	}
	if n := p.conn.inFlight(); n != 0 {
		t.Errorf("%d calls still pending after %d calls that gave up", n, total)
	}
	if measured {
		growth := float64(after-before) / float64(before)
		t.Logf("RSS after %d calls: %.1f MB; after %d: %.1f MB (%+.1f%%)", warm, float64(before)/1e6, total, float64(after)/1e6, 100*growth)
		if os.Getenv("HOOKWIRE_SOAK_CALLS") != "" && growth > 0.10 {
			t.Errorf("RSS grew by %.1f%%, over 10%%", 100*growth)
		}
	}
}

// A hook may write a lot before it reads a long request: while the request
// is being written, what the hook writes is read, so that neither side
// blocks for good.
func TestAHookThatWritesBeforeReadingALongRequestDoesNotBlock(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		c := pipeConnWith(t, way, ConnOptions{}, func(r io.Reader, w io.Writer) {
			io.WriteString(w, strings.Repeat("progress: starting up\n", 4*65536/22))
			shufflingPeer(r, w, 0)
		})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		raw, err := c.Call(ctx, "m", map[string]string{"text": strings.Repeat("x", 1<<20)})
		if err != nil {
			t.Fatalf("call: %v", err)
		}
		if !bytes.Contains(raw, []byte(`"id":1`)) {
			t.Errorf("reply %s", raw)
		}
	})
}

// A call keeps the write deadline of an earlier call while that one is
// later than its own: one that has passed must not fail the next call.
func TestAWriteDeadlineLeftByAnEarlierCallDoesNotFailTheNextCall(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		c := pipeConnWith(t, way, ConnOptions{}, echoPeer)
		short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := c.Call(short, protocol.MethodBeforeTool, benchdata.BeforeTool()); err != nil {
			t.Fatal(err)
		}
		<-short.Done() // the deadline on the pipe has passed
		for _, ctx := range []context.Context{context.Background(), t.Context()} {
			if _, err := c.Call(ctx, protocol.MethodBeforeTool, benchdata.BeforeTool()); err != nil {
				t.Errorf("a call after an earlier call's deadline: %v", err)
			}
		}
		later, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		if _, err := c.Call(later, protocol.MethodBeforeTool, benchdata.BeforeTool()); err != nil {
			t.Errorf("a call with a later deadline: %v", err)
		}
	})
}

// A hook that does not read its stdin fails a call whose request fills the
// pipe at the call's deadline, after an earlier call's deadline has passed.
func TestACallToAHookThatDoesNotReadEndsAtItsDeadline(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		c := pipeConnWith(t, way, ConnOptions{}, func(r io.Reader, w io.Writer) { select {} })
		short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := c.Call(short, protocol.MethodBeforeTool, benchdata.BeforeTool()); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a call the hook does not answer: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		big := json.RawMessage(`{"text":"` + strings.Repeat("x", 1<<20) + `"}`)
		_, err := c.Call(ctx, protocol.MethodBeforeTool, big)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "not reading its stdin") {
			t.Errorf("got %v, want the hook named as not reading its stdin", err)
		}
	})
}

// A hook that stops reading as it exits fails a call with how it ended,
// not with the broken pipe its stdin became.
func TestACallToAHookThatIsExitingFailsWithHowItEnded(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		c := pipeConnWith(t, way, ConnOptions{}, func(r io.Reader, w io.Writer) {
			r.(io.Closer).Close()
			time.Sleep(50 * time.Millisecond) // then its stdout closes
		})
		time.Sleep(10 * time.Millisecond) // its stdin is closed
		_, err := c.Call(t.Context(), protocol.MethodBeforeTool, benchdata.BeforeTool())
		if err == nil || !strings.Contains(err.Error(), "closed its stdout") {
			t.Errorf("got %v, want the hook's end", err)
		}
	})
}

// delayingPeer answers each request with a continue after the delay its
// method names ("wait-200ms"), or at once; a method "never" is not answered.
func delayingPeer(r io.Reader, w io.Writer) {
	var mu sync.Mutex
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		var req struct {
			ID     uint64
			Method string
		}
		if json.Unmarshal(line, &req) != nil || req.Method == "never" {
			continue
		}
		delay, _ := time.ParseDuration(strings.TrimPrefix(req.Method, "wait-"))
		time.AfterFunc(delay, func() {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":{"action":"continue"}}`+"\n", req.ID)
		})
	}
}

// A call's own deadline, given without a context of its own, ends the call
// while another call, with no deadline, waits too.
func TestACallEndsAtItsOwnDeadlineWhileAnotherCallWaits(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		c := pipeConnWith(t, way, ConnOptions{}, delayingPeer)
		reading := make(chan error, 1)
		go func() { // no deadline, no answer
			_, err := c.call(t.Context(), time.Time{}, "never", map[string]int{})
			reading <- err
		}()
		for c.inFlight() == 0 { // it waits
			time.Sleep(time.Millisecond)
		}
		for _, method := range []string{"never", "wait-1s"} {
			start := time.Now()
			_, err := c.call(context.Background(), start.Add(50*time.Millisecond), method, map[string]int{})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s: got %v, want the deadline's error", method, err)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("%s: ended after %v, its deadline was 50ms", method, took)
			}
		}
		select {
		case err := <-reading:
			t.Fatalf("the call without a deadline ended: %v", err)
		default:
		}
		c.Close()
		if err := <-reading; !errors.Is(err, ErrClosed) {
			t.Errorf("the call without a deadline: got %v, want ErrClosed", err)
		}
	})
}

// The deadline of an earlier call must not end a later call whose own
// deadline is further off; and a lone caller's own deadline ends it.
func TestAnEarlierCallsDeadlineDoesNotEndTheNextCall(t *testing.T) {
	bothWays(t, func(t *testing.T, way readingWay) {
		c := pipeConnWith(t, way, ConnOptions{}, delayingPeer)
		if _, err := c.call(context.Background(), time.Now().Add(30*time.Millisecond), "now", map[string]int{}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.call(context.Background(), time.Now().Add(5*time.Second), "wait-200ms", map[string]int{}); err != nil {
			t.Errorf("a call answered after the earlier call's deadline: %v", err)
		}
		start := time.Now()
		_, err := c.call(context.Background(), start.Add(50*time.Millisecond), "never", map[string]int{})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
			t.Errorf("a lone call the hook does not answer: %v after %v, want its deadline's error at 50ms", err, time.Since(start))
		}
	})
}
