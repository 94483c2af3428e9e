// Command hookwire is the reference host of the hookwire protocol: it plays
// scripted agent turns with hooks, validates messages and wire traces
// against the schema, and prints the schema.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hookwire/hookwire/core/internal/cli"
)

const usage = `hookwire runs agent hooks: the reference host of the hookwire protocol.

Usage:
  hookwire run [flags] SCENARIO       play a scripted agent turn with hooks and print a transcript
  hookwire validate [flags] FILE...   check messages, test vectors or wire traces against the schema
  hookwire schema                     print the protocol's JSON Schema
  hookwire conformance [flags] -- COMMAND [ARGS...]
                                      check that a hook speaks the protocol correctly
  hookwire skill-hooks [flags] SKILLS_DIR
                                      run the prompt hooks of skills as a hook process
  hookwire call [flags] -- COMMAND [ARGS...] METHOD [PARAMS]
                                      send a hook one request and check its reply
  hookwire tap [flags] -- COMMAND [ARGS...]
                                      stand in for a hook command and record its wire
  hookwire replay [flags] RECORDING -- COMMAND [ARGS...]
                                      replay a recording to a hook and compare its replies
  hookwire inspect [--port N] [--open] [--allow COMMAND]... [RECORDING...]
                                      see every session's calls live on a local web page
  hookwire mcp [flags] -- COMMAND [ARGS...]
                                      serve a hook's plugin tools as an MCP server on stdio
  hookwire bridge [flags] AGENT -- COMMAND [ARGS...]
                                      run a hook as a Claude Code or Gemini CLI command hook
  hookwire init --lang python|typescript|go DIR
                                      write a new hook project: a plugin tool, a guard, its tests
  hookwire install [flags] AGENT -- COMMAND [ARGS...]
                                      write a hook into an agent's own settings, through the bridge
  hookwire uninstall [flags] AGENT [-- COMMAND [ARGS...]]
                                      take out of an agent's settings what install wrote
  hookwire doctor [flags] [AGENT]     check the hooks installed in each agent's settings, with fixes
  hookwire audit verify [FILE]        check that no record of the audit log of hook decisions was edited
  hookwire policy FILE                run rules in CEL, a guard with no code, as a hook
  hookwire policy test FILE           run the cases a policy file holds

Run "hookwire COMMAND --help" for the flags of a command,
"hookwire --version" for the version.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = cli.ExitOK
	exitFail  = cli.ExitFail
	exitUsage = cli.ExitUsage
)

type command struct {
	name, args, summary string
	flags               func(*flag.FlagSet) func(args []string, env env) int
}

// env is what a command may touch, so that tests can run it in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// fail prints one line on stderr and returns code.
func (e env) fail(code int, cmd string, err error) int {
	fmt.Fprintf(e.stderr, "hookwire %s: %v\n", cmd, err)
	return code
}

var commands = []command{runCommand, validateCommand, schemaCommand, conformanceCommand, skillHooksCommand, mcpCommand, bridgeCommand, callCommand, tapCommand, replayCommand, inspectCommand, initCommand, installCommand, uninstallCommand, doctorCommand, auditCommand, policyCommand}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{stdin, stdout, stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			return run([]string{args[1], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	case "-version", "--version", "version":
		fmt.Fprintf(stdout, "hookwire %s\n", version)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], e)
		}
	}
	fmt.Fprintf(stderr, "hookwire: unknown command %q (commands: run, validate, schema, conformance, skill-hooks, mcp, bridge, call, tap, replay, inspect, init, install, uninstall, doctor, audit, policy; see hookwire --help)\n", args[0])
	return exitUsage
}

func (c command) run(args []string, e env) int {
	fs := flag.NewFlagSet("hookwire "+c.name, flag.ContinueOnError)
	body := c.flags(fs)
	return cli.Run(fs, "hookwire "+c.name+" "+c.args, c.summary, args, e.stdout, e.stderr, func(args []string) int { return body(args, e) })
}
