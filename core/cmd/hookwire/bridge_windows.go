package main

import (
	"errors"
	"flag"
)

// The bridge keeps hooks alive between an agent's invocations with Unix
// sockets, file locks and sessions, which this Windows build does without.
var bridgeCommand = command{
	name:    "bridge",
	args:    "[flags] AGENT -- COMMAND [ARGS...]",
	summary: "Runs a hook as a Claude Code or Gemini CLI command hook. Not available on Windows.",
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		return func(args []string, e env) int {
			return e.fail(exitFail, "bridge", errors.New("not available on Windows: it needs Unix sockets and file locks"))
		}
	},
}
