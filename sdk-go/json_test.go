package hookwire

import (
	"encoding/json"
	"reflect"
	"testing"
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
