package hookwire

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// vector is a file of schema/testdata (see its README for the forms).
type vector struct {
	Message json.RawMessage
	Method  string
	Params  json.RawMessage
	Result  json.RawMessage
	Def     string
	Value   json.RawMessage
}

func TestEveryValidVectorDecodesAndReencodesToTheSameJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "schema", "testdata", "valid", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no vectors in schema/testdata/valid")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var v vector
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			var in json.RawMessage
			var decode func([]byte) (any, error)
			switch {
			case v.Message != nil:
				in, decode = v.Message, func(b []byte) (any, error) { return decodeMessage(b, v.Method) }
			case v.Params != nil:
				in, decode = v.Params, func(b []byte) (any, error) { return DecodeParams(v.Method, b) }
			case v.Result != nil:
				in, decode = v.Result, func(b []byte) (any, error) { return DecodeResult(v.Method, b) }
			case v.Def != "":
				if decoders[v.Def] == nil {
					t.Fatalf("no type %s", v.Def)
				}
				in, decode = v.Value, decoders[v.Def]
			default:
				t.Fatal("the vector has none of message, params, result and def")
			}
			typed, err := decode(in)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			out, err := json.Marshal(typed)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if !sameJSON(t, in, out) {
				t.Errorf("re-encoded to a different value:\n got %s\nwant %s", out, in)
			}
		})
	}
}

// decodeMessage decodes a whole message: the envelope, and its params or
// result into the method's type, which the envelope then carries re-encoded.
func decodeMessage(data []byte, method string) (any, error) {
	var head map[string]json.RawMessage
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	id, hasID := head["id"]
	if _, ok := head["method"]; !ok {
		var resp Response
		if err := json.Unmarshal(data, &resp); err != nil || resp.Result == nil {
			return resp, err
		}
		result, err := DecodeResult(method, resp.Result)
		if err != nil {
			return nil, err
		}
		resp.Result, err = json.Marshal(result)
		return resp, err
	}
	if !hasID || string(id) == "0" {
		var n Notification
		if err := json.Unmarshal(data, &n); err != nil {
			return nil, err
		}
		params, err := DecodeParams(n.Method, n.Params)
		if err != nil {
			return nil, err
		}
		n.Params, err = json.Marshal(params)
		return n, err
	}
	var req Request
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, err
	}
	params, err := DecodeParams(req.Method, req.Params)
	if err != nil {
		return nil, err
	}
	req.Params, err = json.Marshal(params)
	return req, err
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func TestUnionDecoderRejectsAnActionTheResultDoesNotAllow(t *testing.T) {
	_, err := DecodeAfterToolResult([]byte(`{"action":"respond","result":{"for_llm":"x"}}`))
	if err == nil || !strings.Contains(err.Error(), `action "respond" is not allowed`) || !strings.Contains(err.Error(), `"modify"`) {
		t.Fatalf("got %v, want an error naming the action and the allowed ones", err)
	}
}

func TestUnionDecoderSelectsTheVariantByAction(t *testing.T) {
	for in, want := range map[string]BeforeToolResult{
		`{}`:                                   Continue{},
		`{"action":"deny_tool","reason":"no"}`: DenyTool{Action: "deny_tool", Reason: "no"},
		`{"action":"hard_abort"}`:              HardAbort{Action: "hard_abort"},
		`{"action":"respond","result":{"for_llm":"ok"}}`: Respond{Action: "respond", Result: ToolResult{ForLLM: "ok"}},
	} {
		got, err := DecodeBeforeToolResult([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", in, got, want)
		}
	}
}

func TestDecodingNamesTheVariantAndTheMissingMember(t *testing.T) {
	_, err := DecodeBeforeToolResult([]byte(`{"action":"deny_tool"}`))
	if err == nil || err.Error() != `DenyTool: "reason" is missing` {
		t.Fatalf("got %v", err)
	}
}

func TestNullIsRejectedWhereTheSchemaDoesNotAllowIt(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(`{"role":"user","content":null}`), &m); err == nil {
		t.Fatal("null content decoded without an error")
	}
	// reasoning_details is any JSON value, null included, as PicoClaw sends it.
	var r LLMResponse
	if err := json.Unmarshal([]byte(`{"reasoning_details":null}`), &r); err != nil || string(r.ReasoningDetails) != "null" {
		t.Fatalf("got %q, %v", r.ReasoningDetails, err)
	}
}

func TestMemberNamesMatchExactly(t *testing.T) {
	var m Meta
	if err := json.Unmarshal([]byte(`{"agentid":"x"}`), &m); err != nil {
		t.Fatal(err)
	}
	if m.AgentID != nil || string(m.Extra["agentid"]) != `"x"` {
		t.Fatalf("agentid was taken for AgentID: %+v", m)
	}
}

func TestEncodingFillsTheActionAndLeavesAbsentListsOut(t *testing.T) {
	for _, c := range []struct {
		value any
		want  string
	}{
		{DenyTool{Reason: "no"}, `{"action":"deny_tool","reason":"no"}`},
		{Continue{}, `{}`},
		{HelloParams{Name: "h", Version: 1}, `{"name":"h","version":1}`},
		{ToolResult{ForLLM: "<b>&</b>", Extra: Extra{"z": json.RawMessage(`1`), "for_llm": json.RawMessage(`"dup"`)}}, `{"for_llm":"<b>&</b>","z":1}`},
	} {
		// json.Marshal escapes <, > and & again; a protocol line need not.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c.value); err != nil {
			t.Fatal(err)
		}
		if got := bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, []byte(c.want)) {
			t.Errorf("%T: got %s, want %s", c.value, got, c.want)
		}
	}
}

func TestMethodTableDecodesParamsAndResultsByMethod(t *testing.T) {
	p, err := DecodeParams(MethodBeforeTool, []byte(`{"tool":"exec","arguments":{"n":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.(BeforeToolParams); got.Tool != "exec" || got.Arguments["n"] != 1.0 {
		t.Fatalf("got %+v", got)
	}
	if _, err := DecodeResult(MethodRuntimeEvent, []byte(`{}`)); err == nil {
		t.Fatal("a notification's result decoded")
	}
	if _, err := DecodeParams("hook.nope", []byte(`{}`)); err == nil {
		t.Fatal("an unknown method's params decoded")
	}
}
