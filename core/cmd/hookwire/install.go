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
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// agentNames are the agents install knows, sorted.
func agentNames() string {
	return strings.Join(agents.Names(), ", ")
}

var installCommand = command{
	name: "install",
	args: "[--scope user|project|local] [--warm] [--events LIST] [--dir DIR] [--bridge PATH] [--name NAME] [--dry-run] AGENT -- COMMAND [ARGS...]",
	summary: `Writes the hook COMMAND into AGENT's own configuration file as a command
hook through hookwire-bridge (AGENT: ` + agentNames() + `).
The file of --scope: user (under $HOME), project (under --dir, shared with
the team) or local (the project's file that is not committed, where the
agent has one). The hook is merged with what is there: other hooks, settings,
their order, comments and line ends stay as they are; an event that has the
hook already is left alone, so a second run changes nothing. --dry-run
prints the change as a diff and writes nothing.

The file is written safely: under a lock of its own (a second hookwire
waits, 10 s at most), through a new file made beside it and renamed over it.
A file that is a link stays one: in the user's scope its target is written;
in a project's scope a link (of the file or of a folder on its way) that
leads out of the project is refused, since a repository could aim it at
your own files. A read-only file is refused. hookwire keeps what it knows of
the file in its state folder, $XDG_STATE_HOME/hookwire (else
~/.local/state/hookwire, made 0700): the file as it was before the first
install (once: a later install keeps that copy; with the file's mode;
install says where), the commands written and what else install added, for
uninstall.

The events are those the hook's modes need, from the bridge's table of the
agent: hookwire starts COMMAND once and reads the modes of its hook.hello
(--events names them instead), plus the event that ends the session. A tool
event gets the agent's match-all matcher; each entry gets a timeout in the
agent's own unit, above the bridge's deadline. The command written works from
any folder: the bridge by its absolute path (next to hookwire, or on PATH,
or --bridge's, whatever its name), then AGENT, --, and COMMAND with its
program and the files it names made absolute (a virtual environment's
python stays that environment's).

OpenCode and its forks load plugins, not hooks settings: for them install
writes hookwire's plugin, one ES module in the agent's plugins folder
(.opencode/plugins/hookwire.js, ~/.config/opencode/plugins/hookwire.js), which
starts "hookwire bridge --mcp AGENT -- COMMAND" by hookwire's absolute path
once per agent process and asks it every event, blocking a guarded call it
cannot answer. A module of that name that is not hookwire's is refused.

--warm (Claude Code) writes the warm form instead: hookwire's MCP server,
"hookwire bridge --mcp AGENT -- COMMAND" by hookwire's absolute path, which
the agent starts once a session, and an mcp_tool hook per event that asks
it, a guard's with onFailure "block" (docs/bridge-mcp.md). The server goes
where the agent reads it: for --scope user into ~/.claude.json (Claude
Code's own file; every other member keeps its bytes), for project and
local into the project's .mcp.json, enabled by enabledMcpjsonServers in the
settings file of the scope. A server named hookwire that install did not
write (a repository may ship one that runs something else) is refused, and
nothing is written. A file has one form: install refuses to add one where
install's other form is (uninstall it first).`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		o := installFlags(fs, "user", "which configuration file: user (under $HOME), project or local (under --dir)")
		events := fs.String("events", "", "the agent's `events` to install the hook for, comma-separated (default: those its modes need)")
		dryRun := fs.Bool("dry-run", false, "print the change as a unified diff, and write nothing")
		bridgePath := fs.String("bridge", "", "the hookwire-bridge `program` to write, of any name (default: next to hookwire, or on PATH)")
		name := fs.String("name", "", "the hook's `name`, where the agent's entries have one (default: its script's)")
		warm := fs.Bool("warm", false, "write the warm form: hookwire's MCP server and an mcp_tool hook per event, no process per event (Claude Code; docs/bridge-mcp.md); --bridge then names the hookwire program")
		return func(args []string, e env) int {
			a, hook, err := o.agent(args, true)
			if err != nil {
				return e.fail(exitUsage, "install", err)
			}
			t, err := o.target(a, install.Scope(*o.scope))
			if err != nil {
				return e.fail(exitUsage, "install", err)
			}
			resolved, err := install.ResolveHook(hook, o.dir)
			if err != nil {
				return e.fail(exitUsage, "install", err)
			}
			if *warm && a.MCPTool == nil {
				return e.fail(exitUsage, "install", fmt.Errorf("--warm: %s calls no tool of an MCP server as a hook: install its command hooks (without --warm)", a.Name))
			}
			if *warm && !a.MCPTool.Installs() {
				return e.fail(exitUsage, "install", fmt.Errorf("--warm: %s: install its command hooks (without --warm)", a.MCPTool.FailsOpen))
			}
			switch {
			case *bridgePath != "":
				if *bridgePath, err = filepath.Abs(*bridgePath); err != nil {
					return e.fail(exitUsage, "install", err)
				}
			case *warm || a.Layout == install.Plugin: // the server is hookwire itself
				if *bridgePath, err = os.Executable(); err != nil {
					return e.fail(exitFail, "install", err)
				}
			default:
				self, _ := os.Executable()
				if *bridgePath, err = install.FindBridge(self); err != nil {
					return e.fail(exitFail, "install", err)
				}
			}
			list := cliList(*events)
			if a.Layout == install.Plugin { // the plugin forwards every event: no hook is started to choose
				if len(list) > 0 {
					return e.fail(exitUsage, "install", fmt.Errorf("--events: hookwire's plugin for %s forwards every event; install it without --events", agents.ByName(a.Name).Title))
				}
				list = slices.Sorted(maps.Keys(agents.ByName(a.Name).Events))
			}
			if len(list) == 0 {
				if list, err = eventsOf(a.Name, resolved, o.dir); err != nil {
					return e.fail(exitFail, "install", err)
				}
			}
			agent := agents.ByName(a.Name)
			for _, ev := range list {
				if _, ok := agent.Events[ev]; !ok {
					return e.fail(exitUsage, "install", fmt.Errorf("--events: %s has no event %q (its events: %s)", a.Name, ev, strings.Join(slices.Sorted(maps.Keys(agent.Events)), ", ")))
				}
			}
			deadline := agent.EventDeadline()
			h := install.Hook{
				Command: install.Command(*bridgePath, a.Name, resolved),
				Name:    cmp.Or(*name, hookName(resolved)),
				Timeout: deadline + 10*time.Second,
			}
			if a.Layout == install.Plugin { // the plugin starts hookwire's warm server
				h.Server = install.WarmServer(*bridgePath, a.Name, resolved)
				h.Command = install.ShellLine(h.Server)
			}
			st, err := install.OpenState(!*dryRun)
			if err != nil {
				return e.fail(exitFail, "install", err)
			}
			if *warm {
				return installWarm(e, st, o, t, install.WarmServer(*bridgePath, a.Name, resolved), h, list, *dryRun)
			}
			ch, err := st.Install(t, h, list, *dryRun)
			printNotes(e, ch)
			if err != nil {
				return e.fail(exitFail, "install", err)
			}
			return reportChange(e, "install", ch, *dryRun, func() {
				fmt.Fprintf(e.stdout, "installed %s into %s for %s: %s\n", h.Name, t.File, strings.Join(ch.Events, ", "), h.Command)
				if len(ch.Kept) > 0 {
					fmt.Fprintf(e.stdout, "already there for %s\n", strings.Join(ch.Kept, ", "))
				}
				switch {
				case ch.NewBackup:
					fmt.Fprintf(e.stdout, "kept %s as it was in %s\n", t.File, ch.Backup)
				case ch.Backup != "":
					fmt.Fprintf(e.stdout, "%s as it was before hookwire's first install is kept in %s\n", t.File, ch.Backup)
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
	summary: `Takes out of AGENT's configuration file the hooks that hookwire install
wrote (the commands its record holds, whatever the bridge's name, and those
that run hookwire-bridge by its absolute path for AGENT), or only those of
COMMAND when it is given, as install resolved it. Without --scope it looks in
each of AGENT's files (user, project, local): where exactly one has such
hooks, it uninstalls there; where several have, it changes nothing and
names them, to pick one with --scope.

The warm form (install --warm) goes too: its mcp_tool hooks, the
enabledMcpjsonServers entry where install added it, and hookwire's MCP
server from the scope's file of servers (~/.claude.json, .mcp.json) where
install wrote it; the user's own servers stay as they are. With COMMAND,
only the command hooks of COMMAND go.

Where the file holds exactly what hookwire's last install wrote, it gets
back the bytes it had before install (a file install made is removed);
else the entries go, with what install added (an event's list or the hooks
section it made and left empty, a flat file's "version": 1), and
everything else stays as it is: a file that existed before install is never
removed. It is written as install writes (lock, new file renamed over it,
a link stays one, a read-only file is refused). --dry-run prints the change
as a unified diff and writes nothing.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		o := installFlags(fs, "", "which configuration file: user (under $HOME), project or local (under --dir) (default: the one of AGENT's files that has hookwire's hooks)")
		dryRun := fs.Bool("dry-run", false, "print the change as a unified diff, and write nothing")
		bridgePath := fs.String("bridge", "", "with COMMAND: the hookwire-bridge `program` install wrote (default: next to hookwire, or on PATH)")
		return func(args []string, e env) int {
			a, hook, err := o.agent(args, false)
			if err != nil {
				return e.fail(exitUsage, "uninstall", err)
			}
			scopes := []install.Scope{install.Scope(*o.scope)}
			if *o.scope == "" {
				scopes = nil
				for _, s := range install.Scopes {
					if _, ok := a.Files[s]; ok {
						scopes = append(scopes, s)
					}
				}
			}
			var targets []install.Target
			for _, s := range scopes {
				t, err := o.target(a, s)
				if err != nil {
					return e.fail(exitUsage, "uninstall", err)
				}
				if !slices.ContainsFunc(targets, func(u install.Target) bool { return u.File == t.File }) { // the user's file is the project's in $HOME
					targets = append(targets, t)
				}
			}
			command := ""
			if len(hook) > 0 {
				resolved, err := install.ResolveHook(hook, o.dir)
				if err != nil {
					return e.fail(exitUsage, "uninstall", err)
				}
				switch self, _ := os.Executable(); {
				case *bridgePath == "" && a.Layout == install.Plugin: // the plugin's server is hookwire itself
					*bridgePath = self
				case *bridgePath == "":
					if *bridgePath, err = install.FindBridge(self); err != nil {
						return e.fail(exitFail, "uninstall", err)
					}
				default:
					if *bridgePath, err = filepath.Abs(*bridgePath); err != nil {
						return e.fail(exitUsage, "uninstall", err)
					}
				}
				command = install.Command(*bridgePath, a.Name, resolved)
				if a.Layout == install.Plugin {
					command = install.ShellLine(install.WarmServer(*bridgePath, a.Name, resolved))
				}
			}
			st, err := install.OpenState(!*dryRun)
			if err != nil {
				return e.fail(exitFail, "uninstall", err)
			}
			if *o.scope == "" {
				var found, servers []install.Target
				var files []string
				for _, t := range targets {
					ch, err := st.Uninstall(t, command, true)
					if err == nil {
						var server install.Change
						server, err = warmServer(st, o, t, command, true)
						if len(server.Events) > 0 && !slices.ContainsFunc(servers, func(s install.Target) bool { return s.Scope != install.User && t.Scope != install.User }) {
							servers = append(servers, t) // the project and local scopes share .mcp.json
						}
					}
					if err != nil {
						return e.fail(exitFail, "uninstall", fmt.Errorf("%v (name the file to change with --scope)", err))
					}
					files = append(files, t.File)
					if len(ch.Events) > 0 {
						found = append(found, t)
					} else {
						printNotes(e, ch) // hooks of hookwire's it leaves, where it says so
					}
				}
				if len(found) == 0 {
					found = servers // a warm form whose hooks are gone already
				}
				switch len(found) {
				case 0:
					fmt.Fprintf(e.stdout, "uninstall: nothing to change: no hook of hookwire's for %s in %s\n", a.Name, strings.Join(files, ", "))
					return exitOK
				case 1:
					targets = found
				default:
					var list strings.Builder
					for _, t := range found {
						fmt.Fprintf(&list, "\n  --scope %-8s %s", t.Scope, t.File)
					}
					return e.fail(exitUsage, "uninstall", fmt.Errorf("hooks of hookwire's for %s are in %d files; nothing changed: name the one with --scope (hookwire uninstall --scope %s %s):%s", a.Name, len(found), found[0].Scope, a.Name, list.String()))
				}
			}
			t := targets[0]
			ch, err := st.Uninstall(t, command, *dryRun)
			printNotes(e, ch)
			if err != nil {
				return e.fail(exitFail, "uninstall", err)
			}
			code := reportChange(e, "uninstall", ch, *dryRun, func() {
				fmt.Fprintf(e.stdout, "uninstalled from %s (%s scope): %s\n", t.File, t.Scope, strings.Join(ch.Events, ", "))
				switch {
				case ch.Restored && ch.After == nil:
					fmt.Fprintf(e.stdout, "removed %s, which install had made\n", t.File)
				case ch.Restored:
					fmt.Fprintf(e.stdout, "%s is as it was before install\n", t.File)
				case ch.After == nil:
					fmt.Fprintf(e.stdout, "removed %s, which install had made and which is left with nothing\n", t.File)
				case ch.Backup != "":
					fmt.Fprintf(e.stdout, "%s as it was before hookwire changed it is kept in %s\n", t.File, ch.Backup)
				}
			})
			server, err := warmServer(st, o, t, command, *dryRun)
			printNotes(e, server)
			if err != nil {
				return e.fail(exitFail, "uninstall", err)
			}
			if len(server.Events) == 0 {
				return code
			}
			return reportChange(e, "uninstall", server, *dryRun, func() {
				fmt.Fprintf(e.stdout, "took hookwire's MCP server out of %s\n", server.File)
				if server.After == nil {
					fmt.Fprintf(e.stdout, "removed %s, which install had made\n", server.File)
				}
			})
		}
	},
}

// installOptions are the flags install and uninstall share.
type installOptions struct {
	scope *string
	dir   string
}

func installFlags(fs *flag.FlagSet, scope, usage string) *installOptions {
	o := &installOptions{scope: fs.String("scope", scope, usage)}
	fs.StringVar(&o.dir, "dir", "", "the project's `folder` (default: the working folder)")
	return o
}

// agent reads AGENT [-- COMMAND...].
func (o *installOptions) agent(args []string, needHook bool) (*install.Agent, []string, error) {
	if len(args) == 0 {
		return nil, nil, fmt.Errorf("need the agent (one of %s)", agentNames())
	}
	a, ok := install.Agents[args[0]]
	if !ok {
		return nil, nil, fmt.Errorf("unknown agent %q (known: %s)", args[0], agentNames())
	}
	hook := args[1:]
	if len(hook) > 0 && hook[0] == "--" {
		hook = hook[1:]
	}
	if needHook && len(hook) == 0 {
		return nil, nil, errors.New("need the hook's command, after -- (hookwire install AGENT -- COMMAND [ARGS...])")
	}
	if o.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil, err
		}
		o.dir = wd
	}
	return a, hook, nil
}

// target is the agent's file of scope.
func (o *installOptions) target(a *install.Agent, scope install.Scope) (install.Target, error) {
	home, err := install.Home()
	if err != nil {
		return install.Target{}, fmt.Errorf("no home folder: set HOME (%v)", err)
	}
	file, err := a.Path(scope, home, o.dir)
	if err != nil {
		return install.Target{}, fmt.Errorf("--scope: %v", err)
	}
	return install.Target{Agent: a, Scope: scope, File: file, Project: o.dir}, nil
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
	return install.Events(agents.ByName(agent), modes), nil
}

// reportChange prints a change State has made: its diff for a dry run, else
// what done says.
func reportChange(e env, cmd string, ch install.Change, dryRun bool, done func()) int {
	if !ch.Changed() {
		fmt.Fprintf(e.stdout, "%s: nothing to change in %s\n", cmd, ch.File)
		return exitOK
	}
	if dryRun {
		fmt.Fprint(e.stdout, ch.Diff())
		return exitOK
	}
	if ch.Linked {
		fmt.Fprintf(e.stdout, "%s is a link: wrote its target %s\n", ch.File, ch.Target)
	}
	done()
	return exitOK
}

// printNotes prints what the user should know of how a change was made.
func printNotes(e env, ch install.Change) {
	for _, n := range ch.Notes {
		fmt.Fprintf(e.stderr, "note: %s\n", n)
	}
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
