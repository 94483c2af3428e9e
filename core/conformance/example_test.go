package conformance_test

import (
	"context"
	"fmt"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/wire"
)

// The weather plugin of the source documents, a plain Python script, passes
// every check.
func ExampleRun() {
	report, err := conformance.Run(context.Background(), wire.Command{
		Argv: []string{"python3", "weather_plugin.py"},
		Dir:  "../../examples/weather/script",
	}, conformance.Options{})
	if err != nil {
		panic(err)
	}
	for _, c := range report.Checks {
		fmt.Println(c.Status, c.Check)
	}
	// Output:
	// pass handshake
	// pass replies-valid
	// pass actions-allowed
	// pass missing-members
	// pass notifications-silent
	// pass unknown-method
	// pass malformed-line
	// pass concurrent-50
	// pass stdout-clean
	// pass exit-on-eof
}
