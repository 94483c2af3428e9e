package hookwire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// UnmarshalJSON reads nested objects in place, without encoding/json
// checking each level first, so it must reject what is not JSON itself,
// also when it is called directly.
func TestUnmarshalRejectsWhatIsNotJSON(t *testing.T) {
	for _, bad := range []string{
		``, "  ", `{`, `}`, `[]`, `"role"`, `nul`, "\vnull",
		`{"role":"user"`, `{"role":"user",}`, `{,"role":"user"}`, `{"role" "user"}`, `{"role":"user"} x`,
		`{"role":}`, `{"role":tru}`, `{"role":"a\x"}`, `{"role":"user","content":"unterminated}`,
		`{"role":"user","tool_calls":[{"id":"1"]}`, `{"role":"user","tool_calls":[{"id":"1"},]}`,
		`{"role":"user","unknown":{"a":}}`, `{"role":"user","unknown":[1 2]}`, `{"role":"user","unknown":01}`,
		// A closing bracket of the other kind, at every depth: once an endless loop.
		`{"role":"user"]`, `{"role":"user","tool_calls":[{"id":"1"}}}`, `{"role":"user","tool_calls":[{"id":"1"]]}`,
		`{"role":"user","unknown":{"a":[{"b":1]}]}}`, `{]`, `{"role":]`, `]`,
		// A member given twice: the one that is replaced is JSON too.
		`{"role":,"role":"user"}`, `{"role":[},"role":"user"}`, `{"role":"user","":}`,
		"{\"role\":\"user\",\"a\x01\":1}",
	} {
		var m Message
		if m.UnmarshalJSON([]byte(bad)) == nil {
			t.Errorf("UnmarshalJSON accepted %q", bad)
		}
		if json.Unmarshal([]byte(bad), &m) == nil {
			t.Errorf("json.Unmarshal accepted %q", bad)
		}
	}
}

func TestNestedObjectsDecodeAndEncodeInPlace(t *testing.T) {
	data := `{"meta":{"TurnID":"t1","Later":[1,{"x":null}]},"model":"m","messages":[` +
		`{"role":"user","content":"a \"quoted\"\nline <b>"},{"ro\u006ce":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}],` +
		`"tools":[],"options":{"temperature":0},"extra":{"deep":[true]}}`
	var p BeforeLLMParams
	if err := json.Unmarshal([]byte(data), &p); err != nil {
		t.Fatal(err)
	}
	switch {
	case *p.Meta.TurnID != "t1" || string(p.Meta.Extra["Later"]) != `[1,{"x":null}]`:
		t.Errorf("meta: %+v", p.Meta)
	case *p.Messages[0].Content != "a \"quoted\"\nline <b>":
		t.Errorf("content: %q", *p.Messages[0].Content)
	case p.Messages[1].Role != "assistant" || p.Messages[1].ToolCalls[0].Function.Name != "f":
		t.Errorf("member names are unescaped, lists of objects decoded: %+v", p.Messages[1])
	case p.Tools == nil:
		t.Error("an empty list became nil")
	}
	out, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	json.Unmarshal([]byte(data), &want)
	json.Unmarshal(out, &got)
	if !reflect.DeepEqual(want, got) {
		t.Errorf("re-encoded as\n%s\nwant the same value as\n%s", out, data)
	}
}

// The writer and the reader handle strings themselves, the bulk of a
// message; they must agree with encoding/json byte for byte.
func FuzzStringsAsEncodingJSON(f *testing.F) {
	for _, s := range []string{
		"", "plain", `a "quoted" word`, "line\nbreak\r\n\ttab", `back\slash`, "\x00\x01\x1f\x7f",
		"\b\f", "<html> & </html>", "é ü 日本 🙂", "\u2028\u2029", "bad \xff utf-8 \xc3", "\xed\xa0\x80",
		`\u0041 \ud83d\ude42 \/ \b`, `"`, `\`, "\\\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := string(data)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got := appendString(nil, s)
		if !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("appendString(%q) = %s, encoding/json: %s", s, got, want.Bytes())
		}
		if end := endOfString(got, 0); end != len(got) {
			t.Fatalf("endOfString(%s) = %d, want %d", got, end, len(got))
		}
		// What was encoded reads back as encoding/json reads it, and so
		// does any quoted text, escapes and all.
		for _, raw := range [][]byte{got, append(append([]byte(`"`), data...), '"')} {
			var ref string
			refErr := json.Unmarshal(raw, &ref)
			if refErr == nil && !utf8.Valid(raw) {
				ref, refErr = "", errUTF8 // which the codec refuses, unlike encoding/json
			}
			u, ok := unquote(raw)
			if ok && (refErr != nil || u != ref) {
				t.Fatalf("unquote(%s) = %q, encoding/json: %q, %v", raw, u, ref, refErr)
			}
			if !ok && refErr == nil && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
				t.Errorf("unquote(%s) left a plain string to encoding/json", raw)
			}
			var dst string
			if err := decodeInto(raw, &dst); (err == nil) != (refErr == nil) || dst != ref {
				t.Fatalf("decodeInto(%s) = %q, %v; encoding/json: %q, %v", raw, dst, err, ref, refErr)
			}
			if end, refEnd := endOfString(raw, 0), endOfStringStepwise(raw); end != refEnd {
				t.Fatalf("endOfString(%s) = %d, want %d", raw, end, refEnd)
			}
		}
	})
}

// endOfStringStepwise is endOfString written the obvious way.
func endOfStringStepwise(data []byte) int {
	for i := 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

func TestUnquoteTakesTheCommonStringsItself(t *testing.T) {
	for raw, want := range map[string]string{
		`""`:                      "",
		`"plain"`:                 "plain",
		`"a \"b\"\n\\c\/d\te"`:    "a \"b\"\n\\c/d\te",
		`"é 日本 🙂 \r\b\f"`:         "é 日本 🙂 \r\b\f",
		`"ends with backslash\\"`: `ends with backslash\`,
	} {
		if got, ok := unquote([]byte(raw)); !ok || got != want {
			t.Errorf("unquote(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
	for _, raw := range []string{`"\u0041"`, "\"\xff\"", "\"tab\tin\"", `"a" "b"`, `"x\"`, `x`, `"`} {
		if _, ok := unquote([]byte(raw)); ok {
			t.Errorf("unquote(%s) did not leave it to encoding/json", raw)
		}
	}
}
