package main

import (
	"fmt"
	"strings"

	"github.com/hookwire/hookwire/core/install"
)

// installWarm writes the warm form (install --warm): hookwire's MCP server
// argv where the agent reads its servers for t's scope, and an mcp_tool
// hook per event into t's settings.
func installWarm(e env, st *install.State, o *installOptions, t install.Target, argv []string, h install.Hook, events []string, dryRun bool) int {
	server, err := serverTarget(o, t)
	if err != nil {
		return e.fail(exitUsage, "install", err)
	}
	changes, err := st.InstallWarm(t, server, argv, h, events, dryRun)
	for _, ch := range changes {
		printNotes(e, ch)
	}
	if err != nil {
		return e.fail(exitFail, "install", err)
	}
	written := false
	for _, ch := range changes {
		if !ch.Changed() {
			fmt.Fprintf(e.stdout, "install: nothing to change in %s\n", ch.File)
			continue
		}
		written = true
		if dryRun {
			fmt.Fprint(e.stdout, ch.Diff())
			continue
		}
		if ch.Linked {
			fmt.Fprintf(e.stdout, "%s is a link: wrote its target %s\n", ch.File, ch.Target)
		}
		switch {
		case ch.NewBackup:
			fmt.Fprintf(e.stdout, "kept %s as it was in %s\n", ch.File, ch.Backup)
		case ch.Backup != "":
			fmt.Fprintf(e.stdout, "%s as it was before hookwire's first install is kept in %s\n", ch.File, ch.Backup)
		}
	}
	if !written || dryRun {
		return exitOK
	}
	hooks := changes[1]
	fmt.Fprintf(e.stdout, "installed hookwire's MCP server into %s: %s\n", server.File, strings.Join(argv, " "))
	if len(hooks.Events) > 0 {
		fmt.Fprintf(e.stdout, "installed its mcp_tool hooks into %s for %s\n", t.File, strings.Join(hooks.Events, ", "))
	}
	if len(hooks.Kept) > 0 {
		fmt.Fprintf(e.stdout, "already there for %s\n", strings.Join(hooks.Kept, ", "))
	}
	fmt.Fprintf(e.stdout, "%s starts the server with a session: start a new one. Check it with: hookwire doctor %s\n", t.Agent.Name, t.Agent.Name)
	for _, c := range install.Caveats(t.Agent, t.Scope, events) {
		fmt.Fprintf(e.stdout, "note: %s\n", c)
	}
	return exitOK
}

// serverTarget is the file where the agent reads the MCP servers of t's
// hooks (the user's ~/.claude.json, a project's .mcp.json).
func serverTarget(o *installOptions, t install.Target) (install.Target, error) {
	home, err := install.Home()
	if err != nil {
		return install.Target{}, fmt.Errorf("no home folder: set HOME (%v)", err)
	}
	file, err := t.Agent.ServerFile(t.Scope, home, o.dir)
	if err != nil {
		return install.Target{}, err
	}
	return install.Target{Agent: t.Agent, Scope: t.Scope, File: file, Project: o.dir}, nil
}

// warmServer takes out hookwire's MCP server that install --warm wrote for
// t's scope (none for an agent without the warm form, or when uninstall
// names one COMMAND).
func warmServer(st *install.State, o *installOptions, t install.Target, command string, dryRun bool) (install.Change, error) {
	if !t.Agent.MCPTool.Installs() || command != "" {
		return install.Change{}, nil
	}
	server, err := serverTarget(o, t)
	if err != nil {
		return install.Change{}, err
	}
	return st.UninstallServer(server, dryRun)
}
