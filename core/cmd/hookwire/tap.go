package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/wiretap"
)

var tapCommand = command{
	name: "tap",
	args: "[--out FILE] [--trace] -- COMMAND [ARGS...]",
	summary: `Stands in for a hook command in any host's hooks configuration: starts
COMMAND (directly, with no shell), passes every line between the host and the
hook both ways, unchanged and in order, and appends each to a recording, with
its direction, its time and, on a reply, the latency since its request. It
adds nothing the host or the hook can see: it passes signals on to the hook,
ends when the hook does, and exits as the hook exited. "hookwire replay" plays
a recording back to a hook.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		out := fs.String("out", "", "append the recording to `file`, as JSON Lines")
		trace := fs.Bool("trace", false, "write the wire to stderr, > host to hook, < hook to host")
		return func(args []string, e env) int {
			if len(args) == 0 {
				return e.fail(exitUsage, "tap", errors.New("need the hook's command, after -- (see hookwire tap --help)"))
			}
			t := &wiretap.Tap{Cmd: runtime.Command{Argv: args}, Stderr: e.stderr}
			if *out != "" {
				f, err := os.OpenFile(*out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
				if err != nil {
					return e.fail(exitFail, "tap", err)
				}
				defer f.Close()
				t.Record = wiretap.NewWriter(f)
			}
			if *trace {
				t.Trace = wiretap.Live(e.stderr, wiretap.IsTerminal(e.stderr))
			}
			// Only while an inspector listens: a tap without one keeps its
			// fast path, and its recording shows it later.
			if pub := feed.Listening(feed.Info{Kind: "tap", Command: strings.Join(args, " ")}); pub != nil {
				defer pub.Close()
				t.Trace = teeTrace(t.Trace, pub.Wire)
			}
			signals := make(chan os.Signal, 8)
			signal.Notify(signals, tapSignals...)
			defer signal.Stop(signals)
			t.Signals = signals
			state, err := t.Run(e.stdin, e.stdout)
			if state == nil {
				return e.fail(exitFail, "tap", err)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "hookwire tap: %v\n", err)
			}
			ws, _ := state.Sys().(syscall.WaitStatus)
			if !ws.Signaled() {
				return state.ExitCode()
			}
			// The hook was killed by a signal: so is the tap, when it is
			// the process the host started (not a test running it).
			if e.stdin == os.Stdin {
				dieBy(ws.Signal())
			}
			return 128 + int(ws.Signal())
		}
	},
}
