package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// QwenCode is Qwen Code: Claude Code's form of replies, where a rewritten
// call or a new tool output cannot reach the model as such.
var QwenCode = add(&Agent{
	Name:     "qwen-code",
	Title:    "Qwen Code",
	Version:  "0.24.4",
	Document: "the 22 hook events of Qwen Code 0.24.4 (docs/features/hooks.md as its npm package ships it, and its hook runner)",
	TurnID:   "prompt_id",
	Replies:  ClaudeReplies,
	Quirks:   Quirks{NoNewArguments: true, NewOutput: OutputStop},
	// Its headless runs (-p) end without SessionEnd: with the 30 minutes of
	// DefaultIdle, 20 runs left 17 servers and their hooks running (about
	// 130 MiB). An interactive session quiet for longer starts its hook
	// again at its next event, with the hook's state anew.
	Idle:    5 * time.Minute,
	IdleWhy: "its headless runs (`-p`) end without `SessionEnd`, and each would leave its session's server and hook running for 30 minutes; an interactive session quiet for longer starts its hook again at its next event, and the hook's state starts anew",
	Events: map[string]Step{
		"PreToolUse":          {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PermissionRequest":   {Calls: []Stage{Approval}, Guard: true},
		"PostToolUse":         {Calls: []Stage{AfterTool}, Context: true},
		"PostToolUseFailure":  {Calls: []Stage{AfterTool}, Context: true},
		"PostToolBatch":       {Kind: "agent.tool.batch_end"},
		"UserPromptSubmit":    {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"UserPromptExpansion": {Kind: "agent.prompt.expansion"},
		"SessionStart":        {Kind: protocol.KindSessionStart},
		"SessionEnd":          {Kind: protocol.KindSessionEnd, EndsSession: true},
		"SessionDelete":       {Kind: "agent.session.deleted"},
		"MessageDisplay":      {Kind: "agent.message.display"},
		// The last answer of a turn as an after_llm call, as Claude Code's.
		"Stop":               {Kind: protocol.KindTurnEnd, Calls: []Stage{AfterLLM}, KeepGoing: "block", NewTurn: true},
		"StopFailure":        {Kind: protocol.KindError},
		"SubagentStart":      {Kind: "agent.subagent.start"},
		"SubagentStop":       {Kind: protocol.KindTurnEnd},
		"PreCompact":         {Kind: KindCompact},
		"PostCompact":        {Kind: "agent.context.compacted"},
		"Notification":       {Kind: KindNotification},
		"PermissionDenied":   {Kind: "agent.permission.denied"},
		"TodoCreated":        {Kind: "agent.todo.created"},
		"TodoCompleted":      {Kind: "agent.todo.completed"},
		"InstructionsLoaded": {Kind: "agent.instructions.loaded"},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach the model as context of the prompt, abort_turn blocks the prompt",
		"after_llm is called once per turn, at Stop, with the last answer: a modify cannot change it, and context on it keeps the turn going once a turn",
		"respond cannot answer a tool call in Qwen Code: it becomes a deny whose reason is the hook's result",
		"Qwen Code 0.24.4 takes no new arguments at PreToolUse: a call a hook rewrote is denied, naming the new arguments",
		"Qwen Code takes no new tool output: an after_tool modify stops the tool's result, and the model reads an error with the new text in its place",
	},
	Install: Install{
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
})
