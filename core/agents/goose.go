package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// GooseReplies is Goose's form of replies: an event named by "event", and,
// before a tool, {"decision": "block", "reason": ...} or an allow.
const GooseReplies Replies = "goose"

// Goose is the Agentic AI Foundation's Goose, whose hooks are those of Open
// Plugins: a plugin folder's hooks/hooks.json, Claude Code's grouped shape.
// Read in Goose 1.52.0 (its crates/goose/src/hooks/mod.rs, and the binary
// run against a scripted model): a hook reads {"event", "session_id",
// "tool_name", "tool_input", "tool_call_id", "working_dir", ...}; only
// PreToolUse is asked for a decision, which is exit code 2 (the reason on
// stderr) or {"decision": "block", "reason"} to deny, an empty stdout or
// {"decision": "allow"} with exit code 0 to allow, and anything else a
// failed hook, which lets the call run (unless the entry says on_failure
// block). The other events are told, and what their hooks print is not
// read.
var Goose = add(&Agent{
	Name:     "goose",
	Title:    "Goose",
	Version:  "1.52.0",
	Document: "the 12 hook events of Goose 1.52.0 (npm @aaif/goose-binary-linux-x64; crates/goose/src/hooks/mod.rs of aaif-goose/goose, after the Open Plugins hooks specification)",
	Replies:  GooseReplies,
	Quirks:   Quirks{NoNewArguments: true},
	// Below the 30 seconds Goose gives a hook by default: past it, the hook
	// has failed, and Goose runs the tool.
	Deadline: 25 * time.Second,
	Events: map[string]Step{
		"PreToolUse":           {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PreToolUseResult":     {Kind: "agent.tool.decided"},
		"PostToolUse":          {Kind: protocol.KindToolExecEnd},
		"PostToolUseFailure":   {Kind: protocol.KindToolExecEnd},
		"BeforeShellExecution": {Kind: "agent.shell.before"},
		"AfterShellExecution":  {Kind: "agent.shell.after"},
		"BeforeReadFile":       {Kind: "agent.file.read"},
		"AfterFileEdit":        {Kind: "agent.file.edited"},
		"UserPromptSubmit":     {Kind: protocol.KindTurnStart, NewTurn: true},
		"Stop":                 {Kind: protocol.KindTurnEnd, NewTurn: true},
		"SessionStart":         {Kind: protocol.KindSessionStart},
		"SessionEnd":           {Kind: protocol.KindSessionEnd, EndsSession: true},
	},
	Cannot: []string{
		"Goose lets a hook decide only whether a tool call runs (PreToolUse): before_llm, after_llm and after_tool are never called; the other events reach observers",
		"Goose takes no new arguments: a call a hook rewrote is denied, naming the new arguments",
		"respond cannot answer a tool call in Goose: it becomes a deny whose reason is the hook's result",
		"abort_turn and hard_abort cannot stop Goose's turn: the tool call is denied with the reason, and so is every later tool call of the turn, until the next prompt (UserPromptSubmit) or Stop",
		"Goose runs the tool when a hook fails or times out (unless its entry says on_failure block): the bridge answers every PreToolUse with a decision of its own (none under --failure-policy open), within 25 s (--deadline), below Goose's default timeout of 30 s",
	},
	Install: Install{
		Document: "Goose 1.52.0 run here: a plugin folder's hooks/hooks.json under ~/.agents/plugins and PROJECT/.agents/plugins loads, with or without its .plugin/plugin.json (the plugin's name is then its folder's); an entry's command and timeout in seconds, default 30; a matcher is a regular expression",
		Files:    map[Scope]string{User: ".agents/plugins/hookwire/hooks/hooks.json", Project: ".agents/plugins/hookwire/hooks/hooks.json"},
		Layout:   Grouped,
		Matcher:  ".*",
		Command:  "command",
		Typed:    true,
		Timeout:  Timeout{Field: "timeout", Unit: time.Second, Default: 30 * time.Second},
	},
})
