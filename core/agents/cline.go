package agents

import "github.com/hookwire/hookwire/core/protocol"

// ClineReplies is Cline's form of replies: an event named by "hookName"
// (tool_call, tool_result, ...), and, before a tool, {"cancel": true,
// "errorMessage": ...}, which ends the whole run, or nothing, which allows.
const ClineReplies Replies = "cline"

// Cline is Cline's CLI, whose hooks are files named after their event in
// a hooks folder, run with the event's JSON on stdin. Read in Cline CLI
// 3.0.65 (npm cline, its @cline/core 0.0.86: hooks/hook-file-config.ts and
// hook-file-hooks.ts of cline/cline, the bundled binary, and runs against a
// scripted model): a file of each folder whose name, case aside, is an
// event's with no extension or one of .sh, .py, .js and a few more, is run
// by its #! line (by bash without one), executable or not; a link is
// skipped. Only PreToolUse and PostToolUse are waited for: their last JSON
// object on stdout (or last line that starts "HOOK_CONTROL\t") is read, the
// exit code never; {"cancel": true} throws out of the agent loop, which
// ends the whole run (no call of that answer runs), and nothing, a
// timeout (120 s) or stdout that is not JSON lets the call run. The other
// events are started and not waited for; their output is not read.
var Cline = add(&Agent{
	Name:     "cline",
	Title:    "Cline",
	Version:  "3.0.65",
	Document: "the hook files of Cline CLI 3.0.65 (npm cline@3.0.65, @cline/core 0.0.86; sdk/packages/core/src/hooks of cline/cline, read 2026-11-28, and the binary run against a scripted model)",
	Replies:  ClineReplies,
	// Cline reads a hook's overrideInput as the whole new input; the bridge
	// does not write it: run_commands takes its commands in more shapes
	// than a rewrite in words every agent shares can say.
	Quirks: Quirks{NoNewArguments: true, EndsRun: true},
	Events: map[string]Step{
		"PreToolUse":       {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PostToolUse":      {Kind: protocol.KindToolExecEnd},
		"UserPromptSubmit": {Kind: protocol.KindTurnStart, NewTurn: true},
		"TaskStart":        {Kind: protocol.KindSessionStart},
		"TaskResume":       {Kind: "agent.task.resumed"},
		"TaskComplete":     {Kind: protocol.KindTurnEnd, NewTurn: true},
		"TaskError":        {Kind: "agent.task.failed"},
		"TaskCancel":       {Kind: "agent.task.cancelled"},
		"SessionShutdown":  {Kind: protocol.KindSessionEnd, EndsSession: true},
		"PreCompact":       {NotMapped: "Cline 3.0.65 runs no PreCompact file: its table of hook files maps the name to no event"},
	},
	Cannot: []string{
		"Cline stops a tool call only by ending the whole run ({\"cancel\": true}): a deny, an abort, a failed hook and a denied approval all end the run, with no call of the model's answer run, and the user is told the run was ended, never that one call was denied",
		"Cline 3.0.65's CLI shows its user \"aborted by another client\" for a run a hook ended, and writes the reason to its log (~/.cline/data/logs/cline.log); the model reads nothing of it, the run being over",
		"Cline lets a hook decide only whether a tool call runs (PreToolUse): before_llm, after_llm and after_tool are never called; the other events reach observers",
		"Cline takes no new arguments from the bridge: a call a hook rewrote ends the run, naming the new arguments",
		"respond cannot answer a tool call in Cline: it ends the run, with the hook's result as the reason",
		"Cline runs the tool when a hook prints nothing it reads, or times out (120 s): the bridge answers every PreToolUse with a decision of its own (none under --failure-policy open), and the hook file hookwire install writes ends the run itself when the bridge fails",
	},
	Install: Install{
		Document: "Cline CLI 3.0.65: hook files in ~/.cline/hooks (or $CLINE_DIR/hooks), ~/Documents/Cline/Hooks, PROJECT/.clinerules/hooks and PROJECT/.cline/hooks, every one of them run; a file per event, named after it",
		Files:    map[Scope]string{User: ".cline/hooks", Project: ".clinerules/hooks"},
		Layout:   Executables,
		FailsOpen: "Cline runs the tool when a hook file prints nothing it reads (the bridge missing or killed): the file hookwire install writes answers {\"cancel\": true} itself when the bridge fails, which ends the run; " +
			"and every cancel ends Cline's whole run, not the one call",
	},
})
