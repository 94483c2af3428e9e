package agents

import (
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// WindsurfReplies is Windsurf's form of replies: an exit code alone. Cascade
// reads no JSON from a hook; exit code 2 blocks the action of a pre-hook,
// and the agent reads the hook's stderr.
const WindsurfReplies Replies = "windsurf"

// windsurfReference is the reference every fact below comes from. Windsurf
// is an editor (Cascade is its agent) and does not run here: nothing of it
// was checked against a running Windsurf.
const windsurfReference = "Windsurf's Cascade Hooks reference (docs.windsurf.com/windsurf/cascade/hooks, its twelve-event version with post_cascade_response_with_transcript and the cloud dashboard, read in November 2026; the page names no version of Windsurf)"

// Windsurf is Windsurf's agent, Cascade, whose hooks block by exit code.
var Windsurf = add(&Agent{
	Name:  "windsurf",
	Title: "Windsurf",
	Document: "the 12 hook events of " + windsurfReference + ", from the reference alone: Windsurf is an editor, not run by hookwire's tests; " +
		"each event is {agent_action_name, trajectory_id (the conversation), execution_id (the turn), timestamp, tool_info}",
	TurnID:  "execution_id",
	Replies: WindsurfReplies,
	Quirks:  Quirks{NoNewArguments: true, PromptBlockOnly: true},
	// The reference names no timeout for a hook, and asks for hooks well
	// under a second: as short as Cursor's, the other editor's.
	Deadline: 25 * time.Second,
	Events: map[string]Step{
		"pre_run_command":                       {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"pre_read_code":                         {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"pre_write_code":                        {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"pre_mcp_tool_use":                      {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"post_run_command":                      {Kind: protocol.KindToolExecEnd},
		"post_read_code":                        {Kind: protocol.KindToolExecEnd},
		"post_write_code":                       {Kind: protocol.KindToolExecEnd},
		"post_mcp_tool_use":                     {Kind: protocol.KindToolExecEnd},
		"pre_user_prompt":                       {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"post_cascade_response":                 {Kind: protocol.KindTurnEnd, NewTurn: true},
		"post_cascade_response_with_transcript": {Kind: "agent.transcript"},
		"post_setup_worktree":                   {Kind: "agent.worktree.setup"},
	},
	Cannot: []string{
		"Windsurf reads no JSON from a hook, only its exit code: 2 blocks a pre-hook's action and Cascade's model reads the hook's stderr; any other code lets the action go on",
		"Windsurf asks nothing after an action: after_tool and after_llm are never called, and observers get the post_* events instead",
		"at pre_user_prompt, before_llm can only block the prompt (abort_turn): Windsurf takes no context or new prompt from a hook",
		"Windsurf takes no new arguments: a call a hook rewrote is blocked, naming the new arguments",
		"respond cannot answer a tool call in Windsurf: the call is blocked, and the model reads the result as the reason",
		"abort_turn and hard_abort cannot stop Cascade's turn at a tool call: the call is blocked with the reason, and so is every later tool call of the turn (its execution_id), until the next prompt",
		"Windsurf runs the action when a hook fails with any exit code but 2: the bridge answers a hook it cannot ask with exit code 2 itself (no decision under --failure-policy open), within 25 s (--deadline), but a bridge that cannot start at all lets every action through",
		"Windsurf shows a hook's messages to its user only where the entry says \"show_output\": true (never at pre_user_prompt): hookwire install writes it",
	},
	Install: Install{
		Document: windsurfReference + ": the user's ~/.codeium/windsurf/hooks.json and the workspace's .windsurf/hooks.json (the system's /etc/windsurf/hooks.json, and the cloud dashboard, are for administrators: install writes neither), " +
			"hooks.EVENT a list of entries {command, show_output, working_directory}, no matcher and no timeout member",
		Files:      map[Scope]string{User: ".codeium/windsurf/hooks.json", Project: ".windsurf/hooks.json"},
		Layout:     Listed,
		Command:    "command",
		ShowOutput: "show_output",
		FailsOpen: "Windsurf lets the action go on when a hook exits with any code but 2, or cannot be run at all, and has no setting that fails closed: " +
			"the bridge answers with exit code 2 whenever it cannot ask the hook, but if hookwire-bridge itself is missing or cannot start, Cascade runs every command, read, write and MCP call unguarded",
	},
})
