package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
)

// message is one JSON-RPC message the hook wrote.
type message struct {
	raw    []byte
	id     *uint64 // nil when absent, null or not a non-negative integer
	rawID  string  // the id as written, "" when absent
	method string  // set when the hook sent a request or notification
	result json.RawMessage
	err    *protocol.RPCError
}

func (m message) String() string { return wirefmt.Clip(string(m.raw), 120) }

// take files one line: a JSON-RPC message, or junk.
func (p *proc) take(line []byte) {
	var members map[string]json.RawMessage
	if json.Unmarshal(line, &members) != nil || members["jsonrpc"] == nil {
		p.mu.Lock()
		p.junk = append(p.junk, line)
		p.mu.Unlock()
		return
	}
	m := message{raw: line, result: members["result"]}
	if raw, ok := members["id"]; ok {
		m.rawID = wirefmt.Clip(string(raw), 120)
		var id uint64
		if json.Unmarshal(raw, &id) == nil {
			m.id = &id
		}
	}
	if raw, ok := members["method"]; ok {
		if json.Unmarshal(raw, &m.method) != nil || m.method == "" {
			m.method = wirefmt.Clip(string(raw), 120)
		}
	}
	if raw, ok := members["error"]; ok {
		var e protocol.RPCError
		if protocol.Unmarshal(raw, &e) == nil {
			m.err = &e
		} else {
			m.err = &protocol.RPCError{Code: protocol.CodeInternalError, Message: "unreadable error object " + wirefmt.Clip(string(raw), 120)}
		}
	}
	p.mu.Lock()
	p.msgs = append(p.msgs, m)
	close(p.arrived)
	p.arrived = make(chan struct{})
	p.mu.Unlock()
}

// request encodes a request and records its method; it returns the line and its id.
func (p *proc) request(method string, params any) ([]byte, uint64) {
	raw, err := protocol.Marshal(params)
	if err != nil {
		panic(fmt.Sprintf("conformance: params of %s: %v", method, err))
	}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.sent[id] = method
	p.mu.Unlock()
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, raw), id
}

// notification encodes a notification; id, when not nil, is the id of 0
// that older hosts put on notifications.
func notification(method string, params json.RawMessage, id *int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0",`)
	if id != nil {
		fmt.Fprintf(&b, `"id":%d,`, *id)
	}
	fmt.Fprintf(&b, `"method":%q,"params":`, method)
	json.Compact(&b, params)
	b.WriteString("}\n")
	return b.Bytes()
}
