package hookwire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Every byte a host sends reaches one of the decoders below. Each fuzz
// target holds them to encoding/json, which is the reference: never hang,
// never panic, accept only what json.Valid accepts, and read what they
// accept as the same JSON value. `go tool mage ci` runs every Fuzz target
// for a few seconds, `go test -fuzz` runs one for longer.

// malformedLines are the lines a broken or hostile peer writes: every one
// must be answered with an error or ignored, and must leave the next line
// read.
func malformedLines() []string {
	deep := func(n int, open, close string) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	return []string{
		`{"jsonrpc":"2.0","id":2]}`, `{"jsonrpc":"2.0","id":2}]`, `[{"jsonrpc":"2.0","id":2}}`,
		`{"jsonrpc":"2.0","id":3,"method":"hook.before_tool","params":{"tool":"t","arguments":{"a":[1}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"hook.before_tool","params":{"tool":"t","arguments":{"a":{"b":[2]]}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"hook.before_tool","params":{"tool":"t","arguments":{"a":{"b":{"c":1]}}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"hook.before_tool","params":{"tool":"t","arguments":[}`,
		`{"jsonrpc":"2.0","id":7,"method":"hook.before_tool","params":{"tool":"t"`, `{"jsonrpc":"2.0","id":8,"meth`, `{`,
		`]`, `}`, `[`, `,`, `:`, ``,
		`{"jsonrpc":"2.0","id":9,"method":"hook.hello","params":` + deep(100000, "[", "]") + `}`,
		deep(100000, "[", "]"), deep(100000, `{"a":`, "}"),
		`{"jsonrpc":"2.0","id":10,"method":"hook.before_tool","params":{"tool":"t, "arguments":{}}}`, `"unterminated`,
		`{"jsonrpc":"2.0","id":11,"method":"hook.before_tool","params":{"tool":"\q","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":12,"method":"hook.before_tool","params":{"tool":"\u12","arguments":{}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"hook.before_tool\",\"params\":{\"tool\":\"\xff\xfe\",\"arguments\":{}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"hook.before_tool\",\"params\":{\"tool\":\"a\x00b\",\"arguments\":{}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"hook.before_tool\",\"params\":{\"tool\":\"t\",\"arguments\":{}}}\x00",
		"{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"hook.before_tool\",\"params\":{\"tool\":\"t\",\"arguments\":{\"a\x01\":1}}}",
		`{"jsonrpc":"2.0","id":17,"method":"hook.before_tool","params":{"tool":"t","arguments":{"n":1e999}}}`,
		`{"jsonrpc":"2.0","id":18,"method":"hook.before_tool","params":{"tool":"t","arguments":{"n":-}}}`,
		`{"jsonrpc":"2.0","id":-,"method":"hook.before_tool","params":{"tool":"t","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1e999,"method":"hook.before_tool","params":{"tool":"t","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":19,"id":20,"method":"hook.before_tool","params":{"tool":"a","tool":"b","arguments":{},"arguments":{"k":1}}}`,
	}
}

// seeds are the messages of schema/testdata, valid and invalid, each as the
// bytes a decoder gets (params, result, value) and as a whole line.
func seeds(f *testing.F) (values, lines [][]byte) {
	files, err := filepath.Glob(filepath.Join("..", "schema", "testdata", "*valid", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no vectors in schema/testdata: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var v vector
		if err := json.Unmarshal(data, &v); err != nil {
			f.Fatal(err)
		}
		switch {
		case v.Message != nil:
			lines = append(lines, v.Message)
		case v.Params != nil:
			values = append(values, v.Params)
			lines = append(lines, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, v.Method, v.Params))
		case v.Result != nil:
			values = append(values, v.Result)
		case v.Value != nil:
			values = append(values, v.Value)
		}
	}
	for _, l := range malformedLines() {
		lines = append(lines, []byte(l))
	}
	return values, lines
}

func FuzzDecodersAcceptOnlyJSONAndReadItAsEncodingJSONDoes(f *testing.F) {
	values, lines := seeds(f)
	for _, v := range slices.Concat(values, lines) {
		f.Add(v)
	}
	names := slices.Sorted(maps.Keys(decoders))
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data) && utf8.Valid(data) // JSON is UTF-8
		for _, name := range names {
			var v any
			var err error
			within(t, name, data, func() { v, err = decoders[name](data) })
			if err != nil {
				continue
			}
			if !valid {
				t.Fatalf("%s accepted %q, which is not JSON", name, data)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: encoding what it decoded from %q: %v", name, data, err)
			}
			if !sameValue(data, out) {
				t.Fatalf("%s read %q as %s", name, data, out)
			}
		}
	})
}

func FuzzServeAnswersEveryRequestAndReadsParamsAsEncodingJSONDoes(f *testing.F) {
	_, lines := seeds(f)
	for _, l := range lines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\r\n") {
			return // one line at a time: the properties below are about it
		}
		h, logs := newTestHook("fuzz")
		received := make(chan []byte, 1)
		record := func(p json.Marshaler) {
			b, err := p.MarshalJSON()
			if err != nil {
				t.Errorf("encoding the params a handler got: %v", err)
			}
			received <- b
		}
		h.OnBeforeLLM(func(_ context.Context, p BeforeLLMParams) (BeforeLLMResult, error) { record(p); return nil, nil })
		h.OnAfterLLM(func(_ context.Context, p AfterLLMParams) (AfterLLMResult, error) { record(p); return nil, nil })
		h.OnBeforeTool(func(_ context.Context, p BeforeToolParams) (BeforeToolResult, error) { record(p); return nil, nil })
		h.OnAfterTool(func(_ context.Context, p AfterToolParams) (AfterToolResult, error) { record(p); return nil, nil })
		h.OnApproveTool(func(_ context.Context, p ApproveToolParams) (ApproveToolResult, error) {
			record(p)
			return ApproveToolResult{Approved: true}, nil
		})
		in := slices.Concat(line, []byte("\n"), []byte(`{"jsonrpc":"2.0","id":"next","method":"hook.hello","params":{}}`+"\n"))
		var out bytes.Buffer
		within(t, "Serve", line, func() {
			if err := h.Serve(context.Background(), bytes.NewReader(in), &out); err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
		if strings.Contains(logs.String(), "panicked") {
			t.Fatalf("decoding %q panicked: %s", line, logs)
		}
		var answeredNext bool
		for _, reply := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var r wireReply
			if err := json.Unmarshal([]byte(reply), &r); err != nil || r.JSONRPC != "2.0" || (r.Result == nil) == (r.Error == nil) {
				t.Fatalf("for %q, a reply line that is not a JSON-RPC reply: %q", line, reply)
			}
			if string(r.ID) == `"next"` {
				answeredNext = true
			} else if r.Result != nil && !(json.Valid(line) && utf8.Valid(line)) {
				t.Fatalf("%q, which is not JSON, got a result: %s", line, reply)
			}
		}
		if !answeredNext {
			t.Fatalf("after %q, the next request got no answer: %s", line, out.String())
		}
		select {
		case got := <-received:
			var msg map[string]json.RawMessage // names exactly as sent
			if !json.Valid(line) || !utf8.Valid(line) || json.Unmarshal(line, &msg) != nil {
				t.Fatalf("a handler ran for %q, which encoding/json does not read", line)
			}
			if !sameValue(msg["params"], got) {
				t.Fatalf("a handler got %s for the params of %q", got, line)
			}
		default:
		}
	})
}

// within runs fn and fails the test if it does not return: a decoder that
// hangs is a bug of its own, not a slow input. The limit is far above any
// input's cost, so that a loaded machine does not trip it.
func within(t *testing.T, what string, input []byte, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return on %q", what, input)
	}
}

// sameValue reports whether a and b are the same JSON value as
// encoding/json reads them. Numbers are equal when they are the same
// float64, as encoding/json reads them into any, or the same number when
// out of its range (1e999 kept as it came).
func sameValue(a, b []byte) bool {
	x, errX := readNumbers(a)
	y, errY := readNumbers(b)
	return errX == nil && errY == nil && equalValues(x, y)
}

func readNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the value")
	}
	return v, nil
}

func equalValues(x, y any) bool {
	switch x := x.(type) {
	case json.Number:
		y, ok := y.(json.Number)
		if !ok {
			return false
		}
		fx, errX := x.Float64()
		fy, errY := y.Float64()
		if errX == nil && errY == nil {
			return fx == fy
		}
		bx, okX := new(big.Float).SetString(string(x))
		by, okY := new(big.Float).SetString(string(y))
		return okX && okY && bx.Cmp(by) == 0
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !equalValues(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x, y)
}
