package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// OpenHandsReplies is OpenHands' form of replies: its events name
// themselves by event_type, and it reads a top-level decision, reason,
// additionalContext and continue, never a hookSpecificOutput.
const OpenHandsReplies Replies = "openhands"

// OpenHands is the OpenHands agent's command line (PyPI openhands, on
// the OpenHands SDK, whose hooks module runs the hooks).
var OpenHands = add(&Agent{
	Name:    "openhands",
	Title:   "OpenHands",
	Version: "1.16.0",
	Document: "the 6 hook events of OpenHands 1.16.0 (PyPI openhands, on openhands-sdk 1.21.0: its module openhands.sdk.hooks, " +
		"types.py for the events and what a hook reads on stdin, executor.py for the replies it honours, manager.py and conversation_hooks.py for what each event does with them)",
	Replies: OpenHandsReplies,
	// It reads no new arguments: the action is blocked or it runs as the
	// model asked.
	Quirks: Quirks{NoNewArguments: true},
	Events: map[string]Step{
		"PreToolUse": {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		// What a PostToolUse hook answers is not read: the hook sees the
		// output, and cannot change it.
		"PostToolUse": {Calls: []Stage{AfterTool}},
		// The prompt as a before_llm call: messages a modify appends reach
		// the model as context of the prompt (additionalContext), a deny
		// blocks the prompt.
		"UserPromptSubmit": {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		// It carries no answer of the model, only why the agent stops.
		"Stop":         {Kind: protocol.KindTurnEnd, NewTurn: true},
		"SessionStart": {Kind: protocol.KindSessionStart},
		"SessionEnd":   {Kind: protocol.KindSessionEnd, EndsSession: true},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach the model as context of the prompt, abort_turn blocks the prompt; after_llm is never called",
		"respond cannot answer a tool call in OpenHands: it becomes a deny whose reason is the hook's result, which the model reads as \"Action rejected: \" and the reason",
		"OpenHands 1.16.0 takes no new arguments: a call a hook rewrote is denied, naming the new arguments",
		"OpenHands 1.16.0 reads nothing a PostToolUse hook answers: an after_tool modify does not reach the model, which reads the tool's own output (a redactor cannot hide a secret there), and an abort there does not stop the turn",
		"OpenHands shows its user no message of a hook: what hookwire says to the user is in the reply, which OpenHands keeps in its events, and in the session's log",
	},
	Install: Install{
		Document: "OpenHands 1.16.0's hooks module (openhands-sdk 1.21.0, openhands/sdk/hooks/config.py): the project's .openhands/hooks.json, else ~/.openhands/hooks.json (the first that exists, the other not read); " +
			"Claude Code's grouped shape, its events the file's own members or wrapped in \"hooks\" (then nothing else is read); plain JSON; a command hook's timeout in seconds, default 60",
		Files:      map[Scope]string{User: ".openhands/hooks.json", Project: ".openhands/hooks.json"},
		Bare:       true,
		Layout:     Grouped,
		Matcher:    "*",
		Command:    "command",
		Typed:      true,
		Timeout:    Timeout{Field: "timeout", Unit: time.Second, Default: 60 * time.Second},
		ProjectDir: "OPENHANDS_PROJECT_DIR",
		Shadows:    map[Scope]Scope{User: Project},
	},
})
