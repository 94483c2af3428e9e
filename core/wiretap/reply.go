package wiretap

import (
	"bytes"
	"encoding/json"
	"sync"
)

// A Reply picks out of a conversation, line by line as a connection's
// Trace sees it, the reply to the request of one method: the line the hook
// wrote with the id that request was sent with. `hookwire call` and the
// inspector's composer show that line as it was, envelope and all.
type Reply struct {
	method string

	mu      sync.Mutex
	id      json.RawMessage // the request's, once it is sent
	line    []byte
	replies int
}

// NewReply watches for the reply to the request of method.
func NewReply(method string) *Reply { return &Reply{method: method} }

// See takes a line sent to the hook (out) or written by it.
func (r *Reply) See(out bool, line []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	err := json.Unmarshal(line, &m)
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case out && m.Method == r.method && r.id == nil:
		r.id = m.ID
	case !out && err == nil && m.Method == "": // a line that is no message is no reply
		r.replies++
		if r.id != nil && bytes.Equal(m.ID, r.id) {
			r.line = bytes.Clone(line)
		}
	}
}

// Line is the reply, nil until the hook has written it.
func (r *Reply) Line() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.line
}

// Replies is how many replies the hook has written, to any request.
func (r *Reply) Replies() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.replies
}
