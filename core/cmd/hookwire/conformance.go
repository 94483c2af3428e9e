package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

var conformanceCommand = command{
	name: "conformance",
	args: "[--json] [--modes LIST] [--timeout DURATION] [--name NAME] [--host picoclaw] [--failure-policy open|closed] [-v] [--exchanges DIR] -- COMMAND [ARGS...]",
	summary: `Starts the hook COMMAND (directly, with no shell) and drives it through the
protocol as a host does: the handshake, each method of the modes it declares,
notifications, an unknown method, lines that are not JSON, 50 concurrent
requests, and the end of its stdin. Prints every check, pass or fail with the
reason, and under a failed check what the hook wrote on stderr meanwhile (a
handler's traceback), and exits 1 when one fails. With --host picoclaw, it also warns of
each behaviour of PicoClaw's host this hook's replies would meet: tools
changed in before_llm reverted, a changed system message restoring the
whole message list, an after_llm modify erasing the names of id-only tool
calls, respond without a result and unknown actions taken as continue, the
reasons of abort_turn and hard_abort dropped (hard_abort rolls the session
back), ` + stageOf(protocol.ModeApprove) + `'s abstain and arguments ignored, reply lines over 1 MiB, and
the stages sent in pairs, with what the hook answers at each. With
--failure-policy open or closed, it also warns, for a guard request
(before_tool, approve_tool) the hook fails, of what a host under that policy
does with the tool call it guards: open runs it, closed blocks it. The checks:
` + checkList() + `

With --exchanges DIR, plays instead each exchange vector of DIR (.txtar files
of lines in and the lines a hook must write back, as in
schema/testdata/exchanges) with the hook, and prints each, pass or fail with
what differs.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		jsonOut := fs.Bool("json", false, "print the report as one JSON object")
		modes := fs.String("modes", "observe,llm,tool,approve", "the modes offered in hook.hello, comma-separated")
		timeout := fs.Duration("timeout", conformance.DefaultTimeout, "deadline of each reply")
		verbose := fs.Bool("v", false, "pass all of the hook's stderr on to stderr, each line as [NAME] line (without it, the report shows only the lines written during a failed check, under it)")
		name := fs.String("name", "", "the hook's name in hook.hello and before its stderr lines (default: the command's base name)")
		hostName := fs.String("host", "reference", "with picoclaw or an agent of hookwire-bridge ("+agentNames()+"), warn of each behaviour of that host the hook's replies would meet")
		exchanges := fs.String("exchanges", "", "play the exchange vectors of `dir` instead of the checks")
		policy := fs.String("failure-policy", "", "the failure `policy`, open or closed: warn, for each guard request (before_tool, approve_tool) the hook fails, of what a host under that policy does with the tool call: open runs it, closed blocks it (as run --failure-policy and the hooks configuration's failure_policy)")
		return func(args []string, e env) int {
			if len(args) == 0 {
				return e.fail(exitUsage, "conformance", errors.New("need the hook's command, after -- (see hookwire conformance --help)"))
			}
			if *name == "" {
				*name = hookName(args)
			}
			cmd := wire.Command{Name: *name, Argv: args}
			for _, m := range strings.Split(*modes, ",") {
				mode := protocol.Mode(strings.TrimSpace(m))
				switch mode {
				case protocol.ModeObserve, protocol.ModeLLM, protocol.ModeTool, protocol.ModeApprove:
					cmd.Modes = append(cmd.Modes, mode)
				default:
					return e.fail(exitUsage, "conformance", fmt.Errorf("--modes: unknown mode %q (known: observe, llm, tool, approve)", m))
				}
			}
			h, err := host.Parse(*hostName)
			if err != nil {
				return e.fail(exitUsage, "conformance", err)
			}
			if *policy != "" && *policy != "open" && *policy != "closed" {
				return e.fail(exitUsage, "conformance", fmt.Errorf("--failure-policy: %q is not open or closed", *policy))
			}
			opts := conformance.Options{Timeout: *timeout, Host: h, FailurePolicy: *policy}
			if *verbose {
				opts.Stderr = &prefixLines{w: e.stderr, prefix: "[" + *name + "] "}
			}
			// Stop the hook on Ctrl-C too: none may outlive the run.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if *exchanges != "" {
				return playExchanges(ctx, *exchanges, cmd, opts, e)
			}
			report, err := conformance.Run(ctx, cmd, opts)
			if err != nil {
				return e.fail(exitFail, "conformance", err)
			}
			return printReport(e, *jsonOut, report)
		}
	},
}

func checkList() string {
	var b strings.Builder
	for _, c := range conformance.Checks {
		fmt.Fprintf(&b, "  %-20s  %s\n", c.Name, c.Rule)
	}
	return strings.TrimRight(b.String(), "\n")
}

// prefixLines writes each whole line it is given with a prefix, as run
// shows a hook's stderr; a last line without its newline is left out.
type prefixLines struct {
	w      io.Writer
	prefix string
	buf    []byte
}

func (p *prefixLines) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		if _, err := fmt.Fprintf(p.w, "%s%s\n", p.prefix, bytes.TrimRight(p.buf[:i], "\r")); err != nil {
			return len(b), err
		}
		p.buf = p.buf[i+1:]
	}
}

// playExchanges plays every exchange vector of dir with the hook.
func playExchanges(ctx context.Context, dir string, cmd wire.Command, opts conformance.Options, e env) int {
	exchanges, err := conformance.LoadExchanges(dir)
	if err != nil {
		return e.fail(exitUsage, "conformance", err)
	}
	code := exitOK
	for _, x := range exchanges {
		if err := x.Run(ctx, cmd, opts); err != nil {
			code = exitFail
			fmt.Fprintf(e.stdout, "FAIL  %s: %s\n      %s\n", x.Name, x.About, strings.ReplaceAll(err.Error(), "\n", "\n      "))
			continue
		}
		fmt.Fprintf(e.stdout, "pass  %s\n", x.Name)
	}
	return code
}

// stageOf names the stage of the request a hook receives under mode (the
// first, for a mode with two), from the method table.
func stageOf(mode protocol.Mode) string {
	for _, m := range protocol.Methods {
		if m.Mode == mode && !m.Notification {
			return strings.TrimPrefix(m.Name, "hook.")
		}
	}
	return ""
}
