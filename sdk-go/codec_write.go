// Encoding for the codec (codec.go): the writer under every generated
// MarshalJSON, which writes an object's members in order, then its Extra.

package hookwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"unicode/utf8"
)

// buffers holds the buffers of writers whose bytes have been copied into
// their parent's: a message of many objects encodes each in a buffer that
// has the room already, rather than growing one from nothing.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// writer encodes the members of one JSON object, in the order written.
type writer struct {
	buf     []byte        // from buffers
	enc     *json.Encoder // writes to encoded, for values other than strings
	encoded bytes.Buffer
	names   []string
	err     error
}

func (w *writer) member(name string, value any) {
	if w.err != nil {
		return
	}
	if len(w.names) == 0 {
		w.buf = append(*buffers.Get().(*[]byte), '{')
	} else {
		w.buf = append(w.buf, ',')
	}
	w.names = append(w.names, name)
	w.string(name)
	w.buf = append(w.buf, ':')
	switch s := value.(type) {
	case string:
		w.string(s)
	case *string:
		if s != nil {
			w.string(*s)
			return
		}
		w.buf = append(w.buf, "null"...)
	default:
		if err := w.value(reflect.ValueOf(value)); err != nil {
			w.err = fmt.Errorf("%q: %w", name, err)
		}
	}
}

// string writes s as encoding/json does without HTML escaping, and so
// without the encoder, which costs more than the writing for long strings.
func (w *writer) string(s string) {
	w.buf = appendString(w.buf, s)
}

// appendString is encoding/json's string encoding with HTML escaping off:
// quotes, backslashes and control characters escaped, \b, \f, \n, \r and
// \t by name; invalid UTF-8 as U+FFFD; U+2028 and U+2029 escaped, for
// JavaScript.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = plainRun(s, i); i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// value writes v. A type of this package, a pointer to one and a list of
// them are written by their MarshalJSON directly: through the encoder,
// which checks and compacts what a MarshalJSON returns, each level of
// nesting would read their bytes once more.
func (w *writer) value(v reflect.Value) error {
	if !v.IsValid() {
		return w.encode(nil)
	}
	t := v.Type()
	switch {
	case ownType(t):
		b, err := v.Interface().(json.Marshaler).MarshalJSON()
		if cap(w.buf)-len(w.buf) < len(b) {
			// Double the room: append adds a quarter at a time to a large
			// slice, and the buffer of a 10 MB message would be copied some
			// twenty times on its way there.
			w.buf = slices.Grow(w.buf, len(b)+cap(w.buf))
		}
		w.buf = append(w.buf, b...)
		// b is a writer's buffer, and nobody else's: the next object may have it.
		if cap(b) <= 64<<10 {
			b = b[:0]
			buffers.Put(&b)
		}
		return err
	case (t.Kind() != reflect.Pointer && t.Kind() != reflect.Slice) || !ownType(t.Elem()):
		return w.encode(v.Interface())
	case v.IsNil():
		w.buf = append(w.buf, "null"...)
		return nil
	case t.Kind() == reflect.Pointer:
		return w.value(v.Elem())
	}
	w.buf = append(w.buf, '[')
	for i := range v.Len() {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if err := w.value(v.Index(i)); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	w.buf = append(w.buf, ']')
	return nil
}

func (w *writer) encode(x any) error {
	if w.enc == nil {
		// HTML escaping is for JSON inside HTML, not for a protocol line.
		w.enc = json.NewEncoder(&w.encoded)
		w.enc.SetEscapeHTML(false)
	}
	w.encoded.Reset()
	if err := w.enc.Encode(x); err != nil {
		return err
	}
	w.buf = append(w.buf, bytes.TrimSuffix(w.encoded.Bytes(), []byte("\n"))...) // Encode ends with a newline
	return nil
}

func (w *writer) optional(name string, value any, present bool) {
	if present {
		w.member(name, value)
	}
}

// close writes the members of extra, in key order, that no field wrote,
// and ends the object.
func (w *writer) close(extra Extra) ([]byte, error) {
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		if !slices.Contains(w.names, name) {
			w.member(name, extra[name])
		}
	}
	if len(w.names) == 0 {
		w.buf = append(w.buf, '{')
	}
	w.buf = append(w.buf, '}')
	return w.buf, w.err
}

// orConst is v, or c when v is the zero value.
func orConst[T comparable](v, c T) T {
	var zero T
	if v == zero {
		return c
	}
	return v
}

func orEmptySlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orEmptyMap[T any](m map[string]T) map[string]T {
	if m == nil {
		return map[string]T{}
	}
	return m
}
