package schema_test

import (
	"fmt"

	"github.com/hookwire/hookwire/core/schema"
)

func ExampleValidator_Validate() {
	v, err := schema.NewValidator()
	if err != nil {
		panic(err)
	}
	// A deny_tool reply must say why.
	err = v.Validate([]byte(`{"jsonrpc":"2.0","id":4,"result":{"action":"deny_tool"}}`), "hook.before_tool")
	fmt.Println(err)
	// respond is an action of before_tool only.
	err = v.ValidateResult("hook.after_tool", []byte(`{"action":"respond","result":{"for_llm":"x"}}`))
	fmt.Println(err)
	// Output:
	// /result/reason: required member reason is missing (rule required)
	// /action: action "respond" is not allowed in hook.after_tool (allowed: continue, modify, abort_turn, hard_abort) (rule action)
}
