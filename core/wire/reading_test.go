package wire

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// readByCaller reports whether the current goroutine is a caller reading
// for itself rather than the connection's reader goroutine.
func readByCaller() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		switch {
		case strings.HasSuffix(f.Function, ".(*readTurns).readFor"):
			return true
		case strings.HasSuffix(f.Function, ".(*readTurns).run"), !more:
			return false
		}
	}
}

// Reading by turns, with one call in flight, the caller reads its reply
// from the pipe itself. After a pause the reader goroutine has the pipe
// and the next call takes it back (its reply may still be read by the
// reader goroutine, if it comes before that has let go).
func TestALoneCallerReadsItsOwnReply(t *testing.T) {
	var afterPause atomic.Bool
	var byCaller, handedOver atomic.Int64
	trace := func(out bool, line []byte) {
		if out || !bytes.Contains(line, []byte(`"result"`)) || afterPause.Load() {
			return
		}
		if readByCaller() {
			byCaller.Add(1)
		} else {
			handedOver.Add(1)
		}
	}
	c := pipeConn(t, ConnOptions{Trace: trace}, func(r io.Reader, w io.Writer) { shufflingPeer(r, w, 0) })
	for i := range 60 {
		afterPause.Store(i%10 == 0)
		if i%10 == 0 {
			time.Sleep(3 * idlePause)
		}
		if err := callOwn(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	if byCaller.Load() != 54 || handedOver.Load() != 0 {
		t.Errorf("%d replies read by their caller, %d handed over; want all 54 by their caller", byCaller.Load(), handedOver.Load())
	}
}

// readByTheReader reports whether the current goroutine is the
// connection's reader.
func readByTheReader() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, ".oneReader.run") {
			return true
		}
		if !more {
			return false
		}
	}
}

// Where reads cannot be interrupted, every line the peer writes is read by
// the connection's one reader, whether calls come one at a time, many at
// once or after a pause; no caller reads the pipe.
func TestEveryLineIsReadByTheConnectionsReader(t *testing.T) {
	var byReader, byOthers atomic.Int64
	trace := func(out bool, line []byte) {
		if out {
			return
		}
		if readByTheReader() {
			byReader.Add(1)
		} else {
			byOthers.Add(1)
		}
	}
	c := pipeConnWith(t, byOneReader, ConnOptions{Trace: trace}, func(r io.Reader, w io.Writer) { shufflingPeer(r, w, 0) })
	for i := range 60 {
		if i%10 == 0 {
			time.Sleep(15 * time.Millisecond)
		}
		if err := callOwn(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := callOwn(context.Background(), c); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if byReader.Load() < 68 || byOthers.Load() != 0 {
		t.Errorf("%d lines read by the reader, %d by other goroutines; want all, at least 68 replies, by the reader", byReader.Load(), byOthers.Load())
	}
}
