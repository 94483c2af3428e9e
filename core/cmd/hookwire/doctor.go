package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/hookwire/hookwire/core/install"
)

var doctorCommand = command{
	name: "doctor",
	args: "[--dir DIR] [--start-hooks] [AGENT]",
	summary: `Finds each configuration file of AGENT, or of every agent hookwire installs
into (` + agentNames() + `): the user's under $HOME,
the project's and the local one under --dir. Lists the hooks run through
hookwire-bridge, and checks each: the bridge resolves; the agent loads the
hook's file here (its folder or project trust, and ways of running it that
load no project hooks); each timeout
is in the agent's unit and above the bridge's deadline (else the agent stops
the bridge first, and a guarded call runs); the agent's own switches that
turn hooks off (Claude Code's disableAllHooks, Gemini CLI's
hooksConfig.enabled and hooksConfig.disabled, and their like) as
its files set them. Files are read within bounds (size, nesting); a file the
agent would read otherwise than hookwire (a key given twice, a config.toml
that does not parse) is a problem.

doctor runs nothing a configuration file names: a project's files may come
from a cloned repository. Each hook says it was not started, and how to
check it. --start-hooks starts each hook the agent itself would run (never
one whose bridge is missing, nor a project's hook in a folder the agent does
not trust), bounded in time and output, and runs the conformance suite on it
as the agent's host: a failure is a problem, and what the agent does not
honour of its replies (tools added in before_llm, respond) is a note.

Prints each problem with its fix, and exits 1 when a hook would not run (for
AGENT: also when none is installed).`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		dir := fs.String("dir", "", "the project's `folder` (default: the working folder)")
		startHooks := fs.Bool("start-hooks", false, "start each hook the agent would run, and run the conformance suite on it (it runs the hook's code)")
		return func(args []string, e env) int {
			names := slices.Sorted(maps.Keys(install.Agents))
			switch {
			case len(args) > 1:
				return e.fail(exitUsage, "doctor", fmt.Errorf("one agent at most (known: %s)", agentNames()))
			case len(args) == 1:
				if _, ok := install.Agents[args[0]]; !ok {
					return e.fail(exitUsage, "doctor", fmt.Errorf("unknown agent %q (known: %s)", args[0], agentNames()))
				}
				names = args
			}
			if *dir == "" {
				wd, err := os.Getwd()
				if err != nil {
					return e.fail(exitFail, "doctor", err)
				}
				*dir = wd
			}
			home, err := install.Home()
			if err != nil {
				return e.fail(exitUsage, "doctor", fmt.Errorf("no home folder: set HOME (%v)", err))
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			code := exitOK
			checked := map[string]install.HookCheck{} // a hook in several agents starts once
			var looked []string                       // the files of agents with none, said when no agent has one
			printed := 0
			for _, name := range names {
				r := install.Doctor(ctx, install.Agents[name], home, *dir, install.DoctorOptions{StartHooks: *startHooks, Checked: checked})
				if len(args) == 0 && len(r.Files) == 0 {
					looked = append(looked, r.Looked...)
					continue // an agent this user does not have
				}
				printed++
				r.Write(e.stdout)
				if !r.OK() || (len(args) == 1 && len(r.Hooks) == 0) {
					code = exitFail
				}
			}
			if printed == 0 {
				fmt.Fprintf(e.stdout, "no agent's hooks file here; looked for:\n  %s\n", strings.Join(looked, "\n  "))
			}
			return code
		}
	},
}
