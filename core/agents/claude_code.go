package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// ClaudeReplies is Claude Code's form of replies.
const ClaudeReplies Replies = "claude-code"

// ClaudeCode is Anthropic's Claude Code. Its form of replies (hookSpecificOutput,
// decision block, continue false) is the one other agents write too
// (ClaudeReplies), each with its quirks.
var ClaudeCode = add(&Agent{
	Name:     "claude-code",
	Title:    "Claude Code",
	Version:  "2.1.332",
	Document: "the 34 hook events of Claude Code 2.1.332 (its own hook schema), with the hooks reference of code.claude.com/docs/en/hooks (May 2026) for their meaning",
	Replies:  ClaudeReplies,
	Events: map[string]Step{
		"PreToolUse":        {Calls: []Stage{BeforeTool, Approval}, Guard: true, Context: true},
		"PermissionRequest": {Calls: []Stage{Approval}, Guard: true},
		// A skill's inline shell command (!`command` in its SKILL.md) runs
		// when the skill is invoked, with no PreToolUse: since 2.1.332 this
		// event guards it, and a guard that did not see it would let a
		// cloned project's skill run what the guard denies. A skill cannot
		// wait for an approval, and Claude Code never applies new arguments.
		"PreSkillShellCommand": {Calls: []Stage{BeforeTool}, Guard: true},
		"PostToolUse":          {Calls: []Stage{AfterTool}, Context: true},
		"PostToolUseFailure":   {Calls: []Stage{AfterTool}, Context: true},
		"PostToolBatch":        {Kind: "agent.tool.batch_end"},
		// The prompt as a before_llm call: messages a modify appends reach
		// Claude as context of the prompt, abort_turn blocks the prompt.
		"UserPromptSubmit":    {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"UserPromptExpansion": {Kind: "agent.prompt.expansion"},
		// Claude's last answer of a turn as an after_llm call: context on
		// the answer keeps the turn going (once a turn: Claude says when it
		// already goes on for a stop hook, stop_hook_active).
		"Stop":               {Kind: protocol.KindTurnEnd, Calls: []Stage{AfterLLM}, KeepGoing: "block", NewTurn: true},
		"StopFailure":        {Kind: protocol.KindError},
		"SubagentStart":      {Kind: "agent.subagent.start"},
		"SubagentStop":       {Kind: protocol.KindTurnEnd},
		"SessionStart":       {Kind: protocol.KindSessionStart},
		"SessionEnd":         {Kind: protocol.KindSessionEnd, EndsSession: true},
		"Setup":              {Kind: "agent.setup"},
		"Notification":       {Kind: KindNotification},
		"MessageDisplay":     {Kind: "agent.message.display"},
		"PreCompact":         {Kind: KindCompact},
		"PostCompact":        {Kind: "agent.context.compacted"},
		"PreModelSwitch":     {Kind: "agent.model.switch"},
		"PostModelSwitch":    {Kind: "agent.model.switched"},
		"PermissionDenied":   {Kind: "agent.permission.denied"},
		"TeammateIdle":       {Kind: "agent.teammate.idle"},
		"TaskCreated":        {Kind: "agent.task.created"},
		"TaskCompleted":      {Kind: "agent.task.completed"},
		"ElicitationResult":  {Kind: "agent.elicitation.result"},
		"ConfigChange":       {Kind: "agent.config.change"},
		"WorktreeRemove":     {Kind: "agent.worktree.remove"},
		"InstructionsLoaded": {Kind: "agent.instructions.loaded"},
		"CwdChanged":         {Kind: "agent.cwd.changed"},
		"FileChanged":        {Kind: "agent.file.changed"},
		"DirectoryAdded":     {Kind: "agent.directory.added"},
		"Elicitation": {NotMapped: "an MCP server asks the user for input, and a hook would answer in the user's place: " +
			"the protocol has no call that answers with the user's input"},
		"WorktreeCreate": {NotMapped: "the hook replaces Claude Code's own creation of a worktree and prints the new worktree's path: " +
			"no protocol call creates a worktree or answers with a path"},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach Claude as context of the prompt (additionalContext), abort_turn blocks the prompt; tools cannot be added, nor other messages changed (serve plugin tools with `hookwire mcp`)",
		"after_llm is called once per turn, at Stop, with Claude's last answer: a modify cannot change the answer the user has read (it is shown as it was), and context on it keeps the turn going once a turn (Claude then says stop_hook_active, and a second request to go on is not passed on, so that no hook keeps Claude going forever)",
		"respond cannot answer a tool call in Claude Code: it becomes a deny whose reason is the hook's result, which Claude reads in place of the tool's",
		"an after_tool modify replaces the output Claude reads only where the new text fits the tool's output (text, Bash's stdout, Read's content, an MCP tool's text, or the tool's own JSON); elsewhere Claude reads the output unchanged, and you are told",
	},
	Install: Install{
		Document:   "Claude Code 2.1.332's settings schema (hooks, disableAllHooks, a command hook's timeout in seconds) and the hooks reference of code.claude.com/docs/en/hooks (May 2026: the files per scope, a command hook's default timeout of 600 s)",
		Files:      map[Scope]string{User: ".claude/settings.json", Project: ".claude/settings.json", Local: ".claude/settings.local.json"},
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 600 * time.Second},
		ProjectDir: "CLAUDE_PROJECT_DIR",
		Switches:   []Switch{{Path: []string{"disableAllHooks"}, Off: true}},
		MCPTool: &MCPTool{
			Document: "Claude Code 2.1.331's settings schema of an mcp_tool hook (type, server, tool, input, if, timeout, onFailure, statusMessage, once; since 2.1.118) and of enabledMcpjsonServers, and its code: " +
				"each string of input has ${path} replaced by that member of the hook input, an object as its JSON, a missing one as empty; there is no ${...} for the whole input",
			Text: []string{"hook_event_name", "session_id", "transcript_path", "cwd", "permission_mode", "agent_id", "agent_type",
				"tool_name", "tool_use_id", "error", "prompt", "last_assistant_message", "source", "model", "reason", "message", "notification_type", "trigger",
				"command_name", "command_source", "invoked_by"},
			JSON: []string{"tool_input", "tool_response", "permission_suggestions", "stop_hook_active", "is_interrupt"},
			// 2.1.331 reads a user's MCP servers from ~/.claude.json, its
			// own state file, and not from ~/.claude/settings.json (run:
			// docs/bridge-mcp.md); a project's from .mcp.json, started only
			// once enabledMcpjsonServers names them.
			Servers: map[Scope]string{User: ".claude.json", Project: ".mcp.json", Local: ".mcp.json"},
			Enable:  "enabledMcpjsonServers",
		},
	},
})
