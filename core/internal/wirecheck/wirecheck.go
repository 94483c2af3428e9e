// Package wirecheck holds the properties the fuzz targets of core check
// of a decoder that reads a peer's bytes: it accepts nothing that
// encoding/json rejects, and what it keeps says what the bytes said.
package wirecheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Accepted fails when a decoder accepted data that encoding/json rejects.
func Accepted(data []byte) error {
	if !json.Valid(data) {
		return fmt.Errorf("accepted what encoding/json rejects: %q", data)
	}
	return nil
}

// Same fails when out, what a decoder kept of in and encoded again, says
// something else than in, as encoding/json reads both. A decoder may drop
// what carries nothing: a member that is null, or that it would write as
// zero ("", 0, false, an object of such members), may be absent on the
// other side, and a null may come back as that zero value.
func Same(in, out []byte) error {
	a, err := decode(in)
	if err != nil {
		return fmt.Errorf("in: %w", err)
	}
	b, err := decode(out)
	if err != nil {
		return fmt.Errorf("out: %w", err)
	}
	return same("", a, b)
}

func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number out of float64's range is still a number
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func same(at string, a, b any) error {
	if zero(a) && zero(b) && (a == nil || b == nil) {
		return nil
	}
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: an object became %v", at, b)
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok {
				if zero(av) {
					continue
				}
				return fmt.Errorf("%s/%s: %v was dropped", at, k, av)
			}
			if err := same(at+"/"+k, av, bv); err != nil {
				return err
			}
		}
		for k, bv := range b {
			if _, ok := a[k]; !ok && !zero(bv) {
				return fmt.Errorf("%s/%s: %v was added", at, k, bv)
			}
		}
		return nil
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return fmt.Errorf("%s: %v became %v", at, a, b)
		}
		for i := range a {
			if err := same(at+"/"+strconv.Itoa(i), a[i], b[i]); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		if b, ok := b.(json.Number); ok && sameNumber(a, b) {
			return nil
		}
	default:
		if a == b {
			return nil
		}
	}
	return fmt.Errorf("%s: %v became %v", at, a, b)
}

// sameNumber compares numbers as a decoder into float64 reads them; one
// out of its range can only have been kept as it was written.
func sameNumber(a, b json.Number) bool {
	fa, errA := strconv.ParseFloat(string(a), 64)
	fb, errB := strconv.ParseFloat(string(b), 64)
	if errA == nil && errB == nil {
		return fa == fb
	}
	return a == b
}

// zero is true of null and of what a Go zero value encodes as.
func zero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return err == nil && f == 0
	case map[string]any:
		for _, m := range v {
			if !zero(m) {
				return false
			}
		}
		return true
	}
	return false
}
