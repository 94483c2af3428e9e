// Package cli is what the hookwire command shares with hookwire-bridge, the
// bridge alone in a program that starts faster: exit codes, the parsing of
// flags placed before or after the arguments, help, and the log printed
// for people.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// The exit codes of every command.
const (
	ExitOK    = 0
	ExitFail  = 1 // the command ran and found a failure
	ExitUsage = 2 // bad flags or arguments
)

// Run parses args with fs, flags before or after the arguments until "--",
// and calls body with the arguments. usage is the command line that --help
// prints above summary and the flags; name is the command in errors.
func Run(fs *flag.FlagSet, usage, summary string, args []string, stdout, stderr io.Writer, body func(args []string) int) int {
	fs.SetOutput(io.Discard)
	// The flag package calls Usage on every error; only --help should print it.
	fs.Usage = func() {}
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help(stdout, usage, summary, fs)
				return ExitOK
			}
			fmt.Fprintf(stderr, "%s: %v (see %s --help)\n", fs.Name(), err, fs.Name())
			return ExitUsage
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
	return body(rest)
}

func help(w io.Writer, usage, summary string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace(usage), summary)
	var flags strings.Builder
	fs.SetOutput(&flags)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	if flags.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", flags.String())
	}
}

// List is a comma-separated flag's values, blanks left out.
func List(flag string) []string {
	var out []string
	for _, v := range strings.Split(flag, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
