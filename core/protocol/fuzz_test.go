package protocol_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/hookwire/hookwire/core/internal/vectors"
	"github.com/hookwire/hookwire/core/internal/wirecheck"
	"github.com/hookwire/hookwire/core/protocol"
)

// The fuzz targets below are differential: whatever the codec accepts,
// encoding/json accepts too, and what the codec keeps of it, encoded
// again, reads as the same value. Their seeds are the shared vectors of
// schema/testdata. `go tool mage fuzz` runs them for minutes, `go tool
// mage ci` for seconds; a failing input found once is kept under
// testdata/fuzz and runs with every go test.

// wireTypes are the protocol's struct types, in name order.
func wireTypes() []reflect.Type {
	byName := typesByName()
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range byName {
			if !yield(n) {
				return
			}
		}
	})
	types := make([]reflect.Type, len(names))
	for i, n := range names {
		types[i] = byName[n]
	}
	return types
}

// results are the methods that have a result.
func results() []protocol.MethodInfo {
	var ms []protocol.MethodInfo
	for _, m := range protocol.Methods {
		if !m.Notification {
			ms = append(ms, m)
		}
	}
	return ms
}

// seeds adds every vector's JSON to the corpus, and every line of the
// exchange vectors, each with the value of which that selects its type.
func seeds(f *testing.F, which func(v vectors.Vector) int) {
	all, err := vectors.Load()
	if err != nil {
		f.Fatal(err)
	}
	in, out, err := vectors.ExchangeLines()
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range in {
		f.Add(uint8(max(which(vectors.Vector{Def: "Request"}), 0)), line)
	}
	for _, line := range out {
		f.Add(uint8(max(which(vectors.Vector{Def: "Response"}), 0)), line)
	}
	for _, v := range all {
		for _, data := range []json.RawMessage{v.Message, v.Params, v.Result, v.Value} {
			if data != nil {
				f.Add(uint8(max(which(v), 0)), []byte(data))
			}
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	types := wireTypes()
	seeds(f, func(v vectors.Vector) int {
		name := v.Def
		if m, ok := protocol.Lookup(v.Method); ok && v.Params != nil {
			name = m.Params.Name()
		}
		return slices.IndexFunc(types, func(t reflect.Type) bool { return t.Name() == name })
	})
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		typ := types[int(which)%len(types)]
		v := reflect.New(typ)
		if err := protocol.Unmarshal(data, v.Interface()); err != nil {
			var pe *protocol.PointerError
			if !errors.As(err, &pe) {
				t.Fatalf("%s: the error names no JSON pointer: %v", typ, err)
			}
			return
		}
		sameAfterRoundTrip(t, data, v.Elem().Interface())
	})
}

func FuzzDecodeResult(f *testing.F) {
	methods := results()
	seeds(f, func(v vectors.Vector) int {
		return slices.IndexFunc(methods, func(m protocol.MethodInfo) bool { return m.Name == v.Method })
	})
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		m := methods[int(which)%len(methods)]
		r, err := protocol.DecodeResult(m.Name, data)
		if err != nil {
			return
		}
		if m.Variants != nil && !slices.Contains(m.Actions(), r.(protocol.Variant).ResultAction()) {
			t.Fatalf("%s: decoded as %T, which the method does not allow", m.Name, r)
		}
		sameAfterRoundTrip(t, data, r)
	})
}

// sameAfterRoundTrip checks what a decoder accepted: encoding/json accepts
// it, it encodes to the same value, and that encoding is a fixed point.
func sameAfterRoundTrip(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := wirecheck.Accepted(data); err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	out, err := protocol.Marshal(v)
	if err != nil {
		t.Fatalf("%T: decoded, but does not encode: %v", v, err)
	}
	if err := wirecheck.Same(data, out); err != nil {
		t.Fatalf("%T: %s\nbecame %s\n%v", v, data, out, err)
	}
	again := reflect.New(reflect.TypeOf(v))
	if err := protocol.Unmarshal(out, again.Interface()); err != nil {
		t.Fatalf("%T: its own encoding does not decode: %v\n%s", v, err, out)
	}
	if out2, _ := protocol.Marshal(again.Elem().Interface()); string(out2) != string(out) {
		t.Fatalf("%T: encoded %s, then %s", v, out, out2)
	}
}
