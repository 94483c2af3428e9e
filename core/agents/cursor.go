package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// CursorReplies is Cursor's form of replies (permission, user_message).
const CursorReplies Replies = "cursor"

// Cursor is the Cursor editor's agent.
var Cursor = add(&Agent{
	Name:     "cursor",
	Title:    "Cursor",
	Document: "the 20 hook events of Cursor's hooks reference (cursor.com/docs/agent/hooks, 2026, hooks.json version 1)",
	TurnID:   "generation_id",
	Replies:  CursorReplies,
	Quirks:   Quirks{PromptBlockOnly: true},
	// Cursor's reference gives no default timeout for a hook: kept as short
	// as the shortest of the others', as Cursor runs the action when a hook
	// times out.
	Deadline: 25 * time.Second,
	Events: map[string]Step{
		"beforeShellExecution": {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"beforeMCPExecution":   {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"beforeReadFile":       {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"preToolUse":           {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"afterShellExecution":  {Kind: protocol.KindToolExecEnd},
		"afterMCPExecution":    {Kind: protocol.KindToolExecEnd},
		"afterFileEdit":        {Kind: protocol.KindToolExecEnd},
		"postToolUse":          {Kind: protocol.KindToolExecEnd},
		"postToolUseFailure":   {Kind: protocol.KindToolExecEnd},
		"beforeSubmitPrompt":   {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"afterAgentResponse":   {Kind: "agent.response"},
		"afterAgentThought":    {Kind: "agent.thought"},
		"stop":                 {Kind: protocol.KindTurnEnd, NewTurn: true},
		"subagentStart":        {Kind: "agent.subagent.start"},
		"subagentStop":         {Kind: protocol.KindTurnEnd},
		"sessionStart":         {Kind: protocol.KindSessionStart},
		"sessionEnd":           {Kind: protocol.KindSessionEnd, EndsSession: true},
		"preCompact":           {Kind: KindCompact},
		"beforeTabFileRead": {NotMapped: "Cursor Tab, the inline completion, reads a file for its context: " +
			"the protocol's calls are the agent's, and no call asks about a completion's context"},
		"afterTabFileEdit": {NotMapped: "Cursor Tab, the inline completion, edited a file: " +
			"the protocol's events are the agent's, and no event reports a completion"},
	},
	Cannot: []string{
		"Cursor reads nothing back after an action: after_tool is never called, and observers get the event instead",
		"at beforeSubmitPrompt, before_llm can only block the prompt (abort_turn): Cursor takes no context or new prompt from a hook",
		"respond cannot answer a tool call in Cursor: it becomes a deny whose reason the agent reads",
		"abort_turn and hard_abort cannot stop Cursor's turn at a tool call: the call is denied with the reason, and so is every later tool call of the turn (its generation_id), until the next prompt",
		"the bridge never answers ask (Cursor does not ask in every mode): a call a hook rewrote that Cursor cannot take rewritten (a shell command, an MCP call, a file read) is denied, naming the new arguments",
	},
	Install: Install{
		Document: "Cursor's hooks reference (cursor.com/docs/agent/hooks, 2026, hooks.json version 1): ~/.cursor/hooks.json and .cursor/hooks.json, an entry's command; it names no timeout member",
		Files:    map[Scope]string{User: ".cursor/hooks.json", Project: ".cursor/hooks.json"},
		Layout:   Flat,
		Command:  "command",
	},
})
