package conformance_test

import (
	"context"
	"fmt"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/runtime"
)

// The weather plugin of the source documents, a plain Python script, passes
// every check but one: it answers an unknown method with -32000, where
// JSON-RPC says -32601.
func ExampleRun() {
	report, err := conformance.Run(context.Background(), runtime.Command{
		Argv: []string{"python3", "weather_plugin.py"},
		Dir:  "../../examples/weather/script",
	}, conformance.Options{})
	if err != nil {
		panic(err)
	}
	for _, c := range report.Checks {
		fmt.Println(c.Status, c.Check)
	}
	fmt.Println(report.Result(conformance.UnknownMethod).Reason)
	// Output:
	// pass handshake
	// pass replies-valid
	// pass actions-allowed
	// pass notifications-silent
	// fail unknown-method
	// pass malformed-line
	// pass concurrent-50
	// pass stdout-clean
	// pass exit-on-eof
	// hook.conformance_no_such_method was answered with error -32000, not -32601: 'method not found: hook.conformance_no_such_method'
}
