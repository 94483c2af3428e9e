// Package jsonscan reads one member of a JSON object from the start of its
// text, without decoding the rest: what names a message (an agent's event
// name, a JSON-RPC id) even when the whole is too large or cut short.
package jsonscan

import (
	"bytes"
	"encoding/json"
)

// Member is the value of the top-level member key of the object that data
// starts with, as its JSON text: the last one when the key repeats, as
// encoding/json reads it; nil when data does not start with an object or
// has no such member before it ends or breaks.
func Member(data []byte, key string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var found json.RawMessage
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return found
		}
		if k == key {
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				return found
			}
			found = v
			continue
		}
		if !skipValue(dec) {
			return found
		}
	}
	return found
}

// skipValue reads past one value, token by token; false when the text
// breaks or ends first.
func skipValue(dec *json.Decoder) bool {
	for depth := 0; ; {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return true
		}
	}
}
