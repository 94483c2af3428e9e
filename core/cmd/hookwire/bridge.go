package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/runtime"
)

var bridgeCommand = command{
	name: "bridge",
	args: "[flags] AGENT -- COMMAND [ARGS...]",
	summary: `Runs a hookwire hook as a command hook of AGENT (claude-code or gemini-cli):
name this command in the agent's settings for each event. The event's JSON
comes on stdin; the decision goes to stdout with the exit code the agent
reads. The first event of a session starts the hook once, behind a server of
that session; later events reach it over a Unix socket in a folder only you
may enter, so the hook keeps its state and answers without starting again.
The server stops at the session's end, after --idle with no event, or when
the hook is down for good. The hook's stderr goes to the session's log, in
--dir (named in every error). A hook that cannot be asked blocks the events
that guard a tool (exit 2) and lets the others go on (exit 1).`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		dir := fs.String("dir", "", "`folder` of the sessions' sockets and logs (default "+bridge.DefaultDir()+")")
		idle := fs.Duration("idle", bridge.DefaultIdle, "stop a session's server after this long with no event")
		timeout := fs.Duration("timeout", 0, "deadline of each call to the hook (default: the runtime's, 5s, and 60s for approvals)")
		intercept := fs.String("intercept", "", "stages to ask a hook that declares no modes in hook.hello, comma-separated")
		serve := fs.String("serve", "", "run a session's server on this `socket` (the bridge starts it itself)")
		return func(args []string, e env) int {
			if len(args) < 2 {
				return e.fail(exitUsage, "bridge", errors.New("need the agent and the hook's command, after -- (see hookwire bridge --help)"))
			}
			agent, ok := bridge.Agents[args[0]]
			if !ok {
				return e.fail(exitUsage, "bridge", fmt.Errorf("unknown agent %q (known: claude-code, gemini-cli)", args[0]))
			}
			var stages []bridge.Stage
			for _, s := range strings.Split(*intercept, ",") {
				if s = strings.TrimSpace(s); s == "" {
					continue
				}
				st := bridge.Stage(s)
				if !slices.Contains([]bridge.Stage{bridge.BeforeLLM, bridge.AfterLLM, bridge.BeforeTool, bridge.ApproveTool, bridge.AfterTool}, st) {
					return e.fail(exitUsage, "bridge", fmt.Errorf("--intercept: unknown stage %q", s))
				}
				stages = append(stages, st)
			}
			argv := args[1:]
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if *serve != "" {
				proc := runtime.ProcessConfig{Command: argv, TimeoutMS: int(timeout.Milliseconds())}
				logger := slog.New(newLogHandler(e.stderr))
				err := bridge.Serve(ctx, bridge.ServeOptions{Agent: agent, Socket: *serve, Process: proc, Intercept: stages, Idle: *idle, Logger: logger})
				if err != nil {
					return e.fail(exitFail, "bridge", err)
				}
				return exitOK
			}
			self, err := os.Executable()
			if err != nil {
				return e.fail(exitFail, "bridge", err)
			}
			server := func(socket string) []string {
				return append([]string{self, "bridge", "--serve", socket, "--idle", idle.String(), "--timeout", timeout.String(),
					"--intercept", *intercept, agent.Name, "--"}, argv...)
			}
			return bridge.Invoke(ctx, bridge.Options{Agent: agent, Argv: argv, Dir: *dir, Server: server, StartTimeout: 10 * time.Second}, e.stdin, e.stdout, e.stderr)
		}
	},
}
