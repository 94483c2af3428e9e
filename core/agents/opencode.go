package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// OpenCodeReplies is the form of the replies of hookwire's plugin for
// OpenCode's plugin API (sdk-node's opencode-plugin): the plugin writes
// each hook it is called for as an event named by that hook, and reads
// back {"block": reason} (it throws, which blocks the tool and is what
// the model reads), {"args": {...}} (it puts them in output.args) or
// {"output": text} after a tool (it puts it in output.output).
const OpenCodeReplies Replies = "opencode"

// openCodeEvents are the hooks of OpenCode's plugin API that hookwire's
// plugin forwards, as events named by the hook (session.idle is an event
// of its "event" hook).
var openCodeEvents = map[string]Step{
	"tool.execute.before": {Calls: []Stage{BeforeTool, Approval}, Guard: true},
	"tool.execute.after":  {Calls: []Stage{AfterTool}, Context: true},
	"chat.message":        {Kind: protocol.KindTurnStart, NewTurn: true},
	"session.idle":        {Kind: protocol.KindTurnEnd, NewTurn: true},
}

// openCodeQuirks: context after a tool goes in the tool's output the
// model reads, after it (core/bridge/opencode.go).
var openCodeQuirks = Quirks{ContextMember: "output"}

// openCodeCannot are what hooks can decide that OpenCode's plugin API
// cannot express, for OpenCode and for its forks, which have the same
// API.
var openCodeCannot = []string{
	"OpenCode's plugin API lets a hook decide before a tool (tool.execute.before) and change a tool's output (tool.execute.after): before_llm and after_llm are never called; the prompt (chat.message) and the end of a turn (session.idle) reach observers",
	"respond cannot answer a tool call in OpenCode: it becomes a block whose reason is the hook's result",
	"abort_turn and hard_abort cannot stop OpenCode's turn: the tool call is blocked with the reason, and so is every later tool call of the turn, until the next prompt (chat.message) or session.idle",
}

// OpenCode is SST's (now anomalyco's) OpenCode, run through hookwire's
// plugin for its plugin API: an ES module in a plugins folder, loaded in
// OpenCode's own process, which starts one warm server (hookwire bridge
// --mcp) per OpenCode process and asks it each event over stdio. Read in
// OpenCode 1.18.33 (its plugins documentation, opencode.ai/docs/plugins,
// and the binary run against a scripted model here):
// tool.execute.before(input {tool, sessionID, callID}, output {args}) is
// awaited before a tool, a throw blocks the call (the error's message is
// the tool's result the model reads) and a change to output.args is what
// the tool runs with; tool.execute.after(input {tool, sessionID, callID,
// args}, output {title, output, metadata}) is awaited after it, and the
// model reads output.output as it is then; chat.message(input
// {sessionID}, output {message, parts}) before a prompt; the event hook
// gets session.idle at the end of a turn.
var OpenCode = add(&Agent{
	Name:     "opencode",
	Title:    "OpenCode",
	Version:  "1.18.33",
	Document: "the plugin hooks of OpenCode 1.18.33 (npm opencode-ai; opencode.ai/docs/plugins, and what the binary passed a plugin run here): tool.execute.before, tool.execute.after, chat.message and the event hook's session.idle",
	Replies:  OpenCodeReplies,
	// It runs the tool calls of an answer at once, and asks the plugin
	// about each as it starts: seen in a run where the second call was
	// decided before the first one's abort reached the bridge, and in
	// the abort test's guard that answers once both are asked.
	AsksAtOnce: true,
	Quirks:     openCodeQuirks,
	// The plugin waits for the server's answer 10 s past this deadline,
	// and blocks the call when none comes (sdk-node's opencode-plugin).
	Deadline: 50 * time.Second,
	Events:   openCodeEvents,
	Cannot:   openCodeCannot,
	Install: Install{
		Document:  "OpenCode 1.18.33's plugins documentation: every .js or .ts file of PROJECT/.opencode/plugins and ~/.config/opencode/plugins is loaded at start, and each function it exports is a plugin",
		Files:     map[Scope]string{User: ".config/opencode/plugins/hookwire.js", Project: ".opencode/plugins/hookwire.js"},
		Layout:    Plugin,
		XDGConfig: true,
		// opencode run --help: "--pure  run without external plugins";
		// seen here, a plugin is not loaded with either.
		Bypass: &Bypass{Flag: "--pure", Env: "OPENCODE_PURE"},
	},
})
