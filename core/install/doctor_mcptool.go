package install

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
)

// mcpToolGuards finds, in an agent's file, the mcp_tool hooks on events
// that guard a tool without onFailure "block": when their MCP server is
// gone, errs or misses the hook's timeout, Claude Code (2.1.331) lets the
// call run, as if no hook were there (docs/bridge-mcp.md). Where the
// agent's fail open whatever they say (MCPTool.FailsOpen), each is found.
func (a *Agent) mcpToolGuards(doc *document, file string) []Finding {
	mt := a.facts().Install.MCPTool
	if mt == nil {
		return nil
	}
	var out []Finding
	events, _ := hooksObject(doc.find("hooks"))
	for _, event := range events {
		if !a.facts().Events[event].Guard {
			continue
		}
		for _, group := range elements(doc.find("hooks", event)) {
			for _, h := range elements(child(&group, "hooks")) {
				if text(child(&h, "type")) != "mcp_tool" {
					continue
				}
				if mt.FailsOpen != "" {
					out = append(out, problem(fmt.Sprintf("guard with a command hook in its place (hookwire install %s -- HOOK)", a.Name),
						"%s: the mcp_tool hook of %s on %s cannot guard: %s", file, text(child(&h, "server")), event, mt.FailsOpen))
					continue
				}
				if text(child(&h, "onFailure")) != "block" {
					out = append(out, problem(`add "onFailure": "block" to it`,
						"%s: the mcp_tool hook of %s on %s lets the call run when its MCP server cannot answer (gone, an error, past its timeout)",
						file, text(child(&h, "server")), event))
				}
			}
		}
	}
	return out
}

// checkRunner checks what runs the hook h: the bridge its command names,
// or, for the warm form, the MCP server its mcp_tool hooks call
// (checkWarm). It returns the bridge's command as read, what was found,
// and why the agent would not run the hook ("" when it would).
func (a *Agent) checkRunner(h *Installed, docs map[Scope]*document, env map[string]string, home, dir string) (Bridged, []Finding, string) {
	if h.Command == warmMarker {
		return a.checkWarm(h, docs, home, dir)
	}
	if a.Layout == Plugin {
		return a.checkPlugin(h, dir)
	}
	b, _ := ParseCommand(h.Command, env)
	f, there := checkBridge(a, b, dir)
	if !there {
		return b, []Finding{f}, "its bridge is not there"
	}
	return b, []Finding{f}, ""
}

// declared is a declaration of hookwire's MCP server: where, and the
// server's command.
type declared struct {
	scope Scope
	file  string
	argv  []string
	other bool // members beyond type, command and args (env, cwd...)
}

// checkWarm checks the MCP server that the warm form's hooks h call, as
// Claude Code (2.1.331) finds it: a user's from ~/.claude.json (and its
// project's entry for dir, the local scope), a project's from .mcp.json
// only where the settings enable it (enabledMcpjsonServers, or
// enableAllProjectMcpServers; disabledMcpjsonServers wins), the local
// before the project's before the user's. The server is a problem where
// it is not declared for h's scope, a project's is not enabled, or it is
// not hookwire's own (hookwire bridge --mcp for this agent): hooks that
// call it would then block each guarded call, or ask something else. It
// starts nothing.
func (a *Agent) checkWarm(h *Installed, docs map[Scope]*document, home, dir string) (Bridged, []Finding, string) {
	found, out := a.serverDeclarations(home, dir)
	enabled, disabled := a.projectServerEnabled(docs)
	var used *declared
	for _, want := range []Scope{Local, Project, User} {
		for i := range found {
			if found[i].scope == want && (want != Project || (enabled && disabled == "")) && used == nil {
				used = &found[i]
			}
		}
	}
	userFile, _ := a.ServerFile(User, home, dir)
	projectFile, _ := a.ServerFile(Project, home, dir)
	for _, d := range found {
		b, ours := parseServer(d.argv)
		switch {
		case !ours || b.Agent != a.Name:
			out = append(out, problem(fmt.Sprintf("take mcpServers.%s out of %s, then run hookwire install --warm %s -- COMMAND", serverKey[1], d.file, a.Name),
				"%s declares an MCP server %q that is not hookwire's (hookwire bridge --mcp %s): it runs %s, and the hooks would ask it", d.file, serverKey[1], a.Name, ShellLine(d.argv)))
		case d.other:
			out = append(out, note("the MCP server %q of %s sets more than its command (env, cwd...): check them", serverKey[1], d.file))
		}
		if ours && d.scope == Project && !slices.Contains(recordedLines(d.file), ShellLine(d.argv)) {
			out = append(out, note("%s declares the server %q, which hookwire install did not write here: it runs the hook %s; check that it is yours (a repository may ship its own)", d.file, serverKey[1], ShellLine(b.Hook)))
		}
	}
	hasUser := slices.ContainsFunc(found, func(d declared) bool { return d.scope == User })
	hasProject := slices.ContainsFunc(found, func(d declared) bool { return d.scope == Project })
	switch {
	case h.Scope == User && !hasUser:
		out = append(out, problem(fmt.Sprintf("hookwire install --warm --scope user %s -- COMMAND declares it there", a.Name),
			"the mcp_tool hooks of %s call the MCP server %q, which %s does not declare: %s reads a user's servers only there (not the mcpServers of ~/.claude/settings.json), and in a project that does not declare it, it blocks each guarded call", h.File, serverKey[1], userFile, a.facts().Title))
	case used == nil && hasProject && disabled != "":
		out = append(out, problem(fmt.Sprintf("take %q out of disabledMcpjsonServers in the %s settings", serverKey[1], disabled),
			"%s declares the MCP server %q, and the %s settings disable it: each guarded call is blocked", projectFile, serverKey[1], disabled))
	case used == nil && hasProject:
		out = append(out, problem(fmt.Sprintf("add %q to %s in %s (hookwire install --warm --scope %s writes it)", serverKey[1], a.MCPTool.Enable, h.File, h.Scope),
			"%s declares the MCP server %q, but no settings enable it (%s): %s does not start it, and blocks each guarded call", projectFile, serverKey[1], a.MCPTool.Enable, a.facts().Title))
	case used == nil:
		out = append(out, problem(fmt.Sprintf("hookwire install --warm --scope %s %s -- COMMAND declares it", h.Scope, a.Name),
			"the mcp_tool hooks of %s call the MCP server %q, which neither %s nor %s declares: %s blocks each guarded call", h.File, serverKey[1], userFile, projectFile, a.facts().Title))
	}
	if used == nil {
		return Bridged{}, out, "its MCP server is not declared or not enabled"
	}
	b, ours := parseServer(used.argv)
	if !ours || b.Agent != a.Name {
		return Bridged{}, out, "its MCP server is not hookwire's"
	}
	b.Agent = a.Name
	path, err := exec.LookPath(b.Bridge)
	if err != nil {
		out = append(out, problem("install hookwire there, or run hookwire install --warm again to write where it is now", "the MCP server's program %s is not there: %v", b.Bridge, err))
		return b, out, "its MCP server's program is not there"
	}
	return b, append(out, ok("the MCP server %q (%s) is %s bridge --mcp", serverKey[1], used.file, path)), ""
}

// recordedLines are the command lines hookwire's record of file holds.
func recordedLines(file string) []string {
	s, err := OpenState(false)
	if err != nil {
		return nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil
	}
	r, _, _ := s.load(abs)
	if r == nil {
		return nil
	}
	return r.Commands
}

// serverDeclarations are the declarations of hookwire's server where the
// agent reads them: the user's file (and its entry of the project dir,
// the local scope) and the project's.
func (a *Agent) serverDeclarations(home, dir string) ([]declared, []Finding) {
	var found []declared
	var out []Finding
	for _, scope := range []Scope{User, Project} {
		file, err := a.ServerFile(scope, home, dir)
		if err != nil {
			continue
		}
		data, err := read(file)
		if err != nil || data == nil {
			if err != nil {
				out = append(out, problem("check its permissions", "%s cannot be read: %v", file, err))
			}
			continue
		}
		doc, err := decode(data, false)
		if err != nil {
			out = append(out, problem("fix the file: "+a.facts().Title+" reads none of its MCP servers while it does not parse", "%s: %v", file, err))
			continue
		}
		add := func(s Scope, path ...string) {
			if v := doc.find(path...); v != nil {
				names, _ := hooksObject(v)
				found = append(found, declared{s, file, serverArgv(v), slices.ContainsFunc(names, func(n string) bool { return n != "type" && n != "command" && n != "args" })})
			}
		}
		add(scope, serverKey...)
		if scope == User { // the user's servers of this project alone: the agent's local scope
			add(Local, "projects", dir, serverKey[0], serverKey[1])
		}
	}
	return found, out
}

// projectServerEnabled says whether the settings let the agent start
// hookwire's server of the project's file (MCPTool.Enable, or every
// project server), and which scope's settings disable it, if any does.
func (a *Agent) projectServerEnabled(docs map[Scope]*document) (enabled bool, disabled string) {
	for _, scope := range Scopes {
		for _, v := range elements(a.setting(docs[scope], []string{a.MCPTool.Enable})) {
			enabled = enabled || text(&v) == serverKey[1]
		}
		if on, _ := boolean(a.setting(docs[scope], []string{"enableAllProjectMcpServers"})); on {
			enabled = true
		}
		for _, v := range elements(a.setting(docs[scope], []string{"disabledMcpjsonServers"})) {
			if text(&v) == serverKey[1] {
				disabled = string(scope)
			}
		}
	}
	return enabled, disabled
}
