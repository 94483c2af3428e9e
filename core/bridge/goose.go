package bridge

import "github.com/hookwire/hookwire/core/agents"

// The form of Goose's replies.
var _ = addForm(agents.GooseReplies, replyForm{parse: gooseParse, decide: gooseDecide})

// gooseParse reads a Goose event into the bridge's members: its name is
// "event", its folder "working_dir", a tool's output "tool_output".
func gooseParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	if name, ok := fields["event"].(string); ok {
		fields["hook_event_name"] = name
	}
	if dir, ok := fields["working_dir"].(string); ok {
		fields["cwd"] = dir
	}
	if output, ok := fields["tool_output"]; ok {
		fields["tool_response"] = output
	}
	return eventOf(fields)
}

// gooseDecide writes a decision as Goose reads it: before a tool, a block
// with its reason, or nothing, which allows; Goose reads nothing of the
// other events.
func gooseDecide(a *agents.Agent, ev Event, o outcome) Reply {
	return blockOnly(a, o, func(reason string, failed bool) Reply {
		if failed {
			reason = "hookwire blocked the call: " + reason
		}
		return Reply{Stdout: encode(map[string]any{"decision": "block", "reason": reason})}
	})
}
