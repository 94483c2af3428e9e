// Package install writes a hook into an agent's own configuration file, as
// a command hook through hookwire-bridge, and takes it out again; and it
// checks what is installed (Doctor). What it knows of each agent's files,
// and which events a hook needs, comes from the agent's value in
// core/agents.
package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
)

// The facts of an agent's configuration are in its value of core/agents
// (agents.Install); these are their names here.
type (
	Scope   = agents.Scope
	Layout  = agents.Layout
	Timeout = agents.Timeout
	Switch  = agents.Switch
	Trust   = agents.Trust
)

// The scopes and layouts (agents.Scope, agents.Layout).
const (
	User    = agents.User
	Project = agents.Project
	Local   = agents.Local
	Grouped = agents.Grouped
	Flat    = agents.Flat
	Listed  = agents.Listed
	// Executables: a folder of programs, one per event.
	Executables = agents.Executables
	// Plugin: a module of the agent's plugin API.
	Plugin = agents.Plugin
)

// Scopes are every scope, in the order doctor reads them.
var Scopes = agents.Scopes

// Agent is what install and doctor know of an agent's configuration: its
// name and the install facts of its value in core/agents.
type Agent struct {
	// Name is the agent's name (agents.Agent.Name).
	Name string
	agents.Install
}

// Agents are the agents hookwire installs into, by name: every agent of
// agents.All.
var Agents = func() map[string]*Agent {
	out := map[string]*Agent{}
	for _, a := range agents.All {
		out[a.Name] = &Agent{Name: a.Name, Install: a.Install}
	}
	return out
}()

// facts is the agent's value in core/agents.
func (a *Agent) facts() *agents.Agent { return agents.ByName(a.Name) }

// Caveats are what a user should know of a hook installed into the
// agent's file of scope for events: the ways of running in which the
// agent does not load that file, the review it asks first, what goes
// unguarded where it fails open and has no switch to fail closed, the plugin
// tools it cannot honour, and a rewrite it does not take as its own
// rules would. The last are the host's own rule, as hookwire
// run --host AGENT applies it: a plugin tool a before_llm modify adds, and
// a before_tool that answers with respond, are put to the host, and what
// it drops is said.
func Caveats(a *Agent, scope Scope, events []string) []string {
	var out []string
	if why, ok := a.NotLoaded[scope]; ok {
		out = append(out, why+": install it with --scope user")
	}
	if home, err := Home(); err == nil && scope == User {
		if why := a.userFileMoved(home); why != "" {
			out = append(out, why)
		}
	}
	if other, ok := a.Shadows[scope]; ok {
		out = append(out, fmt.Sprintf("%s does not read this file in a project that has a file of its own (%s): install it with --scope %s there too", a.Name, a.Files[other], other))
	}
	for _, said := range []string{a.Review, a.FailsOpen} {
		if said != "" {
			out = append(out, said)
		}
	}
	h, err := host.Parse(a.Name)
	if err != nil {
		return out
	}
	stages := map[string]bool{}
	for _, ev := range events {
		for _, st := range a.facts().Events[ev].Calls {
			stages[string(st)] = true
		}
	}
	asked := []struct {
		stage, method, doing string
		params               any
		answer               string
	}{
		{"before_llm", protocol.MethodBeforeLLM, "serves plugin tools", protocol.BeforeLLMParams{Model: "m"},
			`{"action": "modify", "request": {"model": "m", "tools": [{"type": "function", "function": {"name": "a_plugin_tool"}}]}}`},
		{"before_tool", protocol.MethodBeforeTool, "serves plugin tools", protocol.BeforeToolParams{Tool: "a_plugin_tool"},
			`{"action": "respond", "result": {"for_llm": "the plugin tool's result"}}`},
		{"before_tool", protocol.MethodBeforeTool, "rewrites calls", protocol.BeforeToolParams{Tool: "a_tool", Arguments: map[string]any{"command": "ls"}},
			`{"action": "modify", "call": {"tool": "a_tool", "arguments": {"command": "ls -la"}}}`},
	}
	for _, q := range asked {
		if !stages[q.stage] {
			continue
		}
		for _, n := range h.Discards(q.method, q.params, json.RawMessage(q.answer)) {
			out = append(out, "if the hook "+q.doing+": "+n)
		}
	}
	return out
}

// userFileMoved says why the agent does not read its user's file under
// home, where the variable of Install.UserFileEnv names another folder in
// this environment; "" when it reads it.
func (a *Agent) userFileMoved(home string) string {
	v := os.Getenv(a.UserFileEnv)
	if a.UserFileEnv == "" || v == "" {
		return ""
	}
	rel := filepath.FromSlash(a.Files[User])
	dir := filepath.Join(home, filepath.Dir(rel))
	if moved, err := filepath.Abs(v); err == nil && moved == dir {
		return ""
	}
	return fmt.Sprintf("%s is set (%s): %s reads %s, not %s", a.UserFileEnv, v, a.Name, filepath.Join(v, filepath.Base(rel)), filepath.Join(dir, filepath.Base(rel)))
}
