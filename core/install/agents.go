// Package install writes a hook into an agent's own configuration file, as
// a command hook through hookwire-bridge, and takes it out again; and it
// checks what is installed (Doctor). What it knows of each agent's files is
// data, in Agents; which events a hook needs comes from the bridge's tables.
package install

import (
	"encoding/json"
	"time"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
)

// Scope is which of an agent's configuration files: the user's, the
// project's (shared with the team), or the project's local one (the
// user's own, not committed).
type Scope string

// The scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
	Local   Scope = "local"
)

// Scopes are every scope, in the order doctor reads them.
var Scopes = []Scope{User, Project, Local}

// Layout is the shape of an agent's hooks section.
type Layout int

const (
	// Grouped is Claude Code's shape: hooks.EVENT is a list of groups,
	// each {"matcher", "hooks": [entry...]}.
	Grouped Layout = iota
	// Flat is the shape of Cursor and Copilot CLI: a "version": 1 file
	// whose hooks.EVENT is a list of entries.
	Flat
)

// Timeout is how an agent reads a hook's timeout.
type Timeout struct {
	// Field is the entry's member that holds it; empty when the agent
	// reads none.
	Field string
	// Unit is what one of it is worth.
	Unit time.Duration
	// Default is what the agent gives a hook whose entry has none.
	Default time.Duration
	// MillisFrom is the value from which the agent reads the number as
	// milliseconds although Unit is seconds (Qwen Code, for settings of
	// older versions); zero when it never does.
	MillisFrom float64
}

// Switch is a setting that turns hooks off, as the agent's files show it.
type Switch struct {
	// Files are the files that hold it, as Agent.Files names them, where
	// they are not the agent's hooks files; a .toml file is TOML.
	Files map[Scope]string
	// Path is the setting's members, from the file's root.
	Path []string
	// Off is the value that turns hooks off.
	Off bool
	// Default is the value when no file sets it.
	Default bool
}

// Trust is an agent's folder trust: project hooks load only in a trusted
// folder.
type Trust struct {
	// Setting is the switch that turns folder trust on, and its default;
	// a zero Setting (no Path) is trust that is always on.
	Setting Switch
	// File is the trust rules' file, under the home folder: JSON rules of
	// folder to level (Gemini CLI, Qwen Code), or, where Projects is true,
	// a config.toml whose [projects."DIR"] trust_level says (Codex CLI).
	File     string
	Projects bool
	// Env is a variable that, set to "true", makes the agent trust the
	// folder it runs in (and load its hooks); empty where there is none.
	Env string
}

// Agent is what install and doctor know of an agent's configuration.
type Agent struct {
	// Name is the bridge's name of the agent.
	Name string
	// Document is the reference followed for these facts, with its version
	// or date.
	Document string
	// Files are the configuration file of each scope the agent reads hooks
	// from: relative to the home folder for User, to the project's folder
	// for the others.
	Files map[Scope]string
	// Comments is true when the agent reads the file as JSON with comments
	// (and trailing commas).
	Comments bool
	Layout   Layout
	// Matcher is the matcher written for an event about tools ("*", ".*"),
	// empty when the layout has none.
	Matcher string
	// Command is the entry's member that holds the command: "command",
	// or "bash" for Copilot CLI.
	Command string
	// Typed is true when an entry says "type": "command".
	Typed bool
	// Named is true when an entry has a "name" (Gemini CLI: the name
	// hooksConfig.disabled lists).
	Named   bool
	Timeout Timeout
	// ProjectDir is the variable the agent sets to the project's folder
	// when it runs a hook, which hand-written commands use.
	ProjectDir string
	// Switches turn every hook off.
	Switches []Switch
	// Disabled is the setting that lists hooks turned off by name.
	Disabled []string
	// Trust is nil for an agent without folder trust.
	Trust *Trust
	// NotLoaded says, for a scope, the ways of running the agent in which
	// it does not load that scope's hooks; a hook there is a problem,
	// since a guard that runs only sometimes lets the other runs through.
	NotLoaded map[Scope]string
	// Review says how the agent runs only the hooks its user has reviewed,
	// where it does: doctor cannot see that review, so it is a note.
	Review string
}

// Agents are the agents hookwire installs into, by the bridge's name.
var Agents = map[string]*Agent{
	"claude-code": {
		Name:       "claude-code",
		Document:   "Claude Code 2.1.331's settings schema (hooks, disableAllHooks, a command hook's timeout in seconds) and the hooks reference of code.claude.com/docs/en/hooks (May 2026: the files per scope, a command hook's default timeout of 600 s)",
		Files:      map[Scope]string{User: ".claude/settings.json", Project: ".claude/settings.json", Local: ".claude/settings.local.json"},
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 600 * time.Second},
		ProjectDir: "CLAUDE_PROJECT_DIR",
		Switches:   []Switch{{Path: []string{"disableAllHooks"}, Off: true}},
	},
	"gemini-cli": {
		Name: "gemini-cli",
		Document: "Gemini CLI 0.61.0: docs/hooks/reference.md (timeout in milliseconds, default 60000), docs/reference/configuration.md (hooksConfig.enabled, hooksConfig.disabled, security.folderTrust.enabled, default true) and docs/cli/trusted-folders.md (~/.gemini/trustedFolders.json), as its npm package ships them. " +
			"Checked with Gemini CLI 0.61.0 run with -p (offline): in a folder it does not trust it runs nothing and says so; with GEMINI_CLI_TRUST_WORKSPACE=true (or --skip-trust) it runs and loads the project's hooks",
		Files:      map[Scope]string{User: ".gemini/settings.json", Project: ".gemini/settings.json"},
		Comments:   true,
		Layout:     Grouped,
		Matcher:    ".*",
		Command:    "command",
		Typed:      true,
		Named:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Millisecond, Default: 60 * time.Second},
		ProjectDir: "GEMINI_PROJECT_DIR",
		Switches:   []Switch{{Path: []string{"hooksConfig", "enabled"}, Off: false, Default: true}},
		Disabled:   []string{"hooksConfig", "disabled"},
		Trust:      &Trust{Setting: Switch{Path: []string{"security", "folderTrust", "enabled"}, Off: true, Default: true}, File: ".gemini/trustedFolders.json", Env: "GEMINI_CLI_TRUST_WORKSPACE"},
	},
	"codex-cli": {
		Name: "codex-cli",
		Document: "developers.openai.com/codex/hooks (2026, Codex CLI 0.171.0): hooks.json beside each config layer, Claude Code's shape, timeout in seconds, default 600; [features] hooks = false in config.toml turns hooks off (codex_hooks, its former name, too). " +
			"Checked with Codex CLI 0.171.0 (codex exec, offline): a config.toml that does not parse stops it; the project's .codex/hooks.json loads only where ~/.codex/config.toml has [projects.\"DIR\"] trust_level = \"trusted\" for the project's folder or for its git repository's root (either works; --dangerously-bypass-hook-trust does not lift it); " +
			"and a hook of any scope runs only once its user has reviewed it (the TUI's /hooks, kept in config.toml) or under --dangerously-bypass-hook-trust",
		Files:   map[Scope]string{User: ".codex/hooks.json", Project: ".codex/hooks.json"},
		Layout:  Grouped,
		Matcher: "*",
		Command: "command",
		Typed:   true,
		Timeout: Timeout{Field: "timeout", Unit: time.Second, Default: 600 * time.Second},
		Switches: []Switch{
			{Files: codexConfig, Path: []string{"features", "hooks"}, Off: false, Default: true},
			{Files: codexConfig, Path: []string{"features", "codex_hooks"}, Off: false, Default: true},
		},
		Trust:  &Trust{File: ".codex/config.toml", Projects: true},
		Review: "Codex CLI 0.171.0 runs a hook only once its user has reviewed it (/hooks in its TUI, which asks at start while one is new or changed), or under codex exec --dangerously-bypass-hook-trust: doctor cannot see that review",
	},
	"copilot-cli": {
		Name: "copilot-cli",
		Document: "GitHub Copilot's hooks reference (docs.github.com, copilot/reference/hooks-reference, 2026; @github/copilot 1.0.102): *.json in ~/.copilot/hooks and .github/hooks, version 1, an entry's bash command and timeoutSec, default 30. " +
			"Checked with Copilot CLI 1.0.102 run with -p (COPILOT_OFFLINE, a provider on loopback): ~/.copilot/hooks/*.json and settings.json's hooks load; .github/hooks/*.json does not, in a git repository or not, with the folder in trustedFolders or not (interactive runs not checked)",
		Files:   map[Scope]string{User: ".copilot/hooks/hookwire.json", Project: ".github/hooks/hookwire.json"},
		Layout:  Flat,
		Command: "bash",
		Typed:   true,
		Timeout: Timeout{Field: "timeoutSec", Unit: time.Second, Default: 30 * time.Second},
		NotLoaded: map[Scope]string{
			Project: "Copilot CLI 1.0.102 run with -p (scripts, CI) loads no .github/hooks: there the hook does not run",
		},
	},
	"cursor": {
		Name:     "cursor",
		Document: "Cursor's hooks reference (cursor.com/docs/agent/hooks, 2026, hooks.json version 1): ~/.cursor/hooks.json and .cursor/hooks.json, an entry's command; it names no timeout member",
		Files:    map[Scope]string{User: ".cursor/hooks.json", Project: ".cursor/hooks.json"},
		Layout:   Flat,
		Command:  "command",
	},
	"factory-droid": {
		Name:       "factory-droid",
		Document:   "Factory Droid's hooks reference (docs.factory.ai/reference/hooks-reference, 2026; droid 0.225.1): Claude Code's shape in ~/.factory/settings.json, .factory/settings.json and .factory/settings.local.json, timeout in seconds, default 60",
		Files:      map[Scope]string{User: ".factory/settings.json", Project: ".factory/settings.json", Local: ".factory/settings.local.json"},
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 60 * time.Second},
		ProjectDir: "FACTORY_PROJECT_DIR",
	},
	"qwen-code": {
		Name: "qwen-code",
		Document: "Qwen Code 0.24.4's docs/features/hooks.md, as its npm package ships it: .qwen/settings.json, a command hook's timeout in seconds (default 60; 1000 or more read as milliseconds), disableAllHooks, project hooks only in a trusted folder. " +
			"Checked with Qwen Code 0.24.4 run with -p (offline): with folder trust on, in a folder it does not trust, it loads no project hooks and runs no tool without asking",
		Files:      map[Scope]string{User: ".qwen/settings.json", Project: ".qwen/settings.json"},
		Comments:   true,
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 60 * time.Second, MillisFrom: 1000},
		ProjectDir: "QWEN_PROJECT_DIR",
		Trust:      &Trust{Setting: Switch{Path: []string{"security", "folderTrust", "enabled"}, Off: true}, File: ".qwen/trustedFolders.json"},
		Switches:   []Switch{{Path: []string{"disableAllHooks"}, Off: true}},
	},
}

// codexConfig are Codex CLI's config.toml files, which hold its switches.
var codexConfig = map[Scope]string{User: ".codex/config.toml", Project: ".codex/config.toml"}

// Caveats are what a user should know of a hook installed into the
// agent's file of scope for events: the ways of running in which the
// agent does not load that file, the review it asks first, the plugin
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
	if a.Review != "" {
		out = append(out, a.Review)
	}
	h, err := host.Parse(a.Name)
	if err != nil {
		return out
	}
	stages := map[string]bool{}
	for _, ev := range events {
		for _, st := range bridge.Agents[a.Name].Events[ev].Calls {
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
