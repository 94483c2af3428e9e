package session

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
)

// One request line carries the event as it came, one reply line the
// answer; a request over the event's bound gets no reply, and the
// invocation an error.
func TestAnInvocationSendsOneEventAndReadsOneReply(t *testing.T) {
	exchange := func(event []byte) (json.RawMessage, Reply, error, error) {
		client, server := net.Pipe()
		defer client.Close()
		type answered struct {
			event json.RawMessage
			err   error
		}
		got := make(chan answered, 1)
		go func() {
			defer server.Close()
			var seen json.RawMessage
			err := Answer(server, func(event json.RawMessage, err error) Reply {
				seen = event
				return Reply{Stdout: `{"ok":true}`, Exit: 2, Stderr: "why"}
			})
			got <- answered{seen, err}
		}()
		r, err := Exchange(context.Background(), client, event)
		client.Close()
		a := <-got
		return a.event, r, err, a.err
	}
	event := []byte(`{"hook_event_name":"PreToolUse","tool_input":{"command":"a < b && c > d"}}`)
	seen, r, err, serverErr := exchange(event)
	if err != nil || serverErr != nil || string(seen) != string(event) || r != (Reply{Stdout: `{"ok":true}`, Exit: 2, Stderr: "why"}) {
		t.Errorf("got %s, %+v, %v, %v", seen, r, err, serverErr)
	}
	big := []byte(`{"a":"` + strings.Repeat("x", MaxEventSize+64) + `"}`)
	if _, _, err, serverErr := exchange(big); err == nil || serverErr == nil {
		t.Errorf("an event over the bound: the invocation got %v, the server %v", err, serverErr)
	}
}
