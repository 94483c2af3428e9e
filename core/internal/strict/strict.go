// Package strict decodes JSON files written by people: like encoding/json,
// except that an unknown key, a key given twice and null where an object of
// known keys belongs are errors, every error names the key at fault by its
// path, such as `hooks.processes.audit.intercpt: unknown key`, and a syntax
// error gives its line and column.
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

// Error is a key at fault, by its path, such as "hooks.processes.a.intercpt".
type Error struct {
	// Path is the key's path; "" is the whole document.
	Path string
	// Reason says what is wrong with it.
	Reason string
	// Unknown, for a key that names no field, is the key, and Known the
	// keys the object has: what a suggestion is made from.
	Unknown string
	Known   []string
}

func (e *Error) Error() string {
	s := e.Reason
	if e.Path != "" {
		s = e.Path + ": " + s
	}
	if len(e.Known) > 0 {
		s += " (known: " + strings.Join(e.Known, ", ") + ")"
	}
	return s
}

// Decode decodes data into the value v points to. Struct fields are matched
// by their json tag names, exactly.
func Decode(data []byte, v any) error {
	return (&decoder{}).run(data, v)
}

// DecodeAll is Decode that goes on past a key at fault: it decodes what it
// can and gives every key at fault, each once, in the order of the keys
// (sorted within an object), so that a person fixes a file in one pass. A
// value at fault is left as it was. Data that is not JSON is one error.
func DecodeAll(data []byte, v any) []error {
	d := &decoder{all: true}
	if err := d.run(data, v); err != nil {
		return []error{err}
	}
	return d.errs
}

// decoder stops at the first key at fault, or, when all is set, keeps
// each in errs and goes on.
type decoder struct {
	all  bool
	errs []error
}

// fail records err when the decoder goes on (then nil: the caller goes
// on), or gives it back.
func (d *decoder) fail(err error) error {
	if !d.all {
		return err
	}
	d.errs = append(d.errs, err)
	return nil
}

func (d *decoder) run(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("strict: Decode needs a non-nil pointer")
	}
	if !json.Valid(data) {
		var x any
		err := json.Unmarshal(data, &x)
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			line, col := position(data, syntax.Offset)
			return fmt.Errorf("not JSON: line %d, column %d: %w", line, col, err)
		}
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := d.duplicates("", data); err != nil {
		return err
	}
	return d.decode("", data, rv.Elem())
}

// position is the line and column (in bytes, from 1) of the byte at offset.
func position(data []byte, offset int64) (line, col int) {
	before := data[:min(max(offset, 1)-1, int64(len(data)))]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, len(before) - bytes.LastIndexByte(before, '\n')
}

// duplicates finds a key given twice in one object: encoding/json keeps the
// last silently, and a person who wrote both meant one of them.
func (d *decoder) duplicates(at string, data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || (data[0] != '{' && data[0] != '[') {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // the opening delimiter; the data is valid JSON
	seen := map[string]bool{}
	for i := 0; dec.More(); i++ {
		var where string
		if data[0] == '{' {
			tok, _ := dec.Token()
			key, _ := tok.(string)
			where = join(at, key)
			if seen[key] {
				if err := d.fail(&Error{Path: where, Reason: "the key is given twice"}); err != nil {
					return err
				}
			}
			seen[key] = true
		} else {
			where = fmt.Sprintf("%s[%d]", at, i)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if err := d.duplicates(where, v); err != nil {
			return err
		}
	}
	return nil
}

var rawType = reflect.TypeFor[json.RawMessage]()

func (d *decoder) decode(at string, data []byte, v reflect.Value) error {
	t := v.Type()
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		// null is "absent" for a value, but not for an object of known keys:
		// "hooks": null reads as "no hooks", a silent way to lose a guard.
		if !structured(t) && (t.Kind() != reflect.Map || !structured(t.Elem())) {
			return nil
		}
		if at == "" {
			return d.fail(&Error{Reason: "null: want a JSON object"})
		}
		return d.fail(&Error{Path: at, Reason: "null: want an object"})
	}
	switch {
	case t == rawType:
		v.SetBytes(bytes.Clone(data))
		return nil
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return d.decode(at, data, v.Elem())
	case t.Kind() == reflect.Struct:
		members, err := object(at, data)
		if err != nil {
			return d.fail(err)
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
				if err := d.fail(&Error{Path: join(at, key), Reason: "unknown key", Unknown: key, Known: slices.Sorted(maps.Keys(fields))}); err != nil {
					return err
				}
				continue
			}
			if err := d.decode(join(at, key), members[key], v.Field(i)); err != nil {
				return err
			}
		}
		return nil
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && typed(t.Elem()):
		members, err := object(at, data)
		if err != nil {
			return d.fail(err)
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		for _, key := range slices.Sorted(maps.Keys(members)) {
			e := reflect.New(t.Elem()).Elem()
			if err := d.decode(join(at, key), members[key], e); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(key), e)
		}
		return nil
	case t.Kind() == reflect.Slice && typed(t.Elem()):
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return d.fail(&Error{Path: at, Reason: fmt.Sprintf("want %s, got %s", describe(t), kind(data))})
		}
		s := reflect.MakeSlice(t, len(items), len(items))
		for i, item := range items {
			if err := d.decode(fmt.Sprintf("%s[%d]", at, i), item, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	if err := json.Unmarshal(data, v.Addr().Interface()); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return d.fail(&Error{Path: at, Reason: fmt.Sprintf("want %s, got %s", describe(t), typeErr.Value)})
		}
		return d.fail(&Error{Path: at, Reason: err.Error()})
	}
	return nil
}

// typed reports whether values of t have a type of their own, so that a
// fault in one names it (env.A, command[1]); members of a free-form object
// (any, raw JSON) are not checked.
func typed(t reflect.Type) bool {
	return t.Kind() != reflect.Interface && t != rawType
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
			return nil, &Error{Reason: "want a JSON object"}
		}
		return nil, &Error{Path: at, Reason: "want an object"}
	}
	return members, nil
}

// kind names the JSON type of a value, as encoding/json's errors do.
func kind(data []byte) string {
	switch data = bytes.TrimSpace(data); data[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	}
	return "number"
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
	case reflect.Struct:
		return "an object"
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
