package protocol

import (
	"bytes"
	"encoding/json"
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
		o := strings.Split(opts, ",")
		fields = append(fields, field{name, i, slices.Contains(o, "omitempty"), slices.Contains(o, "omitzero")})
	}
	fieldCache.Store(t, fields)
	return fields
}

// unmarshalObject decodes a JSON object into the struct v points to, matching
// member names exactly, and keeps the members it does not declare in extra.
func unmarshalObject(data []byte, v any, extra *Extra) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	s := reflect.ValueOf(v).Elem()
	fields := fieldsOf(s.Type())
	for name, raw := range members {
		i := slices.IndexFunc(fields, func(f field) bool { return f.name == name })
		if i < 0 {
			if *extra == nil {
				*extra = Extra{}
			}
			(*extra)[name] = raw
			continue
		}
		if err := json.Unmarshal(raw, s.Field(fields[i].index).Addr().Interface()); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// marshalObject encodes the struct v, then the members in extra in key order.
func marshalObject(v any, extra Extra) ([]byte, error) {
	s := reflect.ValueOf(v)
	var buf bytes.Buffer
	buf.WriteByte('{')
	write := func(name string, value any) error {
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		buf.Write(key)
		buf.WriteByte(':')
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(value); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		buf.Truncate(buf.Len() - 1) // Encode ends with a newline
		return nil
	}
	for _, f := range fieldsOf(s.Type()) {
		fv := s.Field(f.index)
		if (f.omitZero && fv.IsZero()) || (f.omitEmpty && isEmpty(fv)) {
			continue
		}
		if err := write(f.name, fv.Interface()); err != nil {
			return nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		if err := write(name, extra[name]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
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
