package main

import (
	"flag"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/bridge/mcptool"
)

var bridgeCommand = command{
	name:    "bridge",
	args:    bridge.Args,
	summary: bridge.Summary + "\n\nWith --mcp, the agent starts this command itself, once a session, as a stdio MCP server, and its hooks call the server's tool instead of starting a command per event (Claude Code's mcp_tool hooks; docs/bridge-mcp.md).\n\nhookwire-bridge is this command alone, in a program that starts faster, without --mcp.",
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		run := bridge.Command(fs, exportTelemetry, mcptool.Serve, "bridge")
		return func(args []string, e env) int { return run(args, e.stdin, e.stdout, e.stderr) }
	},
}
