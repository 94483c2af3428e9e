package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/config"
	"github.com/hookwire/hookwire/core/inspect"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/transcript"
)

var inspectCommand = command{
	name: "inspect",
	args: "[--port N] [--open] [--allow COMMAND]... [--allow-dir DIR]... [--allow-env NAME]... [RECORDING...]",
	summary: `Serves a web page, on 127.0.0.1 to this user alone, that shows every session
of hookwire run, tap, mcp and hookwire-bridge on this machine live while they
run: each call's request, reply, latency and what the host did with it, a
modify as a diff, the hook's stderr beside the call that wrote it, filters
and a search. Sessions that began before it are shown from the bridge's logs;
RECORDING files (hookwire tap --out, hookwire run --trace FILE) are opened as
sessions, and can be replayed against a hook from the page. A composer sends
one call to a hook, as hookwire call does. The composer and a replay run only
the hook commands named with --allow (repeat it for each; the command's words
split on spaces, as the page splits them): a command sent from the page alone
is refused. The composer runs the hook in the inspector's folder, or in one
named with --allow-dir, and sets for it only the variables named with
--allow-env (never PATH, LD_*, PYTHON*, NODE_*, HOME and the like, which
choose the program or the code it loads). Prints the page's URL, with the token every request must carry,
and serves until Ctrl-C. --open gives the browser a file readable by this user
alone that leads to the page, not the URL: other users may read the opener's
command line, and the token in it.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		port := fs.Int("port", 0, "the TCP `port` on 127.0.0.1 (default: a free one)")
		open := fs.Bool("open", false, "open the page in the browser")
		var allow allowFlag
		fs.Var(&allow, "allow", "a hook `command` the composer and a replay may run, as the page writes it (repeatable)")
		var dirs, envs listFlag
		fs.Var(&dirs, "allow-dir", "a `folder` the composer may run a hook in, besides this one (repeatable)")
		fs.Var(&envs, "allow-env", "the `name` of a variable the composer may set for a hook (repeatable)")
		return func(args []string, e env) int {
			srv, err := inspect.Start(inspect.Options{Port: *port, Allow: allow, AllowDirs: dirs, AllowEnv: envs, Logger: slog.New(cli.NewLogHandler(e.stderr))})
			if err != nil {
				return e.fail(exitFail, "inspect", err)
			}
			defer srv.Close()
			for _, path := range args {
				if _, err := srv.OpenRecording(path); err != nil {
					return e.fail(exitFail, "inspect", err)
				}
			}
			fmt.Fprintf(e.stdout, "hookwire inspect: %s\n", srv.URL())
			if *open {
				// The opener is given a file that leads to the URL, not the
				// URL: its command line is anyone's to read.
				path, err := srv.LaunchFile()
				if err == nil {
					err = openBrowser(path)
				}
				if err != nil {
					fmt.Fprintf(e.stderr, "hookwire inspect: could not open a browser (%v): open the URL above\n", err)
				}
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			<-ctx.Done()
			return exitOK
		}
	},
}

// allowFlag is --allow, repeated: each a command as the page writes it.
type allowFlag [][]string

func (a *allowFlag) String() string { return "" }

func (a *allowFlag) Set(command string) error {
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return errors.New("an empty command")
	}
	*a = append(*a, argv)
	return nil
}

// listFlag is a flag given once for each value.
type listFlag []string

func (l *listFlag) String() string { return "" }

func (l *listFlag) Set(v string) error {
	if v == "" {
		return errors.New("an empty value")
	}
	*l = append(*l, v)
	return nil
}

// openBrowser opens a page, given by its path, in the user's browser.
func openBrowser(path string) error {
	var cmd *exec.Cmd
	switch goruntime.GOOS {
	case "darwin":
		cmd = exec.Command("open", path)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", path)
	default:
		cmd = exec.Command("xdg-open", path)
	}
	if err := cmd.Start(); err != nil {
		return errors.New(cmd.Path + ": " + err.Error())
	}
	go cmd.Wait()
	return nil
}

// publishSteps is an agent's OnStep that also publishes each step, as
// `hookwire run --json` writes it, while an inspector listens.
func publishSteps(pub *feed.Session, next func(agent.Step)) func(agent.Step) {
	tr := transcript.New(stepWriter{pub}, true)
	return func(s agent.Step) {
		next(s)
		if pub.Active() {
			tr.Step(s)
		}
	}
}

// stepWriter publishes each record of a JSON Lines transcript as an event
// named by its type.
type stepWriter struct{ pub *feed.Session }

func (w stepWriter) Write(line []byte) (int, error) {
	var rec struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(line, &rec)
	w.pub.Publish(feed.Item{Type: "event", Name: rec.Type, Data: bytes.TrimSpace(line)})
	return len(line), nil
}

// teeTrace calls both traces; a may be nil.
func teeTrace(a, b func(hook string, out bool, line []byte)) func(hook string, out bool, line []byte) {
	if a == nil {
		return b
	}
	return func(hook string, out bool, line []byte) {
		a(hook, out, line)
		b(hook, out, line)
	}
}

// scenarioName is what the inspector calls a run's scenario: its file,
// with the folder it is in (a scenario is often scenario.json beside its
// hooks).
func scenarioName(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Base(path)
	}
	return filepath.Base(filepath.Dir(abs)) + "/" + filepath.Base(abs)
}

// hookCommands names the hook processes of a configuration and their
// commands, for the inspector's session list.
func hookCommands(cfg config.Config) string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(cfg.Hooks.Processes)) {
		out = append(out, name+": "+strings.Join(cfg.Hooks.Processes[name].Command, " "))
	}
	return strings.Join(out, "; ")
}
