package conformance

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// FuzzProcRead: what a hook writes on stdout is a peer's bytes. Whatever
// they are, reading them keeps each non-blank line, in order, while their
// cost is within the limit, and stops with the overflow as its error past
// it: never more kept than the limit allows.
func FuzzProcRead(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nnot json\n\n"), int64(4096))
	f.Add([]byte(strings.Repeat("y\n", 1000)), int64(1000))
	f.Add([]byte(strings.Repeat("x", 200000)), int64(65536))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		if limit <= 0 || limit > 1<<20 {
			limit = 1 << 16
		}
		p := &proc{limit: limit, readDone: make(chan struct{}), sent: map[uint64]string{}, arrived: make(chan struct{})}
		p.read(io.NopCloser(bytes.NewReader(data)))
		kept := 0
		for _, j := range p.junk {
			kept += len(j)
		}
		for _, m := range p.msgs {
			kept += len(m.raw)
		}
		if int64(kept) > limit {
			t.Fatalf("kept %d bytes past the limit of %d", kept, limit)
		}
		var want int
		var cost int64
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if cost += int64(len(line)) + 64; cost > limit {
				break
			}
			if len(bytes.TrimSpace(bytes.TrimRight(line, "\r\n"))) > 0 {
				want++
			}
		}
		got := len(p.junk) + len(p.msgs)
		if p.overflow == nil && got != want {
			t.Fatalf("kept %d lines of %d within the limit", got, want)
		}
		if p.overflow == nil && cost > limit {
			t.Fatalf("read %d bytes' worth past the limit of %d without an overflow", cost, limit)
		}
	})
}
