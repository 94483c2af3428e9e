package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// VibeReplies is Mistral Vibe's form of replies: {"decision": "deny",
// "reason"} to deny, hook_specific_output for new arguments or context,
// system_message for its user.
const VibeReplies Replies = "mistral-vibe"

// vibeSource is where every fact below was read: Vibe 3.0.2's wheel, whose
// hooks run in its Python harness (the Rust CLI, vibe-rs, hands each hook
// point to it), and its own documentation of hooks, the builtin "vibe"
// skill. The public repository's newest tag is 2.18.4, before the harness.
const vibeSource = "Mistral Vibe 3.0.2 (PyPI mistral-vibe; 3.0.3 pins a certifi release the index does not have): " +
	"mistralai_vibe_local_harness/vibe/_foreign_hooks.py and _hook_matcher.py of its wheel, which run the hooks, " +
	"vibe/core/hooks/models.py and config.py (a hook's fields) and vibe/core/skills/builtins/vibe.py (its hooks documentation)"

// MistralVibe is Mistral AI's Vibe CLI, whose command hooks are declared in
// hooks.toml files: [[hooks]] entries with a name, a type (pre_tool,
// post_tool or post_agent), a command run by the shell in the session's
// folder, a match on the tool's name, a timeout and strict. A hook reads
// {hook_event_name, session_id, transcript_path, cwd, parent_session_id,
// tool_name (file_system.bash), tool_call_id, tool_input}; post_tool adds
// tool_status, tool_output, tool_output_text and tool_error. It answers
// with exit code 0 and an empty stdout (go on) or a JSON object; anything
// else (another exit code, a timeout, stdout that is not such an object)
// is a failed hook, after which Vibe runs the tool unless the entry says
// strict = true. Run here: the model reads a pre_tool deny's reason as the
// tool's result, a rewrite runs, a post_tool deny's reason (and
// additional_context after it) replaces the output the model reads, and a
// post_agent deny's reason reaches the model as the user's next message.
var MistralVibe = add(&Agent{
	Name:     "mistral-vibe",
	Title:    "Mistral Vibe",
	Version:  "3.0.2",
	Document: "the 3 hook types of " + vibeSource + "; the event samples are what the pinned Vibe wrote, run against a scripted model",
	// Vibe runs the calls of one answer at once, each with its own chain
	// of hooks.
	AsksAtOnce: true,
	Replies:    VibeReplies,
	Quirks:     Quirks{ContextMember: "hook_specific_output.additional_context"},
	// Vibe sends no event when a session ends: each headless run (-p)
	// would leave its session's server and hook running for the whole of
	// DefaultIdle.
	Idle:    5 * time.Minute,
	IdleWhy: "Vibe sends no event when a session ends, so each headless run (`-p`) would leave its session's server and hook running for 30 minutes; an interactive session quiet for longer starts its hook again at its next event, and the hook's state starts anew",
	Events: map[string]Step{
		"pre_tool":  {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"post_tool": {Kind: protocol.KindToolExecEnd, Calls: []Stage{AfterTool}, Context: true},
		// The end of a turn carries no answer: it ends an aborted turn, and
		// observers get it.
		"post_agent": {Kind: protocol.KindTurnEnd, NewTurn: true},
	},
	Cannot: []string{
		"Mistral Vibe has no event before a model request or at the prompt: before_llm is never called; its end of a turn (post_agent) carries no answer, so after_llm is never called either",
		"Mistral Vibe takes no allow from a hook: an approval lets the call go on to Vibe's own permission rules (--auto-approve, its agent's profile)",
		"respond cannot answer a tool call in Mistral Vibe: it becomes a deny whose reason, the hook's result, the model reads as the tool's result",
		"abort_turn and hard_abort cannot stop Vibe's turn: the tool call is denied with the reason (after a tool, the reason replaces its output), and so is every later tool call of the turn, until its end (post_agent)",
		"Mistral Vibe shows its user no message of a hook that denies a call: the reason of a blocked call is what the user and the model read",
	},
	Install: Install{
		Document: vibeSource + ": ~/.vibe/hooks.toml ($VIBE_HOME/hooks.toml) and PROJECT/.vibe/hooks.toml, the project's loaded only in a folder ~/.vibe/trusted_folders.toml trusts (the closest folder it names, trusted or untrusted, decides) or run with --trust; " +
			"an entry's name is required and unique, its timeout in seconds (default 60), its match a glob on the tool's name (default *), and strict = true makes a failed pre_tool hook deny the call. " +
			"Checked with Vibe 3.0.2 run with -p (offline): a project's hooks load in a trusted folder and with --trust, not in another; a pre_tool hook that exits 1 lets the call run, and with strict = true denies it",
		Files:   map[Scope]string{User: ".vibe/hooks.toml", Project: ".vibe/hooks.toml"},
		TOML:    &TOMLHooks{Table: "hooks", EventKey: "type", MatcherKey: "match", UniqueNames: true},
		Command: "command",
		Named:   true,
		Matcher: "*",
		Timeout: Timeout{Field: "timeout", Unit: time.Second, Default: 60 * time.Second},
		Trust:   &Trust{File: ".vibe/trusted_folders.toml", Lists: true, Asks: "vibe --trust trusts it for one run only"},
		Strict:  "strict",
		// VIBE_HOME moves ~/.vibe: its hooks.toml and its trust rules.
		UserFileEnv: "VIBE_HOME",
		FailsOpen: "Mistral Vibe runs the tool when a pre_tool hook fails (a non-zero exit, a timeout, output it cannot read, a hook it cannot start) unless its entry says strict = true: " +
			"hookwire install writes strict = true on the guard's entries, so that a bridge that is missing, killed or stopped at Vibe's timeout blocks the call; without it, such a failure lets every tool call through",
	},
})
