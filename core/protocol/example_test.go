package protocol_test

import (
	"fmt"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
)

// A member the Go type does not declare is kept in Extra and written back;
// names match exactly, and an error names the member at fault.
func ExampleUnmarshal() {
	var m protocol.Message
	err := protocol.Unmarshal([]byte(`{"role":"user","content":"hi","x_lang":"en"}`), &m)
	fmt.Println(m.Role, *m.Content, string(m.Extra["x_lang"]), err)

	out, _ := protocol.Marshal(m)
	fmt.Println(string(out))

	// The error names the JSON Pointer of the fault. (Its wording is the
	// JSON library's, which varies its modal verb on purpose.)
	err = protocol.Unmarshal([]byte(`{"role":"user","tool_calls":[{"function":{"name":7}}]}`), &m)
	fmt.Println(strings.Contains(err.Error(), `"/tool_calls/0/function/name"`))
	// Output:
	// user hi "en" <nil>
	// {"role":"user","content":"hi","x_lang":"en"}
	// true
}
