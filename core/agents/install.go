package agents

import "time"

// Install is what install and doctor know of an agent's configuration.
type Install struct {
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
	// Bare is true for an agent whose file holds its events as the file's
	// own members ({"PreToolUse": [...]}), and reads them wrapped in
	// "hooks" too: install writes where the file has them, at the top
	// level in a file with no "hooks".
	Bare   bool
	Layout Layout
	// Matcher is the matcher written for an event about tools ("*", ".*"),
	// empty when the layout has none.
	Matcher string
	// Command is the entry's member that holds the command: "command",
	// or "bash"; empty for Executables and Plugin, which have no entries.
	Command string
	// Typed is true when an entry says "type": "command".
	Typed bool
	// Named is true when an entry has a "name" (the name a setting that
	// turns hooks off one by one lists).
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
	// Shadows names, for a scope, the scope whose file, where it exists,
	// the agent reads instead: that scope's file is then not read at all.
	Shadows map[Scope]Scope
	// Review says how the agent runs only the hooks its user has reviewed,
	// where it does: doctor cannot see that review, so it is a note.
	Review string
	// MCPTool, when set, is how the agent asks a tool of an MCP server it
	// runs itself, as a hook: a warm session with no process per event
	// (`hookwire bridge --mcp`, core/bridge/mcptool).
	MCPTool *MCPTool
	// FailsOpen says, for an agent that runs the action when a hook fails
	// in a way the bridge cannot answer for (the bridge missing, killed),
	// what then goes unguarded, and the setting that makes it fail closed
	// where it has one (Strict): install and doctor say it.
	FailsOpen string
	// Strict, where set, is the entry's member that, written true, makes
	// the agent block the action when a guard's hook fails: install writes
	// it on the entries of every event that guards a tool, and doctor
	// reports such an entry without it.
	Strict string
	// ShowOutput is the entry's member, written true, that has the agent
	// show its user what a hook writes, for an agent that shows nothing
	// of it otherwise; empty where it shows the hook's messages anyway.
	ShowOutput string
	// Bypass, where set, is the agent's way of running with no hook at all:
	// its command-line flag and the variable that does the same.
	Bypass *Bypass
	// XDGConfig says that the agent reads its user's file (under .config/
	// in Files) from $XDG_CONFIG_HOME where that is set to an absolute
	// path, as the XDG base directories have it: install and doctor use
	// that folder too.
	XDGConfig bool
	// UserFileEnv is a variable that, where set, names the folder the agent
	// reads its user's file from, in place of the folder of Files[User]
	// under the home folder (Kimi CLI's KIMI_SHARE_DIR for ~/.kimi): install
	// and doctor say that the file hookwire writes is then not read.
	UserFileEnv string
	// TOML, where set, says that the agent's hooks files are TOML whose
	// hooks are an array of tables ([[hooks]]): install writes hookwire's
	// entries there as a block of its own between two comments, and keeps
	// every other byte of the file. Layout is then not read.
	TOML *TOMLHooks
}

// TOMLHooks is how an agent's TOML file holds its hooks: an array of
// tables, one per hook, each naming its event (Kimi CLI's [[hooks]] with
// event = "PreToolUse"). An entry's command and timeout are under the keys
// Install's Command and Timeout.Field name; its matcher is Install.Matcher,
// written for an event about tools.
type TOMLHooks struct {
	// Table is the array's name: "hooks" for [[hooks]].
	Table string
	// EventKey is the entry's key that names its event: "event".
	EventKey string
	// MatcherKey is the entry's key for its matcher; empty where the agent
	// reads none.
	MatcherKey string
	// Set are keys that every entry install writes has, with their values
	// (a string, a bool or an int64): an agent's switch that makes a failed
	// hook block, where it is a key of the entry.
	Set map[string]any
	// UniqueNames is true for an agent that reads a hook by its name,
	// which must be unique across its files (Mistral Vibe skips an entry
	// whose name another has): install names each entry after the hook,
	// its event and its command.
	UniqueNames bool
}

// MCPTool is an agent's hook that calls a tool of an MCP server: the
// members of its hook input, which reach the tool only one by one, each
// as a string (${member} in the hook's input).
type MCPTool struct {
	// Document is where these facts come from, with the version.
	Document string
	// Text are the members whose values are strings.
	Text []string
	// JSON are the members whose values are objects, arrays, booleans or
	// numbers: the agent writes them as JSON text.
	JSON []string
	// Servers are the file that declares the agent's MCP servers (in its
	// "mcpServers") for a hook of each scope: relative to the home folder
	// for User, to the project's folder for the others.
	Servers map[Scope]string
	// Enable is the settings list that approves a server of the project's
	// file by name: the agent starts it only once it is listed there.
	Enable string
	// FailsOpen, when set, is why the agent's mcp_tool hooks cannot guard:
	// it runs the call when the server cannot answer, and nothing in its
	// settings changes that. install --warm refuses with it, and doctor
	// reports each guard's mcp_tool hook as a problem.
	FailsOpen string
}

// Installs says whether hookwire installs the warm form for an agent with
// these facts: it calls a tool of an MCP server as a hook, and a guard's
// hook does not fail open.
func (m *MCPTool) Installs() bool { return m != nil && m.FailsOpen == "" }

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
	// Flat is a "version": 1 file whose hooks.EVENT is a list of entries.
	Flat
	// Listed is Flat without the version: hooks.EVENT is a list of
	// entries, and the file has nothing else install writes.
	Listed
	// Executables is a folder (Files names it) of programs, one per event,
	// each named after its event: no settings file and no entries; install
	// writes a file of its own per event.
	Executables
	// Plugin is an agent whose hooks are a plugin of its plugin API, an ES
	// module it loads from a plugins folder (OpenCode's): Files names the
	// module hookwire's plugin is written as, which forwards every event to
	// one warm server (hookwire bridge --mcp); no settings file, no entries.
	Plugin
)

// Entries says whether the agent's hooks are entries of a settings file.
func (l Layout) Entries() bool { return l != Executables && l != Plugin }

// Lists says whether hooks.EVENT is a list of entries, not of groups.
func (l Layout) Lists() bool { return l == Flat || l == Listed }

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
	// milliseconds although Unit is seconds (for settings of the agent's
	// older versions); zero when it never does.
	MillisFrom float64
}

// Switch is a setting that turns hooks off, as the agent's files show it.
type Switch struct {
	// Files are the files that hold it, as Install.Files names them, where
	// they are not the agent's hooks files; a .toml file is TOML.
	Files map[Scope]string
	// Path is the setting's members, from the file's root.
	Path []string
	// Off is the value that turns hooks off.
	Off bool
	// Default is the value when no file sets it.
	Default bool
}

// Bypass is a flag, and a variable, that run an agent without its hooks
// (OpenCode's --pure, "run without external plugins"): doctor reports the
// variable set where it runs, and says that a run with the flag is not
// guarded.
type Bypass struct {
	Flag, Env string
}

// Trust is an agent's folder trust: project hooks load only in a trusted
// folder.
type Trust struct {
	// Setting is the switch that turns folder trust on, and its default;
	// a zero Setting (no Path) is trust that is always on.
	Setting Switch
	// File is the trust rules' file, under the home folder: JSON rules of
	// folder to level; where Projects is true, a config.toml whose
	// [projects."DIR"] trust_level says; where Lists is true, a TOML file
	// of two lists of folders, trusted and untrusted, where the closest
	// folder named, the folder itself or one that holds it, decides.
	File     string
	Projects bool
	Lists    bool
	// Asks is how the agent asks its user to trust a folder, where a
	// command does: doctor's fix names it.
	Asks string
	// Env is a variable that, set to "true", makes the agent trust the
	// folder it runs in (and load its hooks); empty where there is none.
	Env string
}
