package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// KimiReplies is Kimi CLI's form of replies: exit code 2 blocks, and the
// model reads the hook's stderr as the tool's error. Kimi CLI reads a JSON
// deny too (hookSpecificOutput.permissionDecision), and nothing else.
const KimiReplies Replies = "kimi-cli"

// kimiSource is where every fact below was read: the package that PyPI
// serves as kimi-cli 1.51.0 (the last release of the Python Kimi CLI;
// 1.52.0 is a stub that points to another product), run here against a
// scripted model.
const kimiSource = "Kimi CLI 1.51.0 (PyPI kimi-cli; its src/kimi_cli/hooks/config.py, runner.py, engine.py and events.py, soul/toolset.py and soul/kimisoul.py, and the package run against a scripted model)"

// KimiCLI is Moonshot AI's Kimi CLI, whose hooks are [[hooks]] tables of
// its config.toml. Read in 1.51.0: a hook reads {hook_event_name,
// session_id, cwd, ...}, with tool_name, tool_input and tool_call_id around
// a tool (tool_output after it, its first 2000 characters). Of a hook's
// answer Kimi CLI reads exit code 2 (the reason is its stderr) or, with
// exit code 0, hookSpecificOutput.permissionDecision "deny" (the reason
// permissionDecisionReason), and only at PreToolUse (the call is not run;
// the model reads the reason as the tool's error), UserPromptSubmit (the
// turn does not run; the reason is its answer) and Stop (one more turn,
// with the reason as the user's message). Any other answer, a crash or a
// timeout lets Kimi CLI go on, by design ("fail-open"): it has no setting
// that fails closed. The hooks of an event run at once; the calls of one
// model answer are handled as they stream, so their PreToolUse events
// arrive together.
var KimiCLI = add(&Agent{
	Name:       "kimi-cli",
	Title:      "Kimi CLI",
	Version:    "1.51.0",
	Document:   "the 13 hook events of " + kimiSource + ": HookEventType in hooks/config.py",
	Replies:    KimiReplies,
	AsksAtOnce: true,
	Quirks:     Quirks{NoNewArguments: true, PromptBlockOnly: true},
	// Below the 30 seconds Kimi CLI gives a hook by default: past it, the
	// hook has failed, and Kimi CLI runs the tool.
	Deadline: 25 * time.Second,
	Events: map[string]Step{
		"PreToolUse":         {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PostToolUse":        {Kind: protocol.KindToolExecEnd},
		"PostToolUseFailure": {Kind: protocol.KindToolExecEnd},
		// The prompt as a before_llm call that can only block it: Kimi CLI
		// reads no context from a hook.
		"UserPromptSubmit": {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		// Kimi CLI's Stop carries no answer of the model for after_llm.
		"Stop":          {Kind: protocol.KindTurnEnd, NewTurn: true},
		"StopFailure":   {Kind: protocol.KindError},
		"SessionStart":  {Kind: protocol.KindSessionStart},
		"SessionEnd":    {Kind: protocol.KindSessionEnd, EndsSession: true},
		"SubagentStart": {Kind: "agent.subagent.start"},
		"SubagentStop":  {Kind: protocol.KindTurnEnd},
		"PreCompact":    {Kind: KindCompact},
		"PostCompact":   {Kind: "agent.context.compacted"},
		"Notification":  {Kind: KindNotification},
	},
	Cannot: []string{
		"Kimi CLI lets a hook decide only whether a tool call runs (PreToolUse) and whether a prompt runs (UserPromptSubmit): after_llm and after_tool are never called, and the other events reach observers",
		"at UserPromptSubmit, before_llm can only block the prompt (abort_turn): Kimi CLI takes no context or new prompt from a hook, and shows the reason as the turn's answer",
		"Kimi CLI takes no new arguments: a call a hook rewrote is blocked, naming the new arguments",
		"respond cannot answer a tool call in Kimi CLI: the call is blocked, and the model reads the result as the reason",
		"abort_turn and hard_abort cannot stop Kimi CLI's turn at a tool call: the call is blocked with the reason, and so is every later tool call of the turn, until the next prompt (UserPromptSubmit) or Stop",
		"Kimi CLI reads nothing of a hook's answer but a block and its reason: the bridge's messages for the user (a systemMessage elsewhere) are in its log only",
		"Kimi CLI runs the tool when a hook fails, exits with a code other than 2 or times out (fail-open by design, with no setting that fails closed): the bridge answers a hook it cannot ask with exit code 2 itself (no decision under --failure-policy open), within 25 s (--deadline), below Kimi CLI's default timeout of 30 s; a bridge that cannot start lets every call through",
	},
	Install: Install{
		Document: kimiSource + ": the hooks are [[hooks]] tables of the user's ~/.kimi/config.toml ($KIMI_SHARE_DIR/config.toml where that is set; there is no project file), " +
			"each {event, command, matcher (a regular expression searched in the tool's name; empty, every tool), timeout (seconds, 1 to 600, default 30)}; Kimi CLI does not start while its config.toml does not parse or a value is out of range; it writes the file again from what it read (config.py's save_config: /login, /model, its setup), which drops every comment, hookwire's block's two lines too",
		Files:       map[Scope]string{User: ".kimi/config.toml"},
		UserFileEnv: "KIMI_SHARE_DIR",
		Command:     "command",
		Timeout:     Timeout{Field: "timeout", Unit: time.Second, Default: 30 * time.Second},
		TOML:        &TOMLHooks{Table: "hooks", EventKey: "event", MatcherKey: "matcher"},
		FailsOpen: "Kimi CLI runs the tool when a hook exits with any code but 2, crashes or times out, and has no setting that fails closed: " +
			"the bridge answers with exit code 2 whenever it cannot ask the hook, but if hookwire-bridge itself is missing or cannot start, Kimi CLI runs every tool call unguarded",
	},
})
