// Command hookwire-bridge is `hookwire bridge` alone: it runs a hookwire
// hook as a command hook of Claude Code or Gemini CLI. Agents start it for
// every event, so it links the bridge and the runtime and nothing else of
// hookwire, and starts in a fraction of the time the whole CLI takes.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/internal/cli"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Printf("hookwire-bridge %s\n", version)
		return
	}
	fs := flag.NewFlagSet("hookwire-bridge", flag.ContinueOnError)
	run := bridge.Command(fs, nil, nil) // no telemetry, no MCP: see bridge.Command
	os.Exit(cli.Run(fs, "hookwire-bridge "+bridge.Args, bridge.Summary, os.Args[1:], os.Stdout, os.Stderr, func(args []string) int {
		return run(args, os.Stdin, os.Stdout, os.Stderr)
	}))
}
