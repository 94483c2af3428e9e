package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// CopilotReplies is Copilot CLI's form of replies: its own members and
// Claude Code's hookSpecificOutput, for either form of its events.
const CopilotReplies Replies = "copilot-cli"

// CopilotCLI is GitHub Copilot CLI, whose hooks decide only about tool calls.
var CopilotCLI = add(&Agent{
	Name:     "copilot-cli",
	Title:    "GitHub Copilot CLI",
	Version:  "1.0.102",
	Document: "the 10 hook events of GitHub Copilot CLI's hooks reference (docs.github.com, copilot-cli-reference/cli-hooks-reference, 2026) and of Copilot CLI 1.0.102 as it runs, in both its forms: camelCase events with camelCase fields, and PascalCase events with Claude Code's snake_case fields",
	Replies:  CopilotReplies,
	Quirks:   Quirks{},
	// Below the 30 seconds Copilot CLI gives a hook by default (timeoutSec):
	// past its own timeout, Copilot CLI runs the tool.
	Deadline: 25 * time.Second,
	Events: map[string]Step{
		"preToolUse":          {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"permissionRequest":   {Calls: []Stage{Approval}, Guard: true},
		"postToolUse":         {Kind: protocol.KindToolExecEnd},
		"userPromptSubmitted": {Kind: protocol.KindTurnStart, NewTurn: true},
		"agentStop":           {Kind: protocol.KindTurnEnd, NewTurn: true},
		"subagentStop":        {Kind: protocol.KindTurnEnd},
		"errorOccurred":       {Kind: protocol.KindError},
		"sessionStart":        {Kind: protocol.KindSessionStart},
		"sessionEnd":          {Kind: protocol.KindSessionEnd, EndsSession: true},
		"notification":        {Kind: KindNotification},
	},
	Cannot: []string{
		"Copilot CLI lets a hook change nothing but a tool call's arguments: before_llm and after_llm are never called; after a tool (postToolUse) and at a prompt (userPromptSubmitted) observers get the event, and after_tool is never called",
		"respond cannot answer a tool call in Copilot CLI: it becomes a deny whose reason is the hook's result",
		"abort_turn and hard_abort cannot stop Copilot CLI's turn: the tool call is denied with the reason, and so is every later tool call of the turn, until the next prompt (userPromptSubmitted) or agentStop",
		"Copilot CLI runs the tool when a hook fails or times out: the bridge answers every guard event with a deny of its own (no decision under --failure-policy open), within 25 s (--deadline), below Copilot CLI's default timeoutSec of 30",
	},
	Install: Install{
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
})
