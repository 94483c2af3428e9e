package protocol

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
)

// Extra holds the members of a JSON object that its Go type does not
// declare. A newer peer may add members; a hook that modifies an object
// and sends it back must not drop them, because hosts replace the whole
// object with what the hook returns.
type Extra map[string]json.RawMessage

type field struct {
	name      string
	key       []byte // the name, quoted, and a colon
	index     int
	omitEmpty bool
	omitZero  bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the JSON members a struct type declares, in field order.
func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var fields []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		key, _ := json.Marshal(name)
		o := strings.Split(opts, ",")
		fields = append(fields, field{name, append(key, ':'), i, slices.Contains(o, "omitempty"), slices.Contains(o, "omitzero")})
	}
	fieldCache.Store(t, fields)
	return fields
}

var (
	extraType  = reflect.TypeFor[Extra]()
	extraIndex sync.Map // reflect.Type -> int
)

// extraOf is the index of the Extra field of a type of this package that
// encodes through marshalObject (see codec.go), or -1 for any other type.
func extraOf(t reflect.Type) int {
	if t.Kind() != reflect.Struct || t.PkgPath() != extraType.PkgPath() {
		return -1
	}
	if i, ok := extraIndex.Load(t); ok {
		return i.(int)
	}
	i := -1
	if f, ok := t.FieldByName("Extra"); ok && f.Type == extraType {
		i = f.Index[0]
	}
	extraIndex.Store(t, i)
	return i
}

// unmarshalObject decodes a JSON object into the struct v points to, matching
// member names exactly, and keeps the members it does not declare in extra.
//
// The objects nested in it are decoded in place too, rather than through
// their UnmarshalJSON: encoding/json checks the bytes it hands an
// UnmarshalJSON, so each level of nesting would go over them once more,
// and a long message history would cost several times its size to decode.
// Values are checked once, by whatever decodes them.
func unmarshalObject(data []byte, v any, extra *Extra) error {
	return decodeObject(data, reflect.ValueOf(v).Elem(), extra)
}

func decodeObject(data []byte, s reflect.Value, extra *Extra) error {
	fields := fieldsOf(s.Type())
	return eachMember(data, func(name string, raw []byte) error {
		i := slices.IndexFunc(fields, func(f field) bool { return f.name == name })
		if i < 0 {
			if !json.Valid(raw) {
				return fmt.Errorf("%s: invalid JSON value", name)
			}
			if *extra == nil {
				*extra = Extra{}
			}
			(*extra)[name] = slices.Clone(raw)
			return nil
		}
		if err := decodeValue(raw, s.Field(fields[i].index)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	})
}

// decodeValue decodes an object, a pointer to one or a list of them in
// place, and anything else with encoding/json. null leaves an object as it
// is and sets a pointer or a list to nil, as encoding/json does.
func decodeValue(raw []byte, v reflect.Value) error {
	t := v.Type()
	if i := extraOf(t); i >= 0 {
		return decodeObject(raw, v, v.Field(i).Addr().Interface().(*Extra))
	}
	if (t.Kind() != reflect.Pointer && t.Kind() != reflect.Slice) || extraOf(t.Elem()) < 0 {
		return json.Unmarshal(raw, v.Addr().Interface())
	}
	if string(raw) == "null" {
		v.SetZero()
		return nil
	}
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return decodeValue(raw, v.Elem())
	}
	var elems [][]byte
	if err := eachElement(raw, func(e []byte) error { elems = append(elems, e); return nil }); err != nil {
		return err
	}
	list := reflect.MakeSlice(t, len(elems), len(elems))
	for i, e := range elems {
		if err := decodeValue(e, list.Index(i)); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	v.Set(list)
	return nil
}

var errSyntax = errors.New("invalid JSON")

// eachMember calls fn with the name and the value of each member of the
// JSON object data, in order; null has none. It checks the punctuation of
// the object: its values are fn's to check.
func eachMember(data []byte, fn func(name string, value []byte) error) error {
	if string(bytes.Trim(data, " \t\r\n")) == "null" {
		return nil
	}
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return fmt.Errorf("%w: want an object", errSyntax)
	}
	return eachItem(data, i, '}', func(item []byte) error {
		end := endOfString(item, 0)
		if end < 0 {
			return fmt.Errorf("%w: want a member name", errSyntax)
		}
		var name string
		if bytes.IndexByte(item[:end], '\\') < 0 {
			name = string(item[1 : end-1])
		} else if err := json.Unmarshal(item[:end], &name); err != nil {
			return err
		}
		colon := skipSpace(item, end)
		if colon == len(item) || item[colon] != ':' {
			return fmt.Errorf("%w: want a colon after %q", errSyntax, name)
		}
		return fn(name, item[skipSpace(item, colon+1):])
	})
}

// eachElement calls fn with each element of the JSON array data, in order.
func eachElement(data []byte, fn func(value []byte) error) error {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '[' {
		return fmt.Errorf("%w: want an array", errSyntax)
	}
	return eachItem(data, i, ']', fn)
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
				i = endOfValue(data, i)
				if i < 0 {
					return errSyntax
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
// or string that starts at data[i], or -1 when data ends first.
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
	}
	for i < len(data) && !delimiter(data[i]) {
		i++
	}
	return i
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

// endOfString is the index just past the string that starts at data[i],
// or -1 when data ends first.
func endOfString(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// marshalObject encodes the struct v, then the members in extra in key order.
func marshalObject(v any, extra Extra) ([]byte, error) {
	var w objectWriter
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	if err := w.object(reflect.ValueOf(v), extra); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// objectWriter writes the objects nested in an object in place, rather
// than through their MarshalJSON: encoding/json checks and compacts what a
// MarshalJSON returns, so each level of nesting would go over its bytes once
// more, and a long message history costs several times its size to encode.
type objectWriter struct {
	buf bytes.Buffer
	enc *json.Encoder // writes into buf
}

func (w *objectWriter) object(s reflect.Value, extra Extra) error {
	w.buf.WriteByte('{')
	first := true
	next := func(key []byte) {
		if !first {
			w.buf.WriteByte(',')
		}
		first = false
		w.buf.Write(key)
	}
	for _, f := range fieldsOf(s.Type()) {
		fv := s.Field(f.index)
		if (f.omitZero && fv.IsZero()) || (f.omitEmpty && isEmpty(fv)) {
			continue
		}
		next(f.key)
		if err := w.value(fv); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		key, _ := json.Marshal(name)
		next(append(key, ':'))
		if err := w.encode(extra[name]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	w.buf.WriteByte('}')
	return nil
}

// value writes an object, a pointer to one or a list of them in place,
// and anything else with encoding/json.
func (w *objectWriter) value(v reflect.Value) error {
	t := v.Type()
	if i := extraOf(t); i >= 0 {
		return w.object(v, v.Field(i).Interface().(Extra))
	}
	switch {
	case (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice) && extraOf(t.Elem()) >= 0:
		if v.IsNil() {
			w.buf.WriteString("null")
			return nil
		}
		if t.Kind() == reflect.Pointer {
			return w.value(v.Elem())
		}
		w.buf.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.value(v.Index(i)); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		w.buf.WriteByte(']')
		return nil
	}
	return w.encode(v.Interface())
}

func (w *objectWriter) encode(x any) error {
	if err := w.enc.Encode(x); err != nil {
		return err
	}
	w.buf.Truncate(w.buf.Len() - 1) // Encode ends with a newline
	return nil
}

// isEmpty is encoding/json's rule for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
