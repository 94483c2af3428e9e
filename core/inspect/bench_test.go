package inspect

import (
	"bytes"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/runtime"
)

// BenchmarkIngest is what the inspector spends on a call of a host it
// listens to, on the host's cores: the two lines of a process hook's wire
// and the runtime's word on the call, as feed writes them.
func BenchmarkIngest(b *testing.B) {
	const calls = 1000
	stream := published(b, calls)
	b.ReportAllocs()
	for b.Loop() {
		var st store
		if err := st.ingest(bytes.NewReader(stream)); err != nil {
			b.Fatal(err)
		}
		if s := st.list(); s[0].Calls != calls {
			b.Fatalf("%d calls, want %d", s[0].Calls, calls)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
}

// published is what a session of n calls to a process hook writes to the
// inspector.
func published(tb testing.TB, n int) []byte {
	sock := filepath.Join(privateDir(tb), "inspect.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(c)
		got <- b
	}()
	s := feed.OpenAt(sock, feed.Info{Kind: "run"})
	send := []byte(`{"jsonrpc":"2.0","id":17,"method":"hook.before_tool","params":{"meta":{"agent_id":"agent-1","turn_id":"turn-1","parent_turn_id":"","session_key":"session-1","iteration":1,"source":"agent"},"context":{"inbound":{"channel":"cli","chat_id":"direct","sender_id":"user"}},"tool":"read_file","arguments":{"path":"notes/2026-05-01.md"},"channel":"cli","chat_id":"direct"}}`)
	reply := []byte(`{"jsonrpc":"2.0","id":17,"result":{"action":"continue"}}`)
	rec := runtime.CallRecord{Hook: "h", Method: "hook.before_tool", Duration: 30 * time.Microsecond}
	for range n {
		s.Wire("h", true, send)
		s.Wire("h", false, reply)
		s.Call(rec)
	}
	s.Close()
	return <-got
}
