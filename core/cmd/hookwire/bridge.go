package main

import (
	"context"
	"flag"
	"io"
	"os"
	"runtime"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/bridge/mcptool"
	"github.com/hookwire/hookwire/core/mcphook"
)

var bridgeCommand = command{
	name:    "bridge",
	args:    bridge.Args,
	summary: bridge.Summary + "\n\nWith --mcp, the agent starts this command itself, once a session, as a stdio MCP server, and its hooks call the server's tool instead of starting a command per event (Claude Code's mcp_tool hooks; docs/bridge-mcp.md).\n\nhookwire-bridge is this command alone, in a program that starts faster, without --mcp.",
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		run := bridge.Command(fs, exportTelemetry, serveWarm, "bridge")
		return func(args []string, e env) int { return run(args, e.stdin, e.stdout, e.stderr) }
	},
}

// serveWarm is --mcp: the process is the session's MCP server and does
// nothing else, so it is set up for the latency of one event at a time
// (BENCHMARKS.md, section 8): stdin is read through the runtime's poller
// (mcphook.Polled), and the Go code runs on one P.
func serveWarm(ctx context.Context, opts bridge.ServeOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	defer oneProc()()
	in, done := mcphook.Polled(stdin)
	defer done()
	return mcptool.Serve(ctx, opts, in, stdout, stderr)
}

// oneProc runs the Go code on one P, unless GOMAXPROCS says otherwise, and
// returns what restores the number before. An event is a few tens of
// microseconds of Go work, handed from goroutine to goroutine some seven
// times (the MCP SDK's reader, its dispatcher and handler, the runtime's
// reader of the hook's replies, the audit log's writer): with a second
// P, each hand-off wakes a second thread to take it, a futex and a cold
// core each time, which cost more than the work and take a core from the
// agent and the hook the event waits for. The hook's own process is not affected (the variable is not
// set).
func oneProc() (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	before := runtime.GOMAXPROCS(1)
	return func() { runtime.GOMAXPROCS(before) }
}
