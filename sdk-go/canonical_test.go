package hookwire

import (
	"encoding/json"
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
