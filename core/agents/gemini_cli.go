package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// GeminiReplies is Gemini CLI's form of replies.
const GeminiReplies Replies = "gemini-cli"

// GeminiCLI is Google's Gemini CLI, the one agent with events around each
// model request.
var GeminiCLI = add(&Agent{
	Name:       "gemini-cli",
	Title:      "Gemini CLI",
	Version:    "0.61.0",
	Document:   "the 11 hook events of Gemini CLI 0.61.0 (its HookEventName), with its hooks reference (docs/hooks/reference.md of google-gemini/gemini-cli, commit 06c0d81) for their meaning",
	AsksAtOnce: true,
	Replies:    GeminiReplies,
	Quirks:     Quirks{ModelEvents: true, NewOutput: OutputBlockedResult},
	Events: map[string]Step{
		"BeforeTool":  {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"AfterTool":   {Calls: []Stage{AfterTool}, Context: true},
		"BeforeModel": {Calls: []Stage{BeforeLLM}},
		// Gemini reads no context at AfterModel (a chunk of the answer):
		// it waits for the end of the turn, where it keeps the turn going.
		"AfterModel":          {Calls: []Stage{AfterLLM}, ContextLater: "AfterAgent"},
		"BeforeToolSelection": {Kind: protocol.KindLLMRequest},
		"BeforeAgent":         {Kind: protocol.KindTurnStart, NewTurn: true},
		"AfterAgent":          {Kind: protocol.KindTurnEnd, KeepGoing: "deny", NewTurn: true},
		"SessionStart":        {Kind: protocol.KindSessionStart},
		"SessionEnd":          {Kind: protocol.KindSessionEnd, EndsSession: true},
		"Notification":        {Kind: KindNotification},
		"PreCompress":         {Kind: KindCompact},
	},
	Cannot: []string{
		"Gemini CLI takes no new tools from a BeforeModel hook: tools a before_llm modify adds are dropped (serve plugin tools with `hookwire mcp`)",
		"respond cannot answer a tool call in Gemini CLI: it becomes a deny whose reason, the hook's result, the model reads as the tool's error",
		"an approver's abstention has no counterpart in Gemini CLI: the call goes on as if no hook had looked at it",
		"Gemini CLI reads no context at AfterModel: context on an after_llm answer waits for AfterAgent, the end of the turn, where it keeps the turn going once a turn (hookwire install names AfterAgent for an llm hook; by hand, name it in the settings too)",
		"Gemini CLI 0.61.0 reads no new tool output: an after_tool modify blocks the result, and the model reads \"Tool result blocked: \" and the new text in its place",
	},
	Install: Install{
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
})
