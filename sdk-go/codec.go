// The JSON codec under the generated MarshalJSON and UnmarshalJSON methods
// of protocol_gen.go: only what differs per type is generated, this file is
// the same for every schema.

package hookwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Extra holds the members of a JSON object that its type does not declare.
// A newer peer may add members; a hook that modifies an object and sends it
// back must not drop them, because hosts replace the whole object.
//
// Every type's MarshalJSON writes its members in schema order, then Extra;
// its UnmarshalJSON matches member names exactly, checks the required ones
// and keeps the others in Extra.
type Extra map[string]json.RawMessage

// Flags of reader.member.
const (
	optional = 0
	required = 1
	nullable = 2
)

// reader decodes the members of one JSON object. Its first error sticks,
// so that UnmarshalJSON reads as a list of members.
type reader struct {
	typ     string
	members map[string]json.RawMessage // slices of the data being decoded
	err     error
}

func newReader(typ string, data []byte) (*reader, error) {
	members, err := splitMembers(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return &reader{typ: typ, members: members}, nil
}

// member decodes the member name into dst, and takes it off the members
// left for Extra. Names match exactly, unlike encoding/json's, so that a
// member that differs only in case stays an unknown member.
func (r *reader) member(name string, flags int, dst any) {
	raw, ok := r.members[name]
	delete(r.members, name)
	switch {
	case r.err != nil:
	case !ok:
		if flags&required != 0 {
			r.fail(name, "is missing")
		}
	case flags&nullable == 0 && string(raw) == "null":
		r.fail(name, "must not be null")
	default:
		if err := decodeInto(raw, dst); err != nil {
			r.err = fmt.Errorf("%s: %q: %w", r.typ, name, err)
		}
	}
}

func (r *reader) fail(name, problem string) {
	r.err = fmt.Errorf("%s: %q %s", r.typ, name, problem)
}

// rest is the members no field took, copied: the data they were read from
// is the caller's.
func (r *reader) rest() Extra {
	if len(r.members) == 0 {
		return nil
	}
	extra := make(Extra, len(r.members))
	for name, raw := range r.members {
		if r.err == nil && !validJSON(raw) {
			r.err = fmt.Errorf("%s: %q: %w", r.typ, name, errSyntax)
		}
		extra[name] = slices.Clone(raw)
	}
	return extra
}

// decodeInto decodes raw into dst. A type of this package, a pointer to one
// and a list of them are decoded by their UnmarshalJSON directly: through
// json.Unmarshal, which checks the bytes it hands an UnmarshalJSON, each
// level of nesting would read them once more, and a long message history
// would cost several times its size. Values are checked once, by whatever
// decodes them.
func decodeInto(raw []byte, dst any) error {
	switch p := dst.(type) {
	case *string:
		if s, ok := unquote(raw); ok {
			*p = s
			return nil
		}
	case **string:
		if s, ok := unquote(raw); ok {
			*p = &s
			return nil
		}
	}
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	switch {
	case ownType(t):
		return dst.(json.Unmarshaler).UnmarshalJSON(raw)
	case (t.Kind() != reflect.Pointer && t.Kind() != reflect.Slice) || !ownType(t.Elem()):
		return unmarshal(raw, dst)
	case string(raw) == "null":
		v.SetZero()
		return nil
	case t.Kind() == reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := decodeInto(raw, p.Interface()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	}
	i := skipSpace(raw, 0)
	if i == len(raw) || raw[i] != '[' {
		return fmt.Errorf("%w: want an array", errSyntax)
	}
	var elems [][]byte
	if err := eachItem(raw, i, ']', func(e []byte) error { elems = append(elems, e); return nil }); err != nil {
		return err
	}
	list := reflect.MakeSlice(t, len(elems), len(elems))
	for i, e := range elems {
		if err := decodeInto(e, list.Index(i).Addr().Interface()); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	v.Set(list)
	return nil
}

var ownTypes sync.Map // reflect.Type -> bool

// ownType reports whether t is a struct of this package: one with the
// MarshalJSON and UnmarshalJSON written here.
func ownType(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || t.PkgPath() != reflect.TypeFor[Extra]().PkgPath() {
		return false
	}
	if own, ok := ownTypes.Load(t); ok {
		return own.(bool)
	}
	own := t.Implements(reflect.TypeFor[json.Marshaler]()) && reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
	ownTypes.Store(t, own)
	return own
}

var (
	errSyntax = errors.New("invalid JSON")
	errUTF8   = fmt.Errorf("%w: invalid UTF-8", errSyntax)
)

// JSON is UTF-8. encoding/json reads invalid UTF-8 all the same, every bad
// byte a U+FFFD, and a hook would act on text its peer never sent: the
// codec checks it where encoding/json reads bytes for it. (The strings
// that are most of a message, unquote reads itself, checking as it goes.)

// validJSON is json.Valid for UTF-8 only.
func validJSON(raw []byte) bool { return json.Valid(raw) && utf8.Valid(raw) }

// unmarshal is json.Unmarshal for UTF-8 only.
func unmarshal(raw []byte, dst any) error {
	if !utf8.Valid(raw) {
		return errUTF8
	}
	return json.Unmarshal(raw, dst)
}

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

// checkConst fails unless got is absent (nil) or one of allowed.
func checkConst[T comparable](r *reader, name string, got *T, allowed ...T) {
	if r.err == nil && got != nil && !slices.Contains(allowed, *got) {
		r.fail(name, fmt.Sprintf("is %#v, want one of %#v", *got, allowed))
	}
}

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

// readTag reads the tag member of a union's value, and nothing else.
func readTag(union, tag string, data []byte) (value string, present bool, err error) {
	members, err := splitMembers(data)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", union, err)
	}
	raw, ok := members[tag]
	if !ok {
		return "", false, nil
	}
	if err := unmarshal(raw, &value); err != nil {
		return "", false, fmt.Errorf("%s: %q must be a string", union, tag)
	}
	return value, true, nil
}

func badTag(union, tag, value string, present bool, allowed string) error {
	if !present {
		return fmt.Errorf("%s: %q is missing (allowed: %s)", union, tag, allowed)
	}
	return fmt.Errorf("%s: %s %q is not allowed (allowed: %s)", union, tag, value, allowed)
}

// decodeVariant decodes data as the variant V of the union U.
func decodeVariant[U any, V any, PV interface {
	*V
	json.Unmarshaler
}](data []byte) (U, error) {
	var v V
	if err := PV(&v).UnmarshalJSON(data); err != nil {
		var zero U
		return zero, err
	}
	return any(v).(U), nil
}

// decode decodes data as a T. null is no T, though encoding/json leaves
// the zero value for it where a T has no UnmarshalJSON (an enum's "").
func decode[T any](data []byte) (any, error) {
	var v T
	if string(bytes.TrimSpace(data)) == "null" {
		return nil, fmt.Errorf("want a %T, got null", v)
	}
	if err := unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}
