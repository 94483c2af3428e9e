package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// CodexCLI is OpenAI's Codex CLI: Claude Code's form of replies, with
// PreToolUse replies it takes for a failed hook.
var CodexCLI = add(&Agent{
	Name:       "codex-cli",
	Title:      "Codex CLI",
	Version:    "0.171.0",
	Document:   "the 13 hook events of Codex CLI 0.171.0 (the input and output schemas of codex-rs/hooks/schema/generated in openai/codex, and the events the pinned Codex CLI sends), with developers.openai.com/codex/hooks (2026) for their meaning",
	TurnID:     "turn_id",
	AsksAtOnce: true,
	Replies:    ClaudeReplies,
	Quirks:     Quirks{NoNewArgumentsAtApproval: true, FailsOnAsk: true, FailsOnAllowWithoutArguments: true, FailsOnStopAtGuard: true, NewOutput: OutputBlock},
	Events: map[string]Step{
		"PreToolUse":        {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PermissionRequest": {Calls: []Stage{Approval}, Guard: true},
		"PostToolUse":       {Calls: []Stage{AfterTool}, Context: true},
		"UserPromptSubmit":  {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		// The last answer of a turn as an after_llm call, as Claude Code's.
		"Stop":         {Kind: protocol.KindTurnEnd, Calls: []Stage{AfterLLM}, KeepGoing: "block", NewTurn: true},
		"StopFailure":  {Kind: protocol.KindError},
		"SessionStart": {Kind: protocol.KindSessionStart},
		"SessionEnd":   {Kind: protocol.KindSessionEnd, EndsSession: true},
		// Before each model request; it carries none of the request.
		"PreModelRequest": {Kind: protocol.KindLLMRequest},
		"SubagentStart":   {Kind: "agent.subagent.start"},
		"SubagentStop":    {Kind: protocol.KindTurnEnd},
		"PreCompact":      {Kind: KindCompact},
		"PostCompact":     {Kind: "agent.context.compacted"},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach the model as context of the prompt, abort_turn blocks the prompt",
		"after_llm is called once per turn, at Stop, with the last answer: a modify cannot change it, and context on it keeps the turn going once a turn",
		"respond cannot answer a tool call in Codex CLI: it becomes a deny whose reason is the hook's result",
		"Codex CLI fails closed on new arguments at PermissionRequest: an approval that rewrites the call there denies it, naming the new arguments",
		"Codex CLI 0.171.0 takes some PreToolUse replies for a failed hook, and runs the tool: the bridge never asks there (a rewritten call no approver allowed goes on rewritten), sends the call's own input with an allow, and denies the call on abort_turn and hard_abort, whose turn goes on: every later tool call of the turn (its turn_id) is denied too",
		"Codex CLI 0.171.0 takes no updatedToolOutput: an after_tool modify blocks the output, and the model reads the new text in its place",
		"Codex CLI runs a hook only once its user has reviewed it (/hooks in its TUI): until then it runs no hook at all, and says so only there",
	},
	Install: Install{
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
		Trust:  &Trust{File: ".codex/config.toml", Projects: true, Asks: "codex exec --trust"},
		Review: "Codex CLI 0.171.0 runs a hook only once its user has reviewed it (/hooks in its TUI, which asks at start while one is new or changed), or under codex exec --dangerously-bypass-hook-trust: doctor cannot see that review",
		// Its mcp_tool hooks run (hookwire bridge --mcp serves them), but a
		// guard's fails open: no warm form is installed (docs/bridge-mcp.md).
		MCPTool: &MCPTool{
			Document: "openai/codex codex-rs (its main branch; the paths and their messages are in the 0.171.0 binary): config/src/hook_config.rs (HookHandlerConfig::McpTool: type \"mcp_tool\", server, tool, input, timeout in seconds, default 600, statusMessage; no async, no onFailure), " +
				"hooks/src/engine/mcp_runner.rs (each string of input has ${a.b} replaced by that member of the hook input; a string that is only ${member} becomes the member's own JSON value; a member the event lacks fails the hook), " +
				"core/src/hook_mcp_executor.rs (calls only a server already connected; the result's text items, joined, read as a command hook's stdout; isError fails the hook) and hooks/src/events/pre_tool_use.rs (a failed hook blocks nothing); " +
				"run with Codex CLI 0.171.0 in examples/realagents_codex_warm_test.go",
			// The members of PreToolUse's input, the one event the warm
			// form was run for: a member an event lacks fails its hook, and
			// a guard's failed hook lets the call run.
			Text:      []string{"hook_event_name", "session_id", "turn_id", "cwd", "model", "permission_mode", "tool_name", "tool_use_id"},
			JSON:      []string{"tool_input"},
			FailsOpen: "Codex CLI 0.171.0 runs the call when an mcp_tool hook fails: its MCP server not connected (never started, gone), the call past the hook's timeout, an error (isError), output it cannot read; it has no onFailure (one written there is ignored), and no setting changes that",
		},
	},
})

// codexConfig are Codex CLI's config.toml files, which hold its switches.
var codexConfig = map[Scope]string{User: ".codex/config.toml", Project: ".codex/config.toml"}
