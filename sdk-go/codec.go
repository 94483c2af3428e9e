// The JSON codec under the generated MarshalJSON and UnmarshalJSON methods
// of protocol_gen.go: only what differs per type is generated, this file is
// the same for every schema.

package hookwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
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

// checkConst fails unless got is absent (nil) or one of allowed.
func checkConst[T comparable](r *reader, name string, got *T, allowed ...T) {
	if r.err == nil && got != nil && !slices.Contains(allowed, *got) {
		r.fail(name, fmt.Sprintf("is %#v, want one of %#v", *got, allowed))
	}
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
