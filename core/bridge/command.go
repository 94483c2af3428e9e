package bridge

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/bridge/session"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/telemetry/otlpenv"
)

// MaxLogSize caps a session's log (session.MaxLogSize).
const MaxLogSize = session.MaxLogSize

// Args is the bridge's command line, the same for `hookwire bridge` and
// hookwire-bridge.
const Args = "[flags] AGENT -- COMMAND [ARGS...]"

// Summary is the bridge's help, the same for `hookwire bridge` and
// hookwire-bridge.
var Summary = `Runs a hookwire hook as a command hook of AGENT (` + agentNames() + `):
name this command in the agent's settings for each event. The event's JSON
comes on stdin; the decision goes to stdout with the exit code the agent
reads. The first event of a session starts the hook once, behind a server of
that session; later events reach it over a Unix socket in a folder only you
may enter, so the hook keeps its state and answers without starting again.
A session is one agent, session, folder, hook command and set of these
flags: an entry of the same hook with other flags gets a server of its own.
The server stops at the session's end, after --idle with no event (shorter
by default for an agent whose runs may end without a session end), or when
the hook is down for good. The hook's stderr goes to the session's log, in
--dir. A hook that cannot answer (it does not start, crashes, raises, misses
its deadline, is overloaded, the event cannot be read, the server is gone,
the bridge is sent SIGTERM or SIGINT) blocks the events that guard a tool
and lets the others go on. With --failure-policy open, a guard it cannot
answer gets no decision: neither allow nor deny, so the agent's own
permission rules decide, as if no hook were installed. Either way the agent
shows you a message naming the hook, the error, the last lines of its stderr
and the log. After a hook aborts the turn (abort_turn, hard_abort), every
later tool call of that turn is blocked without asking it, naming the abort,
until the agent's next prompt or the end of its turn (name that event for
the hook too). Every event ends within --deadline.`

// WarmServer serves a session whose agent runs the server itself, for the
// whole session, on stdin and stdout (core/bridge/mcptool's Serve).
type WarmServer func(ctx context.Context, opts ServeOptions, stdin io.Reader, stdout, stderr io.Writer) error

// Command defines the bridge's flags on fs and returns the command. self
// is what runs the bridge again, for a session's server: this program's
// arguments before the bridge's own ("bridge" for hookwire, none for
// hookwire-bridge). observe, if set, is given each session's runtime
// (ServeOptions.Observe). warm, if set, is run by --mcp (hookwire links
// the MCP SDK; hookwire-bridge, which must start fast, does not).
func Command(fs *flag.FlagSet, observe Observer, warm WarmServer, self ...string) func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	dir := fs.String("dir", "", "`folder` of the sessions' sockets and logs (default "+DefaultDir()+")")
	idle := fs.Duration("idle", 0, "stop a session's server after this long with no event (default "+DefaultIdle.String()+"; "+shorter((*agents.Agent).IdleTime, DefaultIdle)+")")
	timeout := fs.Duration("timeout", 0, "deadline of each call to the hook (default: the runtime's, 5s, and 60s for approvals)")
	intercept := fs.String("intercept", "", "stages to ask a hook that declares no modes in hook.hello, comma-separated")
	serve := fs.String("serve", "", "run a session's server on this `socket` (the bridge starts it itself)")
	logPath := fs.String("log", "", "with --serve: the session's log `file`, capped at 10 MiB (the one before kept as FILE.1)")
	deadline := fs.Duration("deadline", 0, "the longest one event may take, below the agent's own hook timeout: past it, a tool call is blocked, or gets no decision under --failure-policy open (default "+DefaultDeadline.String()+"; "+shorter((*agents.Agent).EventDeadline, DefaultDeadline)+")")
	policy := fs.String("failure-policy", "closed", "`closed` blocks a tool call when the hook cannot be asked (crash, deadline, overload, bad event); open gives it no decision, and the agent's own permission rules decide")
	envClear := fs.Bool("env-clear", false, "pass the hook none of the agent's environment variables but those --env-passthrough names (API keys stay out)")
	name := fs.String("name", "", "the hook's `name` in messages and the log (default: its script's file name, such as guard.py)")
	envPass := fs.String("env-passthrough", "", "comma-separated `variables` (globs such as LC_*) the hook receives with --env-clear; without it, the only ones it receives")
	mcp := new(bool)
	if warm != nil {
		mcp = fs.Bool("mcp", false, "be the session's server as a stdio MCP server that the agent starts itself, once a session, and asks each event by a tool of its own (Claude Code's mcp_tool hooks: docs/bridge-mcp.md); no process starts per event")
	}
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		fail := func(code int, err error) int {
			fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
			return code
		}
		if len(args) < 2 {
			return fail(cli.ExitUsage, fmt.Errorf("need the agent and the hook's command, after -- (see %s --help)", fs.Name()))
		}
		agent, ok := Agents[args[0]]
		if !ok {
			return fail(cli.ExitUsage, fmt.Errorf("unknown agent %q (known: %s)", args[0], agentNames()))
		}
		var stages []Stage
		for _, s := range strings.Split(*intercept, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			st := Stage(s)
			if !slices.Contains(Stages, st) {
				return fail(cli.ExitUsage, fmt.Errorf("--intercept: unknown stage %q", s))
			}
			stages = append(stages, st)
		}
		if *policy != "open" && *policy != "closed" {
			return fail(cli.ExitUsage, fmt.Errorf("--failure-policy: %q is not open or closed", *policy))
		}
		argv := args[1:]
		var err error
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if *serve != "" || *mcp {
			// The agents of a plugin (agents.Plugin) ask the server as MCP
			// tool calls too: hookwire's plugin is their MCP client.
			if *mcp && agent.Install.MCPTool == nil && agent.Install.Layout != agents.Plugin {
				return fail(cli.ExitUsage, fmt.Errorf("--mcp: %s calls no tool of an MCP server as a hook, nor runs hookwire's plugin", agent.Title))
			}
			proc := runtime.ProcessConfig{Command: argv, TimeoutMS: int(timeout.Milliseconds()), EnvClear: *envClear, EnvPassthrough: cli.List(*envPass)}
			logTo := stderr
			if *logPath != "" {
				capped, err := session.OpenCappedLog(*logPath, MaxLogSize)
				if err != nil {
					return fail(cli.ExitFail, err)
				}
				logTo = capped
			}
			opts := ServeOptions{Agent: agent, Name: *name, Socket: *serve, Log: *logPath, Process: proc, Intercept: stages, Idle: *idle, Logger: slog.New(cli.NewLogHandler(logTo)),
				FailOpen: *policy == "open", Deadline: *deadline, Observe: observe}
			if *mcp {
				err = warm(ctx, opts, stdin, stdout, logTo)
			} else {
				err = Serve(ctx, opts)
			}
			if err != nil {
				return fail(cli.ExitFail, err)
			}
			return cli.ExitOK
		}
		exe, err := os.Executable()
		if err != nil {
			return fail(cli.ExitFail, err)
		}
		program := slices.Concat([]string{exe}, self)
		if observe == nil && otlpenv.Set() {
			program = exporting(program)
		}
		server := func(socket string) []string {
			return serverArgv(fs, program, socket, agent.Name, argv)
		}
		opts := Options{Agent: agent, Dir: *dir, Server: server, StartTimeout: 10 * time.Second, Deadline: *deadline, FailOpen: *policy == "open"}
		return Invoke(ctx, opts, stdin, stdout, stderr)
	}
}

// exporting is the program that runs a session's server that exports
// telemetry, for a program that does not (hookwire-bridge, whose every
// event would pay the OpenTelemetry SDK's start-up): hookwire bridge, by
// the hookwire in the same folder, which ships with it. Without one, the
// server is program itself, and its log says why nothing is exported.
func exporting(program []string) []string {
	cli, err := exec.LookPath(filepath.Join(filepath.Dir(program[0]), "hookwire"))
	if err != nil {
		return program
	}
	return []string{cli, "bridge"}
}

// serverArgv is the command that runs a session's server on socket: the
// program (exe and self), --serve and --log, then every other flag of fs
// with its value, set or not, then the agent and the hook's command. The
// flags are read from fs, not listed here: a flag added later reaches the
// server, and the session's key (SessionOf), without a line of its own.
// --dir is left out: the sockets' folder is in the socket's path already.
func serverArgv(fs *flag.FlagSet, program []string, socket, agent string, argv []string) []string {
	out := slices.Concat(program, []string{"--serve", socket, "--log", strings.TrimSuffix(socket, ".sock") + ".log"})
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Name {
		case "dir", "serve", "log":
		default:
			out = append(out, "--"+f.Name+"="+f.Value.String())
		}
	})
	return slices.Concat(out, []string{agent, "--"}, argv)
}

// shorter names the agents whose setting of a duration differs from its
// default, and their settings: "5m0s for an-agent, 25s for another".
func shorter(setting func(*agents.Agent) time.Duration, fallback time.Duration) string {
	var out []string
	for _, a := range agents.All {
		if d := setting(a); d != fallback {
			out = append(out, d.String()+" for "+a.Name)
		}
	}
	return strings.Join(out, ", ")
}
