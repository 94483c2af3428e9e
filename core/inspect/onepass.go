package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
)

// The one-pass reader of an item: the decoder of encoding/json/v2's
// jsontext walks the line once, keeps each body (params, result, data, the
// message) as the slice of the line it is, and decodes of the rest only
// what a row shows. Reading with protocol.Unmarshal into structs instead
// (the item, then its message, then its params and result, each body a
// copy) costs twice as much in BenchmarkIngest (figures in BENCHMARKS.md,
// "The inspector's readers"), and the inspector's reading is taken from
// the host's cores: section 9 of the bench.

type bodyReader func(*jsontext.Decoder) error

func (f bodyReader) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return f(dec) }

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
	p.arg = wirefmt.Clip(p.arg, 300)
	return err
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
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
			r.reason = wirefmt.Clip(r.reason, 300)
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
			it.Params, err = readValue(dec, r.line)
		case "result":
			it.Result, err = readValue(dec, r.line)
		case "data":
			it.Data, err = readValue(dec, r.line)
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
			if id, err = readValue(dec, line); string(id) != "null" {
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
			if m.error, err = readValue(dec, line); string(m.error) == "null" {
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
func readValue(dec *jsontext.Decoder, line []byte) (json.RawMessage, error) {
	return readMember(dec, line, nil)
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
