// Scanning JSON text for the codec (codec.go): strings decoded in one pass,
// objects split into their members and arrays into their items, checked
// for their punctuation alone.

package hookwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// unquote decodes the JSON string raw, the way encoding/json does, for the
// strings that are most of a message's bytes: ok is false for anything it
// leaves to encoding/json (\u escapes, invalid UTF-8, what is not a string),
// which also reports the errors. Going through json.Unmarshal would check
// the bytes, then decode them: two more passes over each string.
func unquote(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	raw = raw[1 : len(raw)-1]
	i := plainRun(raw, 0)
	if i == len(raw) {
		return string(raw), true
	}
	var b strings.Builder
	b.Grow(len(raw))
	for {
		b.Write(raw[:i])
		raw = raw[i:]
		if len(raw) == 0 {
			return b.String(), true
		}
		switch c := raw[0]; {
		case c == '\\' && len(raw) > 1:
			e := raw[1]
			switch e {
			case '"', '\\', '/':
			case 'b':
				e = '\b'
			case 'f':
				e = '\f'
			case 'n':
				e = '\n'
			case 'r':
				e = '\r'
			case 't':
				e = '\t'
			default:
				return "", false
			}
			b.WriteByte(e)
			raw = raw[2:]
		case c < utf8.RuneSelf: // a control character, a lone quote or backslash
			return "", false
		default:
			r, size := utf8.DecodeRune(raw)
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			b.Write(raw[:size])
			raw = raw[size:]
		}
		i = plainRun(raw, 0)
	}
}

// plainRun is the index of the first byte from i on that a JSON string
// cannot hold as it is (a control character, a quote, a backslash) or
// that starts a multi-byte character, or len(s).
func plainRun[S []byte | string](s S, i int) int {
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// plain says which bytes plainRun steps over: one load per byte rather than
// four comparisons.
var plain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// splitMembers splits the JSON object data into its members. It checks the
// punctuation of the object: the values are checked by what decodes them.
func splitMembers(data []byte) (map[string]json.RawMessage, error) {
	if string(bytes.Trim(data, " \t\r\n")) == "null" {
		return nil, errors.New("want an object, got null")
	}
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return nil, fmt.Errorf("%w: want an object", errSyntax)
	}
	members := map[string]json.RawMessage{}
	err := eachItem(data, i, '}', func(item []byte) error {
		end := endOfString(item, 0)
		if end < 0 {
			return fmt.Errorf("%w: want a member name", errSyntax)
		}
		// A name of plain characters is itself; any other (escapes,
		// control characters, invalid UTF-8) is read as encoding/json
		// reads it, errors included.
		var name string
		if plainRun(item, 1) == end-1 {
			name = string(item[1 : end-1])
		} else if err := unmarshal(item[:end], &name); err != nil {
			return err
		}
		colon := skipSpace(item, end)
		if colon == len(item) || item[colon] != ':' {
			return fmt.Errorf("%w: want a colon after %q", errSyntax, name)
		}
		value := item[skipSpace(item, colon+1):]
		if len(value) == 0 {
			return fmt.Errorf("%w: want a value for %q", errSyntax, name)
		}
		// A member named twice is the last one, as in encoding/json; the
		// one it replaces is never decoded, so it is checked here.
		if earlier, ok := members[name]; ok && !validJSON(earlier) {
			return fmt.Errorf("%w: in the first %q", errSyntax, name)
		}
		members[name] = value
		return nil
	})
	return members, err
}

// eachItem splits the object or array that opens at data[open] into its
// items at the commas between them, and checks that nothing follows it.
// An item of an object is its name, its colon and its value.
func eachItem(data []byte, open int, closing byte, fn func(item []byte) error) error {
	i := skipSpace(data, open+1)
	if i < len(data) && data[i] == closing {
		i++
	} else {
		for {
			start := i
			for i < len(data) && data[i] != ',' && data[i] != closing {
				if i = endOfValue(data, i); i < 0 {
					return fmt.Errorf("%w: unexpected end or bracket", errSyntax)
				}
				i = skipSpace(data, i)
			}
			if i == len(data) {
				return fmt.Errorf("%w: unexpected end", errSyntax)
			}
			item := bytes.TrimRight(data[start:i], " \t\r\n")
			if len(item) == 0 {
				return fmt.Errorf("%w: empty item", errSyntax)
			}
			if err := fn(item); err != nil {
				return err
			}
			i++
			if data[i-1] == closing {
				break
			}
			i = skipSpace(data, i)
		}
	}
	if skipSpace(data, i) != len(data) {
		return fmt.Errorf("%w: data after the end", errSyntax)
	}
	return nil
}

// endOfValue is the index just past the token or the nested object, array
// or string that starts at data[i], or -1 when data ends first or no value
// starts there. It always advances: a splitter that stood still on a byte
// would spin on it forever.
func endOfValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return endOfString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				if i = endOfString(data, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case ':':
		return i + 1
	case '}', ']':
		// A closing bracket of the other kind, as in {"a":1]: no value
		// starts here, and stepping over nothing would loop forever.
		return -1
	}
	for i < len(data) && !delimiter(data[i]) {
		i++
	}
	return i
}

// endOfString is the index just past the string that starts at data[i],
// or -1 when data ends first. It jumps from quote to quote, rather than
// stepping through the bytes between: a quote ends the string unless an odd
// number of backslashes precede it.
func endOfString(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	for i++; ; i++ {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		escaped := false
		for j := i - 1; data[j] == '\\'; j-- { // the opening quote stops it
			escaped = !escaped
		}
		if !escaped {
			return i + 1
		}
	}
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}
