package hookwire

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"unicode/utf8"
)

// overLimitAnswer is what a request sends instead of a reply longer than
// the host reads (the overLimit of schema/methods.json; the table
// overLimit is generated from it).
type overLimitAnswer struct {
	// err is the code of the error sent instead of any result; 0 for none.
	err int64
	// cut is the action whose reply goes cut to fit: the string at cutAt
	// cut from its end, with a marker; "" for none.
	cut   Action
	cutAt []string
	// keep are the actions that go as they are, with the reason alone.
	keep []Action
	// result goes, with the reason, instead of anything else.
	result map[string]any
}

// fit is result, or what replaces it when its reply line would be longer
// than the host reads, which stops reading the hook for good at a longer
// line. The replacement, the method's overLimit, never lets through what
// the hook would have stopped or changed (docs/protocol.md, "Replies longer
// than the host reads").
func (h *Hook) fit(m *envelope, result []byte) ([]byte, *RPCError) {
	frame := int64(len(m.ID) + len(`{"jsonrpc":"2.0","id":,"result":}`) + 1)
	size := int64(len(result)) + frame
	limit := h.MaxLineBytes()
	if size <= limit {
		return result, nil
	}
	reason := tooLongReason(limit)
	answer := overLimit[m.Method]
	if answer.err != 0 {
		h.logger().Warn("a reply is longer than the host reads in a line; sending an error instead",
			"method", m.Method, "bytes", size, "limit", limit)
		return nil, &RPCError{Code: answer.err, Message: reason}
	}
	var reply struct {
		Action Action `json:"action"`
	}
	_ = json.Unmarshal(result, &reply)
	if answer.cut != "" && reply.Action == answer.cut {
		if cut, ok := cutToFit(result, answer.cutAt, limit-frame); ok {
			h.logger().Warn("a reply is longer than the host reads in a line; sending it cut to fit",
				"method", m.Method, "bytes", size, "limit", limit)
			return cut, nil
		}
	}
	instead := map[string]any{"action": reply.Action}
	if !slices.Contains(answer.keep, reply.Action) {
		instead = maps.Clone(answer.result)
	}
	instead["reason"] = reason
	out := encode(instead)
	h.logger().Warn("a reply is longer than the host reads in a line; sending a refusal instead",
		"method", m.Method, "bytes", size, "limit", limit, "reply", string(out))
	return out, nil
}

// cutToFit is result with its string at path cut from its end, on a
// character boundary, so that the result takes at most room bytes, with a
// marker saying how many bytes were cut; false when even an empty string
// does not fit, or there is none.
func cutToFit(result []byte, path []string, room int64) ([]byte, bool) {
	// The objects along the path, outermost first.
	objects := make([]map[string]json.RawMessage, len(path))
	value := json.RawMessage(result)
	for i, key := range path {
		if json.Unmarshal(value, &objects[i]) != nil {
			return nil, false
		}
		value = objects[i][key]
	}
	var text string
	if json.Unmarshal(value, &text) != nil {
		return nil, false
	}
	marked := func(keep int) json.RawMessage {
		return encode(text[:keep] + cutMarker(len(text)-keep))
	}
	with := func(s json.RawMessage) []byte {
		for i := len(path) - 1; i >= 0; i-- {
			objects[i][path[i]] = s
			s = encode(objects[i])
		}
		return s
	}
	// The result but for the string is the same whatever is kept. The
	// longest prefix that fits: the size grows with the prefix, since the
	// count in the marker loses a digit only as a whole character is kept.
	others := int64(len(with(json.RawMessage(`""`)))) - 2
	keep := sort.Search(len(text)+1, func(n int) bool { return others+int64(len(marked(n))) > room }) - 1
	for keep > 0 && !utf8.RuneStart(text[keep]) {
		keep--
	}
	if keep < 0 {
		return nil, false
	}
	return with(marked(keep)), true
}

// encode is v as JSON, without the HTML escapes of encoding/json, as the
// SDK's encoder writes it. It is for values that encode: strings and maps
// of JSON.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
