package hookwire

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The helper reads canonical when the host sent it, and otherwise works it
// out from the tool's name and arguments, under every agent's names.
func TestCanonicalToolUnderEveryAgentsNames(t *testing.T) {
	for _, tc := range []struct{ params, want string }{
		{`{"tool":"Bash","arguments":{"command":"ls"}}`, `{"kind":"shell","command":"ls"}`},
		{`{"tool":"run_shell_command","arguments":{"command":"ls"}}`, `{"kind":"shell","command":"ls"}`},
		{`{"tool":"exec","arguments":{"command":"ls"}}`, `{"kind":"shell","command":"ls"}`},
		{`{"tool":"read_file","arguments":{"path":"a.txt"}}`, `{"kind":"read","path":"a.txt"}`},
		{`{"tool":"read_file","arguments":{"file_path":"b.txt"}}`, `{"kind":"read","path":"b.txt"}`},
		{`{"tool":"mcp__github__get_issue","arguments":{"number":7}}`, `{"kind":"mcp","server":"github"}`},
		{`{"tool":"Bash"}`, `{"kind":"shell"}`},
		{`{"tool":"no_such_tool"}`, `{"kind":"other"}`},
		{`{"tool":"no_such_tool","canonical":{"kind":"shell","command":"rm -rf /"}}`, `{"kind":"shell","command":"rm -rf /"}`},
	} {
		var call BeforeToolParams
		if err := json.Unmarshal([]byte(tc.params), &call); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(call.CanonicalTool())
		if string(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.params, got, tc.want)
		}
	}
}

// The shared rewrite vectors: the one way to change what a call does puts
// the new command, path, URL or pattern in the argument that holds it for
// the tool, as the Python and TypeScript SDKs do with the same file.
func TestRewriteVectors(t *testing.T) {
	data, err := os.ReadFile("../schema/testdata/rewrite/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors []struct {
		Note   string
		Call   json.RawMessage
		Change map[string]string
		Want   json.RawMessage
		Error  string
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	for _, v := range vectors {
		var call BeforeToolParams
		if err := json.Unmarshal(v.Call, &call); err != nil {
			t.Fatalf("%s: %v", v.Note, err)
		}
		change := CanonicalTool{}
		for member, value := range v.Change {
			switch member {
			case "command":
				change.Command = Ptr(value)
			case "path":
				change.Path = Ptr(value)
			case "url":
				change.URL = Ptr(value)
			case "pattern":
				change.Pattern = Ptr(value)
			}
		}
		received, _ := json.Marshal(call)
		modify, err := call.Rewrite(change)
		if again, _ := json.Marshal(call); string(again) != string(received) {
			t.Errorf("%s: Rewrite changed the call it was given: %s", v.Note, again)
		}
		if v.Error != "" {
			if err == nil || !strings.Contains(err.Error(), v.Error) {
				t.Errorf("%s: got error %v, want one naming %q", v.Note, err, v.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", v.Note, err)
			continue
		}
		got, _ := json.Marshal(modify.Call)
		var gotValue, wantValue any
		_ = json.Unmarshal(got, &gotValue)
		_ = json.Unmarshal(v.Want, &wantValue)
		if !reflect.DeepEqual(gotValue, wantValue) {
			t.Errorf("%s:\n got %s\nwant %s", v.Note, got, v.Want)
		}
	}
}
