package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/wire"
	"github.com/hookwire/hookwire/core/wiretap"
)

var replayCommand = command{
	name: "replay",
	args: "[--json] [--ignore MEMBERS] [--hook NAME] [--timeout DURATION] [--trace] RECORDING -- COMMAND [ARGS...]",
	summary: `Plays the host's side of RECORDING (from "hookwire tap --out", or "hookwire
run --trace FILE") to the hook COMMAND: the same hello, the same requests and
notifications in the same order, requests that were in flight together sent
together. Compares each reply with the recorded one and prints, per call,
MATCH or DIFF with each member that differs. Exits 0 only when every call
matches, 1 otherwise.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		jsonOut := fs.Bool("json", false, "print the report as one JSON object")
		ignore := fs.String("ignore", "", "members left out of the comparison, comma-separated: a JSON Pointer into the reply (/result/reason) or a member name, at any depth")
		hook := fs.String("hook", "", "the hook to replay, when the recording holds several")
		timeout := fs.Duration("timeout", wiretap.DefaultTimeout, "deadline of each reply")
		trace := fs.Bool("trace", false, "write the wire to stderr, > host to hook, < hook to host")
		return func(args []string, e env) int {
			if len(args) < 2 {
				return e.fail(exitUsage, "replay", errors.New("need a recording, then the hook's command after -- (see hookwire replay --help)"))
			}
			f, err := os.Open(args[0])
			if err != nil {
				return e.fail(exitFail, "replay", err)
			}
			recs, err := wiretap.Read(f)
			f.Close()
			if err != nil {
				return e.fail(exitFail, "replay", fmt.Errorf("%s: %w", args[0], err))
			}
			opts := wiretap.ReplayOptions{Hook: *hook, Timeout: *timeout}
			if *ignore != "" {
				opts.Ignore = strings.Split(*ignore, ",")
			}
			opts.Process.Conn.Logger = slog.New(cli.NewLogHandler(e.stderr))
			if *trace {
				opts.Trace = wiretap.Live(e.stderr, wiretap.IsTerminal(e.stderr))
			}
			// Stop the hook on Ctrl-C too: none may outlive the run.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			report, err := wiretap.Replay(ctx, recs, wire.Command{Argv: args[1:]}, opts)
			if err != nil {
				return e.fail(exitFail, "replay", err)
			}
			return printReport(e, *jsonOut, report)
		}
	},
}

// printReport prints a report as one JSON object, or as text for people;
// the exit status is 1 unless the report is all good.
func printReport(e env, asJSON bool, report interface {
	WriteText(io.Writer) error
	OK() bool
}) int {
	if asJSON {
		b, _ := json.Marshal(report)
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		report.WriteText(e.stdout)
	}
	if !report.OK() {
		return exitFail
	}
	return exitOK
}
