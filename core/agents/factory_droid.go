package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// FactoryDroid is Factory's Droid: Claude Code's form of replies, where a new
// tool output comes after the output.
var FactoryDroid = add(&Agent{
	Name:     "factory-droid",
	Title:    "Factory Droid",
	Version:  "0.225.1",
	Document: "the 9 hook events of Factory Droid's hooks reference (docs.factory.ai/reference/hooks-reference, 2026; droid 0.225.1 on npm as @factory/cli)",
	Replies:  ClaudeReplies,
	Quirks:   Quirks{NewOutput: OutputBlockAfter},
	Events: map[string]Step{
		"PreToolUse":       {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PostToolUse":      {Calls: []Stage{AfterTool}},
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
		"Factory Droid takes no new tool output: an after_tool modify reaches the model as feedback after the output, which it still reads (a redactor cannot hide a secret there)",
	},
	Install: Install{
		Document:   "Factory Droid's hooks reference (docs.factory.ai/reference/hooks-reference, 2026; droid 0.225.1): Claude Code's shape in ~/.factory/settings.json, .factory/settings.json and .factory/settings.local.json, timeout in seconds, default 60",
		Files:      map[Scope]string{User: ".factory/settings.json", Project: ".factory/settings.json", Local: ".factory/settings.local.json"},
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 60 * time.Second},
		ProjectDir: "FACTORY_PROJECT_DIR",
	},
})
