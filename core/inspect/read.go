package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wiretap"
)

// The readers of what the store takes in: a producer's first line (its
// info) and its items, a wire line's JSON-RPC message, and what a row shows
// of a call's params and result.

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

type bodyReader func(*jsontext.Decoder) error

func (f bodyReader) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return f(dec) }

// decodeInfo reads the first line of a producer's stream.
func decodeInfo(line []byte) (feed.Info, error) {
	var info feed.Info
	if err := json.Unmarshal(line, &info); err != nil {
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

func (p *callArgs) read(dec *jsontext.Decoder) error {
	var canonical, named, first string
	err := readObject(dec, func(name []byte) (err error) {
		switch string(name) {
		case "tool":
			if dec.PeekKind() != '"' {
				return dec.SkipValue()
			}
			p.tool, err = readString(dec)
		case "canonical":
			if dec.PeekKind() != '{' {
				return dec.SkipValue()
			}
			// The first of command, path, url, pattern, server.
			rank := len(canonicalNames)
			return readObject(dec, func(name []byte) error {
				i := indexOf(canonicalNames, string(name))
				if i < 0 || i >= rank || dec.PeekKind() != '"' {
					return dec.SkipValue()
				}
				v, err := readString(dec)
				if v != "" {
					canonical, rank = v, i
				}
				return err
			})
		case "arguments":
			if dec.PeekKind() != '{' {
				return dec.SkipValue()
			}
			rank := len(argNames)
			return readObject(dec, func(name []byte) error {
				if dec.PeekKind() != '"' {
					return dec.SkipValue()
				}
				key := string(name)
				v, err := readString(dec)
				if i := indexOf(argNames, key); i >= 0 && i < rank && v != "" {
					named, rank = v, i
				} else if first == "" && v != "" {
					first = key + "=" + v
				}
				return err
			})
		default:
			return dec.SkipValue()
		}
		return err
	})
	switch {
	case canonical != "":
		p.arg = canonical
	case named != "":
		p.arg = named
	default:
		p.arg = first
	}
	p.arg = clip(p.arg, 300)
	return err
}

var canonicalNames = []string{"command", "path", "url", "pattern", "server"}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

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

func (r *callReply) read(dec *jsontext.Decoder) error {
	return readObject(dec, func(name []byte) (err error) {
		k := dec.PeekKind()
		switch string(name) {
		case "action":
			if k != '"' {
				return dec.SkipValue()
			}
			r.action, err = readString(dec)
		case "reason":
			if k != '"' {
				return dec.SkipValue()
			}
			r.reason, err = readString(dec)
			r.reason = clip(r.reason, 300)
		case "approved":
			r.approval = true
			r.approved = k == 't'
			err = dec.SkipValue()
		case "abstain":
			r.abstain = k == 't'
			err = dec.SkipValue()
		default:
			err = dec.SkipValue()
		}
		return err
	})
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

// itemReader decodes an item with the decoder of its line, whose offsets
// find the bodies in the line.
type itemReader struct {
	it   item
	line []byte
}

func (r *itemReader) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	it := &r.it
	return readObject(dec, func(name []byte) (err error) {
		switch string(name) {
		case "type":
			it.Type, err = readString(dec)
		case "time":
			err = jsonv2.UnmarshalDecode(dec, &it.Time)
		case "hook":
			it.Hook, err = readString(dec)
		case "method":
			it.Method, err = readString(dec)
		case "error":
			it.Error, err = readString(dec)
		case "policy":
			it.Policy, err = readString(dec)
		case "dir":
			it.Dir, err = readString(dec)
		case "text":
			it.Text, err = readString(dec)
		case "name":
			it.Name, err = readString(dec)
		case "duration_ns":
			err = jsonv2.UnmarshalDecode(dec, &it.DurationNS)
		case "latency_ns":
			err = jsonv2.UnmarshalDecode(dec, &it.LatencyNS)
		case "host":
			err = jsonv2.UnmarshalDecode(dec, &it.Host)
		case "params":
			it.Params, _, err = readValue(dec, r.line, "")
		case "result":
			it.Result, _, err = readValue(dec, r.line, "")
		case "data":
			it.Data, _, err = readValue(dec, r.line, "")
		case "message":
			start := dec.InputOffset()
			it.message, err = readMessage(dec, r.line)
			it.Message = valueAt(r.line, start, dec.InputOffset())
		default:
			err = dec.SkipValue()
		}
		return err
	})
}

// messageOf is what the store takes of a message of a recording.
func messageOf(msg json.RawMessage) message {
	r := messageReader{line: msg}
	if protocol.Unmarshal(msg, &r) != nil {
		return message{}
	}
	return r.m
}

type messageReader struct {
	m    message
	line []byte
}

func (r *messageReader) UnmarshalJSONFrom(dec *jsontext.Decoder) (err error) {
	r.m, err = readMessage(dec, r.line)
	return err
}

// readMessage reads a line of the wire: a JSON-RPC message, or another
// value, skipped.
func readMessage(dec *jsontext.Decoder, line []byte) (m message, err error) {
	if dec.PeekKind() != '{' {
		return m, dec.SkipValue()
	}
	rpc := true
	err = readObject(dec, func(name []byte) (err error) {
		switch string(name) {
		case "id":
			var id json.RawMessage
			if id, _, err = readValue(dec, line, ""); string(id) != "null" {
				m.id = string(id)
			}
		case "method":
			if k := dec.PeekKind(); k != '"' && k != 'n' {
				rpc = false
				return dec.SkipValue()
			}
			m.method, err = readString(dec)
		case "params":
			m.params, err = readMember(dec, line, m.callArgs.read)
		case "result":
			m.result, err = readMember(dec, line, m.callReply.read)
		case "error":
			if m.error, _, err = readValue(dec, line, ""); string(m.error) == "null" {
				m.error = nil
			}
		default:
			err = dec.SkipValue()
		}
		return err
	})
	if !rpc {
		return message{}, err
	}
	return m, err
}

// readObject reads an object, calling member with each name to read its
// value. The name is the decoder's: it lasts until the next read.
func readObject(dec *jsontext.Decoder, member func(name []byte) error) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("an object was expected, not %v", tok)
	}
	for dec.PeekKind() != '}' {
		// Read as a value, a name is not copied into a string.
		quoted, err := dec.ReadValue()
		if err != nil {
			return err
		}
		name := quoted[1 : len(quoted)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name, _ = jsontext.AppendUnquote(nil, quoted)
		}
		if err := member(name); err != nil {
			return err
		}
	}
	_, err = dec.ReadToken()
	return err
}

// readString reads a string, or null as "".
func readString(dec *jsontext.Decoder) (string, error) {
	tok, err := dec.ReadToken()
	switch {
	case err != nil:
		return "", err
	case tok.Kind() == '"':
		return tok.String(), nil
	case tok.Kind() == 'n':
		return "", nil
	}
	return "", fmt.Errorf("a string was expected, not %v", tok)
}

// readValue reads a value and returns it as it is in line.
func readValue(dec *jsontext.Decoder, line []byte, _ string) (body json.RawMessage, value string, err error) {
	body, err = readMember(dec, line, nil)
	return body, "", err
}

// readMember reads a value and returns it as it is in line, having read it,
// when it is an object, with read.
func readMember(dec *jsontext.Decoder, line []byte, read func(*jsontext.Decoder) error) (json.RawMessage, error) {
	start := dec.InputOffset()
	var err error
	if read != nil && dec.PeekKind() == '{' {
		err = read(dec)
	} else {
		err = dec.SkipValue()
	}
	return valueAt(line, start, dec.InputOffset()), err
}

// valueAt is the value between two offsets of the decoder: from after a
// member's name (start), without the colon and the blanks before the value.
func valueAt(line []byte, start, end int64) json.RawMessage {
	if start < 0 || end > int64(len(line)) || start > end {
		return nil
	}
	return bytes.TrimLeft(line[start:end:end], ": \t\r\n")
}
