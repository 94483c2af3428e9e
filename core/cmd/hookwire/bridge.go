package main

import (
	"flag"

	"github.com/hookwire/hookwire/core/bridge"
)

var bridgeCommand = command{
	name:    "bridge",
	args:    bridge.Args,
	summary: bridge.Summary + "\n\nhookwire-bridge is this command alone, in a program that starts faster.",
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		run := bridge.Command(fs, exportTelemetry, "bridge")
		return func(args []string, e env) int { return run(args, e.stdin, e.stdout, e.stderr) }
	},
}
