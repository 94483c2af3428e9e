package bridge

import (
	"strings"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of Windsurf's replies: an exit code, and stderr.
var _ = addForm(agents.WindsurfReplies, replyForm{parse: windsurfParse, decide: windsurfDecide,
	event: "agent_action_name", stderrOnly: true, llm: claudePrompt{}})

// windsurfTools are the bridge's tool calls (schema/tools.json) for the
// action of each pair of Cascade's events (pre_run_command and
// post_run_command: run_command), with the argument each member of its
// tool_info is. An MCP call is named by its tool.
var windsurfTools = map[string]map[string]string{
	"run_command": {"command_line": "command", "cwd": "cwd"},
	"read_code":   {"file_path": "file_path"},
	"write_code":  {"file_path": "file_path", "edits": "edits"},
}

// windsurfParse reads a Cascade event into the bridge's members: its
// agent_action_name is hook_event_name, its trajectory_id (the
// conversation) session_id, and tool_info becomes the tool call
// (tool_name, tool_input, mcp_context, tool_response), the working folder
// (cwd) or the prompt.
func windsurfParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	name, _ := fields["agent_action_name"].(string)
	fields["hook_event_name"] = name
	if trajectory, ok := fields["trajectory_id"].(string); ok {
		fields["session_id"] = trajectory
	}
	info, _ := fields["tool_info"].(map[string]any)
	action := strings.TrimPrefix(strings.TrimPrefix(name, "pre_"), "post_")
	switch members, ok := windsurfTools[action]; {
	case ok:
		input := map[string]any{}
		for member, arg := range members {
			if v, ok := info[member]; ok {
				input[arg] = v
			}
		}
		fields["tool_name"], fields["tool_input"] = action, input
		if cwd, ok := info["cwd"].(string); ok {
			fields["cwd"] = cwd
		}
	case action == "mcp_tool_use":
		fields["tool_name"] = info["mcp_tool_name"]
		args, _ := info["mcp_tool_arguments"].(map[string]any)
		fields["tool_input"] = args
		fields["mcp_context"] = map[string]any{"server_name": info["mcp_server_name"]}
		fields["tool_response"] = info["mcp_result"]
	case action == "user_prompt":
		fields["prompt"] = info["user_prompt"]
	}
	return eventOf(fields)
}

// windsurfDecide writes a decision as Windsurf reads it: exit code 2
// blocks a pre-hook's action, and Cascade's model reads stderr as the
// reason; exit code 0 lets it go on, under Windsurf's own rules. Windsurf
// runs the action when a hook fails, so a guard whose hook cannot answer
// is blocked here, and a rewritten call too: Windsurf takes no new
// arguments, and the call the hook did not want is not to run.
func windsurfDecide(a *agents.Agent, ev Event, o outcome) Reply {
	block := func(reason string) Reply { return Reply{Exit: 2, Stderr: reason} }
	if o.failure != "" {
		if !o.step.Guard || o.failOpen {
			return Reply{Stderr: o.problem()}
		}
		return block(o.problem())
	}
	if d := o.ended; d != nil {
		reason := d.because()
		if d.action == protocol.ActionRespond {
			reason = d.forLLM
		}
		if o.step.Guard || ev.Name == a.PromptEvent() {
			return block(reason)
		}
		return Reply{} // after the action: nothing left to block
	}
	if !o.step.Guard {
		return Reply{}
	}
	switch d := o.approval; {
	case d != nil && d.denied() && !d.byDefault:
		return block(d.because())
	case o.args != nil:
		return block(a.Title + " cannot take a rewritten call: a hook rewrote it to " + encode(o.args))
	}
	return Reply{} // allowed, or no opinion: Windsurf's own rules decide
}
