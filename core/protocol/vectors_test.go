package protocol_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/internal/vectors"
	"github.com/hookwire/hookwire/core/protocol"
)

// Every valid vector decodes into its Go type and encodes back to the same
// JSON value: no member lost, none added, no null or empty list turned into
// an absent one. Hosts replace whole objects with what a hook returns, so
// anything a round trip drops is dropped on the wire.
func TestValidVectorsRoundTrip(t *testing.T) {
	all, err := vectors.Load()
	require.NoError(t, err)
	var n int
	for _, v := range all {
		if !v.Valid {
			continue
		}
		n++
		t.Run(v.Name, func(t *testing.T) {
			switch {
			case v.Message != nil:
				assert.JSONEq(t, string(v.Message), string(roundTripMessage(t, v.Message, v.Method)))
			case v.Params != nil:
				assert.JSONEq(t, string(v.Params), string(roundTripParams(t, v.Method, v.Params)))
			case v.Result != nil:
				assert.JSONEq(t, string(v.Result), string(roundTripResult(t, v.Method, v.Result)))
			case v.Def != "":
				typ, ok := typesByName()[v.Def]
				require.True(t, ok, "no protocol type named %s", v.Def)
				assert.JSONEq(t, string(v.Value), string(roundTrip(t, typ, v.Value)))
			default:
				t.Fatal("the vector has none of message, params, result and def")
			}
		})
	}
	require.NotZero(t, n, "no valid vectors in %s", vectors.Dir())
}

func roundTrip(t *testing.T, typ reflect.Type, data []byte) []byte {
	t.Helper()
	p := reflect.New(typ)
	require.NoError(t, protocol.Unmarshal(data, p.Interface()), "decode into %s", typ)
	out, err := protocol.Marshal(p.Elem().Interface())
	require.NoError(t, err, "encode %s", typ)
	return out
}

func lookup(t *testing.T, method string) protocol.MethodInfo {
	t.Helper()
	m, ok := protocol.Lookup(method)
	require.True(t, ok, "unknown method %q", method)
	return m
}

func roundTripParams(t *testing.T, method string, params []byte) []byte {
	t.Helper()
	return roundTrip(t, lookup(t, method).Params, params)
}

func roundTripResult(t *testing.T, method string, result []byte) []byte {
	t.Helper()
	m := lookup(t, method)
	r, err := protocol.DecodeResult(method, result)
	require.NoError(t, err)
	if m.Variants == nil {
		assert.Equal(t, m.Result, reflect.TypeOf(r))
	} else {
		assert.Implements(t, reflect.New(m.Result).Interface(), r)
	}
	out, err := protocol.Marshal(r)
	require.NoError(t, err)
	return out
}

// roundTripMessage decodes the envelope, then its params or result into the
// method's types, and encodes the whole message again from those.
func roundTripMessage(t *testing.T, data []byte, responseTo string) []byte {
	t.Helper()
	var head struct {
		Method *string  `json:"method"`
		ID     *float64 `json:"id"`
	}
	require.NoError(t, json.Unmarshal(data, &head))
	var envelope any
	switch {
	case head.Method == nil:
		var r protocol.Response
		require.NoError(t, protocol.Unmarshal(data, &r))
		if r.Result != nil {
			r.Result = roundTripResult(t, responseTo, r.Result)
		}
		envelope = r
	case head.ID == nil || *head.ID == 0:
		assert.True(t, lookup(t, *head.Method).Notification, "%s is sent without an id, but it is not a notification", *head.Method)
		var n protocol.Notification
		require.NoError(t, protocol.Unmarshal(data, &n))
		n.Params = roundTripParams(t, n.Method, n.Params)
		envelope = n
	default:
		assert.False(t, lookup(t, *head.Method).Notification, "%s is sent with an id, but it is a notification", *head.Method)
		var r protocol.Request
		require.NoError(t, protocol.Unmarshal(data, &r))
		r.Params = roundTripParams(t, r.Method, r.Params)
		envelope = r
	}
	out, err := protocol.Marshal(envelope)
	require.NoError(t, err)
	return out
}

// typesByName finds every named struct type the protocol's messages are
// made of, keyed by the name the schema gives it in $defs.
func typesByName() map[string]reflect.Type {
	found := map[string]reflect.Type{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.PkgPath() != reflect.TypeFor[protocol.Meta]().PkgPath() || found[t.Name()] != nil {
			return
		}
		found[t.Name()] = t
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous { // embedded (Remarks): its members are the outer type's, not a wire type of their own
				for j := range f.Type.NumField() {
					walk(f.Type.Field(j).Type)
				}
				continue
			}
			walk(f.Type)
		}
	}
	for _, t := range []reflect.Type{reflect.TypeFor[protocol.Request](), reflect.TypeFor[protocol.Notification](), reflect.TypeFor[protocol.Response]()} {
		walk(t)
	}
	for _, m := range protocol.Methods {
		walk(m.Params)
		if m.Result != nil {
			walk(m.Result)
		}
		for _, v := range m.Variants {
			walk(reflect.TypeOf(v))
		}
	}
	return found
}
