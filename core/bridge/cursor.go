package bridge

import (
	"encoding/json"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of Cursor's replies.
var _ = addForm(agents.CursorReplies, replyForm{parse: cursorParse, decide: cursorDecide, message: "user_message", llm: claudePrompt{}})

// cursorParse reads a Cursor event into the bridge's members: session_id is
// its conversation_id, and each action before and after which Cursor asks
// (a shell command, an MCP tool, a file read) is a tool call: tool_name,
// tool_input and tool_response.
func cursorParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	if _, ok := fields["session_id"].(string); !ok {
		if conversation, ok := fields["conversation_id"].(string); ok {
			fields["session_id"] = conversation
		}
	}
	name, _ := fields["hook_event_name"].(string)
	switch name {
	case "beforeShellExecution", "afterShellExecution":
		fields["tool_name"] = "Shell"
		fields["tool_input"] = map[string]any{"command": fields["command"]}
		fields["tool_response"] = fields["output"]
	case "beforeMCPExecution", "afterMCPExecution":
		if input, ok := fields["tool_input"].(string); ok {
			var args map[string]any
			json.Unmarshal([]byte(input), &args)
			fields["tool_input"] = args
		}
		fields["mcp_context"] = map[string]any{"url": fields["url"], "command": fields["command"]}
		fields["tool_response"] = fields["result_json"]
	case "beforeReadFile":
		fields["tool_name"] = "Read"
		fields["tool_input"] = map[string]any{"file_path": fields["file_path"]}
	}
	return eventOf(fields)
}

// cursorDecide writes a decision as Cursor reads it: permission allow or
// deny, with user_message for the user and agent_message for the model;
// updated_input at preToolUse; continue false at beforeSubmitPrompt. A guard
// whose hook cannot answer is denied here: Cursor runs the action when a
// hook fails, unless its hooks.json says failClosed.
func cursorDecide(_ *agents.Agent, ev Event, o outcome) Reply {
	deny := func(user, agent string) Reply {
		return Reply{Stdout: encode(map[string]any{"permission": "deny", "user_message": user, "agent_message": agent})}
	}
	if o.failure != "" {
		if !o.step.Guard || o.failOpen {
			return Reply{Stdout: encode(map[string]any{"user_message": o.problem()})}
		}
		return deny(o.problem(), "hookwire blocked the call: "+o.failure)
	}
	if d := o.ended; d != nil {
		reason := d.because()
		if d.action == protocol.ActionRespond {
			reason = d.forLLM
		}
		if ev.Name == "beforeSubmitPrompt" {
			return Reply{Stdout: encode(map[string]any{"continue": false, "user_message": reason})}
		}
		if o.step.Guard {
			return deny(reason, reason)
		}
		return Reply{}
	}
	if !o.step.Guard {
		return Reply{Stdout: "{}"}
	}
	a := o.approval
	if a != nil && a.denied() && !a.byDefault {
		return deny(a.because(), a.because())
	}
	out := map[string]any{}
	switch {
	case o.args != nil && ev.Name != "preToolUse": // the one event that takes updated_input
		why := "Cursor cannot take a rewritten call at " + ev.Name + ": a hook rewrote it to " + encode(o.args)
		return deny(why, why)
	case o.args != nil:
		out["permission"], out["updated_input"] = "allow", o.args
	case a != nil && !a.byDefault:
		out["permission"] = "allow"
	}
	return Reply{Stdout: encode(out)}
}
