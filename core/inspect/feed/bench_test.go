package feed

import (
	"net"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/runtime"
)

// BenchmarkPublish is what a call to a process hook costs the host while
// an inspector listens: its two lines of the wire and the runtime's word
// on it, queued. The queue is emptied as the writer would.
func BenchmarkPublish(b *testing.B) {
	conn, peer := net.Pipe()
	defer conn.Close()
	defer peer.Close()
	s := &Session{conn: conn}
	send := []byte(`{"jsonrpc":"2.0","id":17,"method":"hook.before_tool","params":{"meta":{"agent_id":"agent-1","turn_id":"turn-1","parent_turn_id":"","session_key":"session-1","iteration":1,"source":"agent"},"context":{"inbound":{"channel":"cli","chat_id":"direct","sender_id":"user"}},"tool":"read_file","arguments":{"path":"notes/2026-05-01.md"},"channel":"cli","chat_id":"direct"}}`)
	reply := []byte(`{"jsonrpc":"2.0","id":17,"result":{"action":"continue"}}`)
	rec := runtime.CallRecord{Hook: "bench", Method: "hook.before_tool", Duration: 30 * time.Microsecond}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Wire("bench", true, send)
		s.Wire("bench", false, reply)
		s.Call(rec)
		if i%64 == 63 {
			s.queue = s.queue[:0]
		}
	}
}
