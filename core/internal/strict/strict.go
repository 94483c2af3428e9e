// Package strict decodes JSON files written by people: like encoding/json,
// except that an unknown key is an error, and every error names the key at
// fault by its path, such as `hooks.processes.audit.intercpt: unknown key`.
package strict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Decode decodes data into the value v points to. Struct fields are matched
// by their json tag names, exactly.
func Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("strict: Decode needs a non-nil pointer")
	}
	if !json.Valid(data) {
		var x any
		return fmt.Errorf("not JSON: %w", json.Unmarshal(data, &x))
	}
	return decode("", data, rv.Elem())
}

var rawType = reflect.TypeFor[json.RawMessage]()

func decode(at string, data []byte, v reflect.Value) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	t := v.Type()
	switch {
	case t == rawType:
		v.SetBytes(bytes.Clone(data))
		return nil
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return decode(at, data, v.Elem())
	case t.Kind() == reflect.Struct:
		members, err := object(at, data)
		if err != nil {
			return err
		}
		fields := map[string]int{}
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" {
				fields[name] = i
			}
		}
		for _, key := range slices.Sorted(maps.Keys(members)) {
			i, ok := fields[key]
			if !ok {
				return fmt.Errorf("%s: unknown key (known: %s)", join(at, key), strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
			}
			if err := decode(join(at, key), members[key], v.Field(i)); err != nil {
				return err
			}
		}
		return nil
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && structured(t.Elem()):
		members, err := object(at, data)
		if err != nil {
			return err
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		for _, key := range slices.Sorted(maps.Keys(members)) {
			e := reflect.New(t.Elem()).Elem()
			if err := decode(join(at, key), members[key], e); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(key), e)
		}
		return nil
	case t.Kind() == reflect.Slice && structured(t.Elem()):
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return fmt.Errorf("%s: want a list", at)
		}
		s := reflect.MakeSlice(t, len(items), len(items))
		for i, item := range items {
			if err := decode(fmt.Sprintf("%s[%d]", at, i), item, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	if err := json.Unmarshal(data, v.Addr().Interface()); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return fmt.Errorf("%s: want %s, got %s", at, describe(t), typeErr.Value)
		}
		return fmt.Errorf("%s: %w", at, err)
	}
	return nil
}

// structured reports whether values of t are objects with known keys.
func structured(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

func object(at string, data []byte) (map[string]json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		if at == "" {
			return nil, errors.New("want a JSON object")
		}
		return nil, fmt.Errorf("%s: want an object", at)
	}
	return members, nil
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(describe(t.Elem()), "a "), "an ") + "s"
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return "an object"
		}
		return "an object of " + strings.TrimPrefix(describe(t.Elem()), "a ") + "s"
	}
	return t.String()
}
