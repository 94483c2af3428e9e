package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wiretap"
)

// The readers of what the store takes in: a producer's first line (its
// info) and its items, a wire line's JSON-RPC message, and what a row shows
// of a call's params and result. Each reads with encoding/json/v2, through
// protocol.Unmarshal; an item and the bodies in it are walked once, by the
// reader of onepass.go.

// paramsOf is what a row shows of a call's params.
func paramsOf(params json.RawMessage) (p callArgs) {
	read := bodyReader(p.read)
	_ = protocol.Unmarshal(params, &read)
	return p
}

// resultOf is what a row shows of a call's result.
func resultOf(result json.RawMessage) (r callReply) {
	read := bodyReader(r.read)
	_ = protocol.Unmarshal(result, &read)
	return r
}

// decodeInfo reads the first line of a producer's stream.
func decodeInfo(line []byte) (feed.Info, error) {
	var info feed.Info
	if err := protocol.Unmarshal(line, &info); err != nil {
		return info, fmt.Errorf("a session's first line is not its info: %v", err)
	}
	if info.Kind == "" {
		return info, errors.New(`a session's first line has no "kind"`)
	}
	return info, nil
}

// item is an item of a producer's stream, and what a row needs of its
// message (a wire item's), read with it.
type item struct {
	feed.Item
	message
}

// message is what the store takes of a line of the wire that is a JSON-RPC
// message (of another, nothing): its members, the bodies as they are in
// the line.
type message struct {
	id             string // as it is on the wire, "" for none or null
	method         string
	params, result json.RawMessage
	error          json.RawMessage // nil for none or null
	callArgs                       // what a row shows of params
	callReply                      // and of result
}

// callArgs is what a row shows of a call's params: the tool and its key
// argument.
type callArgs struct {
	tool, arg string
}

// argNames are the arguments that say most of a call, when the runtime
// gave no canonical member: the first a call has is its key argument.
var argNames = []string{"command", "cmd", "file_path", "path", "url", "pattern", "query"}

var canonicalNames = []string{"command", "path", "url", "pattern", "server"}

// callReply is what a row shows of a call's result: its action, or an
// approver's answer, and the reason.
type callReply struct {
	action, reason    string
	approved, abstain bool
	approval          bool // the result has "approved"
}

// verb is the action of a result, or an approver's answer: approved,
// denied, abstained.
func (r callReply) verb() string {
	switch {
	case r.action != "" || !r.approval:
		return r.action
	case r.approved:
		return "approved"
	case r.abstain:
		return "abstained"
	}
	return "denied"
}

// decodeItem reads one item of a producer's stream, in one pass: a wire
// item's message with it (the inspector reads three lines for each call
// of a host it listens to, on the same cores as the host). What a row
// keeps (Params, Message, the message's params, ...) is a slice of line,
// which the caller must not reuse; of the rest, only what a row shows is
// decoded.
func decodeItem(line []byte) (item, error) {
	r := itemReader{line: line}
	if err := protocol.Unmarshal(line, &r); err != nil {
		// A wire item carries the hook's line as it was, unchecked: when
		// that line only looked like a JSON object, it is text.
		head, msg, ok := bytes.Cut(line, []byte(`,"message":`))
		head = append(head[:len(head):len(head)], '}')
		r = itemReader{line: head}
		if !ok || !bytes.HasPrefix(head, []byte(`{"type":"wire",`)) || protocol.Unmarshal(head, &r) != nil || !bytes.HasSuffix(msg, []byte("}")) {
			return item{}, fmt.Errorf("an item that is not JSON: %v", err)
		}
		r.it.Message, r.it.Text = nil, string(msg[:len(msg)-1])
	}
	it := r.it
	switch it.Type {
	case "call", "wire", "stderr", "event", "end":
	default:
		return it, fmt.Errorf("an item of unknown type %q", it.Type)
	}
	if it.Type == "wire" && it.Dir != wiretap.Send && it.Dir != wiretap.Recv {
		return it, fmt.Errorf(`a wire item's "dir" is %q`, it.Dir)
	}
	return it, nil
}

// messageOf is what the store takes of a message of a recording.
func messageOf(msg json.RawMessage) message {
	r := messageReader{line: msg}
	if protocol.Unmarshal(msg, &r) != nil {
		return message{}
	}
	return r.m
}
