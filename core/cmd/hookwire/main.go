// Command hookwire is the reference host of the hookwire protocol: it plays
// scripted agent turns with hooks, validates messages and wire traces
// against the schema, and prints the schema.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
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
  hookwire mcp [flags] -- COMMAND [ARGS...]
                                      serve a hook's plugin tools as an MCP server on stdio
  hookwire bridge [flags] AGENT -- COMMAND [ARGS...]
                                      run a hook as a Claude Code or Gemini CLI command hook

Run "hookwire COMMAND --help" for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and found a failure
	exitUsage = 2 // bad flags or arguments
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

var commands = []command{runCommand, validateCommand, schemaCommand, conformanceCommand, skillHooksCommand, mcpCommand, bridgeCommand, callCommand, tapCommand, replayCommand}

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
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], e)
		}
	}
	fmt.Fprintf(stderr, "hookwire: unknown command %q (commands: run, validate, schema, conformance, skill-hooks, mcp, bridge, call, tap, replay; see hookwire --help)\n", args[0])
	return exitUsage
}

func (c command) run(args []string, e env) int {
	fs := flag.NewFlagSet("hookwire "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	body := c.flags(fs)
	// The flag package calls Usage on every error; only --help should print it.
	fs.Usage = func() {}
	help := func() {
		fmt.Fprintf(e.stdout, "Usage: %s\n\n%s\n", strings.TrimSpace("hookwire "+c.name+" "+c.args), c.summary)
		var flags strings.Builder
		fs.SetOutput(&flags)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		if flags.Len() > 0 {
			fmt.Fprintf(e.stdout, "\nFlags:\n%s", flags.String())
		}
	}
	// Flags may come before or after the arguments.
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return exitOK
			}
			return e.fail(exitUsage, c.name, fmt.Errorf("%v (see hookwire %s --help)", err, c.name))
		}
		if fs.NArg() == 0 {
			break
		}
		if i := len(args) - fs.NArg() - 1; i >= 0 && args[i] == "--" { // "--" ends the flags: what follows is arguments only
			rest = append(rest, fs.Args()...)
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return body(rest, e)
}
