package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// agentNames are the agents install knows, sorted.
func agentNames() string {
	return strings.Join(slices.Sorted(maps.Keys(install.Agents)), ", ")
}

var installCommand = command{
	name: "install",
	args: "[--scope user|project|local] [--events LIST] [--dir DIR] [--bridge PATH] [--name NAME] [--dry-run] AGENT -- COMMAND [ARGS...]",
	summary: `Writes the hook COMMAND into AGENT's own configuration file as a command
hook through hookwire-bridge (AGENT: ` + agentNames() + `).
The file of --scope: user (under $HOME), project (under --dir, shared with
the team) or local (the project's file that is not committed, where the
agent has one). The hook is merged with what is there: other hooks, settings,
their order and comments stay as they are; an event that has the hook
already is left alone, so a second run changes nothing. The file as it was
is kept in FILE.hookwire-backup. --dry-run prints the change as a diff and
writes nothing.

The events are those the hook's modes need, from the bridge's table of the
agent: hookwire starts COMMAND once and reads the modes of its hook.hello
(--events names them instead), plus the event that ends the session. A tool
event gets the agent's match-all matcher; each entry gets a timeout in the
agent's own unit, above the bridge's deadline. The command written works from
any folder: the bridge by its absolute path (next to hookwire, or on PATH),
then AGENT, --, and COMMAND with its program and the files it names made
absolute (a virtual environment's python stays that environment's).`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		o := installFlags(fs)
		events := fs.String("events", "", "the agent's `events` to install the hook for, comma-separated (default: those its modes need)")
		dryRun := fs.Bool("dry-run", false, "print the change as a unified diff, and write nothing")
		bridgePath := fs.String("bridge", "", "the hookwire-bridge `program` to write (default: next to hookwire, or on PATH)")
		name := fs.String("name", "", "the hook's `name`, where the agent's entries have one (default: its script's)")
		return func(args []string, e env) int {
			a, file, hook, err := o.target(args, true)
			if err != nil {
				return e.fail(exitUsage, "install", err)
			}
			resolved, err := install.ResolveHook(hook, o.dir)
			if err != nil {
				return e.fail(exitUsage, "install", err)
			}
			if *bridgePath == "" {
				self, _ := os.Executable()
				if *bridgePath, err = install.FindBridge(self); err != nil {
					return e.fail(exitFail, "install", err)
				}
			}
			list := cliList(*events)
			if len(list) == 0 {
				if list, err = eventsOf(a.Name, resolved, o.dir); err != nil {
					return e.fail(exitFail, "install", err)
				}
			}
			agent := bridge.Agents[a.Name]
			for _, ev := range list {
				if _, ok := agent.Events[ev]; !ok {
					return e.fail(exitUsage, "install", fmt.Errorf("--events: %s has no event %q (its events: %s)", a.Name, ev, strings.Join(slices.Sorted(maps.Keys(agent.Events)), ", ")))
				}
			}
			deadline := cmp.Or(agent.Deadline, bridge.DefaultDeadline)
			h := install.Hook{
				Command: install.Command(*bridgePath, a.Name, resolved),
				Name:    cmp.Or(*name, hookName(resolved)),
				Timeout: deadline + 10*time.Second,
			}
			ch, err := install.Install(a, file, h, list)
			if err != nil {
				return e.fail(exitFail, "install", err)
			}
			return writeChange(e, "install", ch, *dryRun, func() {
				fmt.Fprintf(e.stdout, "installed %s into %s for %s: %s\n", h.Name, file, strings.Join(ch.Events, ", "), h.Command)
				if len(ch.Kept) > 0 {
					fmt.Fprintf(e.stdout, "already there for %s\n", strings.Join(ch.Kept, ", "))
				}
				fmt.Fprintf(e.stdout, "check it with: hookwire doctor %s\n", a.Name)
				for _, c := range install.Caveats(a, install.Scope(*o.scope), list) { // where it does not run, what does not reach the agent
					fmt.Fprintf(e.stdout, "note: %s\n", c)
				}
			})
		}
	},
}

var uninstallCommand = command{
	name: "uninstall",
	args: "[--scope user|project|local] [--dir DIR] [--dry-run] AGENT [-- COMMAND [ARGS...]]",
	summary: `Takes out of AGENT's configuration file of --scope the hooks that
hookwire install wrote (their command runs hookwire-bridge by its absolute
path for AGENT), or only those of COMMAND when it is given, as install
resolved it. Everything else stays as it is; a section install created and
left empty goes, so the file is as it was before install (a file left empty
is removed). The file as it was is kept in FILE.hookwire-backup. --dry-run
prints the change as a unified diff and writes nothing.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		o := installFlags(fs)
		dryRun := fs.Bool("dry-run", false, "print the change as a unified diff, and write nothing")
		bridgePath := fs.String("bridge", "", "with COMMAND: the hookwire-bridge `program` install wrote (default: next to hookwire, or on PATH)")
		return func(args []string, e env) int {
			a, file, hook, err := o.target(args, false)
			if err != nil {
				return e.fail(exitUsage, "uninstall", err)
			}
			command := ""
			if len(hook) > 0 {
				resolved, err := install.ResolveHook(hook, o.dir)
				if err != nil {
					return e.fail(exitUsage, "uninstall", err)
				}
				if *bridgePath == "" {
					self, _ := os.Executable()
					if *bridgePath, err = install.FindBridge(self); err != nil {
						return e.fail(exitFail, "uninstall", err)
					}
				}
				command = install.Command(*bridgePath, a.Name, resolved)
			}
			ch, err := install.Uninstall(a, file, command)
			if err != nil {
				return e.fail(exitFail, "uninstall", err)
			}
			return writeChange(e, "uninstall", ch, *dryRun, func() {
				fmt.Fprintf(e.stdout, "uninstalled from %s: %s\n", file, strings.Join(ch.Events, ", "))
			})
		}
	},
}

// installOptions are the flags install and uninstall share.
type installOptions struct {
	scope *string
	dir   string
}

func installFlags(fs *flag.FlagSet) *installOptions {
	o := &installOptions{scope: fs.String("scope", "user", "which configuration file: user (under $HOME), project or local (under --dir)")}
	fs.StringVar(&o.dir, "dir", "", "the project's `folder` (default: the working folder)")
	return o
}

// target reads AGENT [-- COMMAND...] and finds the file of the scope.
func (o *installOptions) target(args []string, needHook bool) (*install.Agent, string, []string, error) {
	if len(args) == 0 {
		return nil, "", nil, fmt.Errorf("need the agent (one of %s)", agentNames())
	}
	a, ok := install.Agents[args[0]]
	if !ok {
		return nil, "", nil, fmt.Errorf("unknown agent %q (known: %s)", args[0], agentNames())
	}
	hook := args[1:]
	if len(hook) > 0 && hook[0] == "--" {
		hook = hook[1:]
	}
	if needHook && len(hook) == 0 {
		return nil, "", nil, errors.New("need the hook's command, after -- (hookwire install AGENT -- COMMAND [ARGS...])")
	}
	if o.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, "", nil, err
		}
		o.dir = wd
	}
	home, err := install.Home()
	if err != nil {
		return nil, "", nil, fmt.Errorf("no home folder: set HOME (%v)", err)
	}
	file, err := a.Path(install.Scope(*o.scope), home, o.dir)
	if err != nil {
		return nil, "", nil, fmt.Errorf("--scope: %v", err)
	}
	return a, file, hook, nil
}

// eventsOf starts the hook once, reads the modes of its hello and names
// the agent's events they need.
func eventsOf(agent string, hook []string, dir string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	p, err := wire.Spawn(ctx, wire.Command{Name: hookName(hook), Argv: hook, Dir: dir,
		Modes: []protocol.Mode{protocol.ModeObserve, protocol.ModeLLM, protocol.ModeTool, protocol.ModeApprove}},
		wire.ProcessOptions{Conn: wire.ConnOptions{Logger: slog.New(slog.DiscardHandler)}}) // its warnings of modes it does not serve are for its runs
	if err != nil {
		return nil, fmt.Errorf("the hook did not start, to say its modes: %v (run it with hookwire call -- COMMAND hook.hello, or name the events with --events)", err)
	}
	modes := p.Hello().Modes
	p.Close()
	if len(modes) == 0 {
		return nil, errors.New("the hook declares no modes in its hook.hello: name the events with --events")
	}
	return install.Events(bridge.Agents[agent], modes), nil
}

// writeChange prints a change: its diff for a dry run, else writes it.
func writeChange(e env, cmd string, ch install.Change, dryRun bool, done func()) int {
	if !ch.Changed() {
		fmt.Fprintf(e.stdout, "%s: nothing to change in %s\n", cmd, ch.File)
		return exitOK
	}
	if dryRun {
		fmt.Fprint(e.stdout, ch.Diff())
		return exitOK
	}
	backup, err := ch.Write()
	if err != nil {
		return e.fail(exitFail, cmd, err)
	}
	if backup != "" {
		fmt.Fprintf(e.stdout, "kept the file as it was in %s\n", backup)
	}
	if ch.After == nil {
		fmt.Fprintf(e.stdout, "removed %s, left with nothing\n", ch.File)
	}
	done()
	return exitOK
}

// cliList splits a comma-separated list, leaving out empty items.
func cliList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
