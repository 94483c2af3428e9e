package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// FactoryDroid is Factory's Droid: Claude Code's form of replies, where a new
// tool output comes as context after the output. Its hook handling was read
// in droid 0.215.0's own code and run against a scripted model: PreToolUse
// takes permissionDecision, updatedInput, exit code 2 and continue false
// (which stops the run); PostToolUse takes additionalContext (for the model
// only), exit code 2 and continue false, and no decision nor new output;
// Stop takes decision block with a reason, and says stop_hook_active, but
// carries no last answer.
var FactoryDroid = add(&Agent{
	Name:     "factory-droid",
	Title:    "Factory Droid",
	Version:  "0.215.0",
	Document: "the 9 hook events of Factory Droid's hooks reference (docs.factory.ai/reference/hooks-reference, 2026) and of droid 0.215.0's own hook schema (npm droid, whose linux-x64 binary installs; @factory/cli 0.225.1 has no linux-x64 package)",
	Replies:  ClaudeReplies,
	Quirks:   Quirks{NewOutput: OutputContextAfter},
	Events: map[string]Step{
		"PreToolUse":       {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PostToolUse":      {Calls: []Stage{AfterTool}, Context: true},
		"UserPromptSubmit": {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"Stop":             {Kind: protocol.KindTurnEnd, NewTurn: true},
		"SubagentStop":     {Kind: protocol.KindTurnEnd},
		"SessionStart":     {Kind: protocol.KindSessionStart},
		"SessionEnd":       {Kind: protocol.KindSessionEnd, EndsSession: true},
		"Notification":     {Kind: KindNotification},
		"PreCompact":       {Kind: KindCompact},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach Droid as context of the prompt, abort_turn blocks the prompt; after_llm is never called",
		"respond cannot answer a tool call in Factory Droid: it becomes a deny whose reason is the hook's result",
		"Factory Droid takes no new tool output: an after_tool modify reaches the model as context after the output, which it still reads (a redactor cannot hide a secret there)",
		"droid exec (0.215.0) sends no UserPromptSubmit, so before_llm is not called in its non-interactive runs; and where a hook stops the turn (abort_turn), it stops with the reason shown in its TUI only: exec prints nothing of it",
	},
	Install: Install{
		Document:   "Factory Droid's hooks reference (docs.factory.ai/reference/hooks-reference, 2026; droid 0.215.0): Claude Code's shape in ~/.factory/settings.json, .factory/settings.json and .factory/settings.local.json, timeout in seconds, default 60",
		Files:      map[Scope]string{User: ".factory/settings.json", Project: ".factory/settings.json", Local: ".factory/settings.local.json"},
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 60 * time.Second},
		ProjectDir: "FACTORY_PROJECT_DIR",
		NotLoaded: map[Scope]string{
			Local: "droid exec 0.215.0 (scripts, CI) runs no hook of .factory/settings.local.json: there the hook does not run",
		},
	},
})
