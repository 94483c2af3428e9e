package protocol_test

import (
	"fmt"

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

	err = protocol.Unmarshal([]byte(`{"role":"user","tool_calls":[{"function":{"name":7}}]}`), &m)
	fmt.Println(err)
	// Output:
	// user hi "en" <nil>
	// {"role":"user","content":"hi","x_lang":"en"}
	// json: cannot unmarshal JSON number into Go string within "/tool_calls/0/function/name"
}
