package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/mcphook"
	"github.com/hookwire/hookwire/core/runtime"
)

var mcpCommand = command{
	name: "mcp",
	args: "[--name NAME] [--dir DIR] [--timeout DURATION] [--env-clear] [--env-passthrough VARS] -- COMMAND [ARGS...]",
	summary: `Serves the plugin tools of the hook COMMAND over MCP, on stdin and stdout, for
any host that takes tools from MCP servers (PicoClaw's tools.mcp.servers,
Claude Code, Gemini CLI). The hook runs unchanged: tools/list lists the tools
it adds to an empty request in hook.before_llm, and tools/call sends
hook.before_tool, whose respond is the result. A deny_tool, or a hook that lets
the call through, is an error result that says so. The hook's stderr goes to
stderr; a hook that does not start fails the MCP initialize with its last
stderr line, and one that crashes is restarted. Every request read is
answered, even when stdin closes right after it; a line that is not a
JSON-RPC message is answered with the spec's error and the session goes on.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		name := fs.String("name", "hook", "the hook's `name`, in hook.hello and logs")
		dir := fs.String("dir", "", "the hook's working `directory` (default: this one)")
		timeout := fs.Duration("timeout", runtime.DefaultInterceptorTimeout, "deadline of each call to the hook")
		envClear := fs.Bool("env-clear", false, "pass the hook none of this environment's variables but those --env-passthrough names (API keys stay out)")
		envPass := fs.String("env-passthrough", "", "comma-separated `variables` (globs such as LC_*) the hook receives; without --env-clear, the only ones it receives")
		return func(args []string, e env) int {
			if len(args) == 0 {
				return e.fail(exitUsage, "mcp", errors.New("need the hook's command, after -- (see hookwire mcp --help)"))
			}
			if *timeout <= 0 {
				return e.fail(exitUsage, "mcp", errors.New("--timeout must be positive"))
			}
			pub := feed.Listening(feed.Info{Kind: "mcp", Command: strings.Join(args, " ")})
			defer pub.Close()
			opts := runtime.Options{Logger: slog.New(cli.NewLogHandler(e.stderr))}
			pub.Attach(&opts)
			decisions := audit.FromEnv(opts.Logger)
			defer decisions.Close()
			decisions.Attach(&opts, audit.Source{Host: "hookwire mcp"})
			defer exportTelemetry(&opts, audit.Source{Host: "hookwire mcp"})() // after the runtime's Close
			srv, err := mcphook.New(mcphook.Options{
				Name:    *name,
				Version: version,
				Process: runtime.ProcessConfig{Command: args, Dir: *dir, TimeoutMS: int(timeout.Milliseconds()), EnvClear: *envClear, EnvPassthrough: cli.List(*envPass)},
				Runtime: opts,
			})
			if err != nil {
				return e.fail(exitUsage, "mcp", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			stdio := mcphook.NewStdio(e.stdin, e.stdout, func(line []byte, why string) {
				fmt.Fprintf(e.stderr, "hookwire mcp: refused a line from the client: %s: %.200q\n", why, line)
			})
			if err := srv.Run(ctx, stdio.Transport()); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
				return e.fail(exitFail, "mcp", err)
			}
			return exitOK
		}
	},
}
