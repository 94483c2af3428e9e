package protocol_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/protocol"
)

// Unmarshal rejects whatever encoding/json rejects, wherever it is.
func TestUnmarshalRejectsWhatIsNotJSON(t *testing.T) {
	for _, bad := range []string{
		``, "  ", " \n", `{`, `}`, `[]`, `"role"`, `nul`, "\vnull",
		`{"role":"user"`, `{"role":"user",}`, `{,"role":"user"}`, `{"role" "user"}`, `{"role":"user"} x`,
		`{"role":}`, `{"role":tru}`, `{"role":"a\x"}`, `{"role":"user","content":"unterminated}`,
		`{"tool_calls":[{"id":"1"]}`, `{"tool_calls":[{"id":"1"},]}`, `{"tool_calls":[,]}`,
		`{"unknown":{"a":}}`, `{"unknown":[1 2]}`, `{"unknown":01}`,
	} {
		var m protocol.Message
		assert.Error(t, protocol.Unmarshal([]byte(bad), &m), "%s", bad)
		assert.Error(t, json.Unmarshal([]byte(bad), &m), "%s", bad)
	}
}

func TestUnmarshalNestedObjects(t *testing.T) {
	data := `{"meta":{"TurnID":"t1","Later":[1,{"x":null}]},"model":"m","messages":[` +
		`{"role":"user","content":"a \"quoted\"\nline"},{"ro\u006ce":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}],` +
		`"tools":[],"options":{"temperature":0},"extra":{"deep":[true]}}`
	var p protocol.BeforeLLMParams
	require.NoError(t, protocol.Unmarshal([]byte(data), &p))
	assert.Equal(t, "t1", *p.Meta.TurnID)
	assert.JSONEq(t, `[1,{"x":null}]`, string(p.Meta.Extra["Later"]))
	assert.Equal(t, "a \"quoted\"\nline", *p.Messages[0].Content)
	assert.Equal(t, "assistant", p.Messages[1].Role, "member names are unescaped")
	assert.Equal(t, "f", p.Messages[1].ToolCalls[0].Function.Name)
	assert.NotNil(t, p.Tools, "an empty list stays a list")
	assert.JSONEq(t, `{"deep":[true]}`, string(p.Extra["extra"]))
	out, err := protocol.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, data, string(out))

	require.NoError(t, protocol.Unmarshal([]byte(`{"meta":null,"messages":null}`), &p))
	assert.Nil(t, p.Meta, "null sets a pointer to nil")
	assert.Nil(t, p.Messages, "null sets a list to nil")
}

// A string cut inside a character, as Python and JavaScript escape it, or
// bytes that are not UTF-8, read as U+FFFD, as encoding/json reads them:
// a hook echoing an LLM's broken text is still heard.
func TestUnmarshalReadsBrokenCharactersAsReplacements(t *testing.T) {
	for _, data := range []string{`{"role":"\ud83d"}`, "{\"role\":\"\xff\"}"} {
		var m, v1 protocol.Message
		require.NoError(t, protocol.Unmarshal([]byte(data), &m), data)
		require.NoError(t, json.Unmarshal([]byte(data), &v1), data)
		assert.Equal(t, "\uFFFD", m.Role, data)
		assert.Equal(t, v1.Role, m.Role, data)
	}
}

// Names match exactly, and a name given twice makes the object unreadable:
// two readers must never disagree on what a message says.
func TestUnmarshalMatchesNamesExactlyAndRejectsDuplicates(t *testing.T) {
	var m protocol.Message
	require.NoError(t, protocol.Unmarshal([]byte(`{"role":"user","Role":"system"}`), &m))
	assert.Equal(t, "user", m.Role)
	assert.JSONEq(t, `"system"`, string(m.Extra["Role"]))
	err := protocol.Unmarshal([]byte(`{"role":"user","content":"a","content":"b"}`), &m)
	var pe *protocol.PointerError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "/content", string(pe.Pointer))
}

// A number of encoding/json, as a decoder with UseNumber leaves in a map,
// is written as the number it holds, not as a string.
func TestMarshalWritesEncodingJSONNumbersAsNumbers(t *testing.T) {
	p := protocol.BeforeLLMParams{Model: "m", Options: map[string]any{"temperature": json.Number("0.7"), "n": json.Number("")}}
	out, err := protocol.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"m","options":{"temperature":0.7,"n":0}}`, string(out))
	p.Options["bad"] = json.Number("{}")
	_, err = protocol.Marshal(p)
	assert.Error(t, err)
}

// A bare continue is decoded without the decoder: the value must be the
// one the decoder makes of it, and of the same answer written otherwise.
func TestABareContinueDecodesAsTheDecoderDecodesIt(t *testing.T) {
	var want protocol.Continue
	require.NoError(t, protocol.Unmarshal([]byte(`{"action":"continue"}`), &want))
	for _, m := range protocol.Methods {
		if m.Variants == nil {
			continue
		}
		for _, data := range []string{`{"action":"continue"}`, `{ "action": "continue" }`} {
			got, err := protocol.DecodeResult(m.Name, []byte(data))
			require.NoError(t, err, m.Name)
			assert.Equal(t, want, got, "%s: %s", m.Name, data)
		}
	}
}
