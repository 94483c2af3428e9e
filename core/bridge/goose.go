package bridge

import (
	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

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
// Goose takes a hook that fails or says neither for one it may pass over,
// and runs the tool: a guard the hook cannot answer is blocked here.
func gooseDecide(a *agents.Agent, ev Event, o outcome) Reply {
	block := func(reason string) Reply {
		return Reply{Stdout: encode(map[string]any{"decision": "block", "reason": reason})}
	}
	switch {
	case !o.step.Guard:
		if o.failure != "" {
			return Reply{Stderr: o.problem()}
		}
		return Reply{}
	case o.failure != "" && o.failOpen:
		return Reply{Stderr: o.problem()}
	case o.failure != "":
		r := block("hookwire blocked the call: " + o.failure)
		r.Stderr = o.problem()
		return r
	case o.ended != nil && o.ended.action == protocol.ActionRespond:
		return block(o.ended.forLLM)
	case o.ended != nil:
		return block(o.ended.because())
	case o.approval != nil && o.approval.denied() && !o.approval.byDefault:
		return block(o.approval.because())
	case o.args != nil:
		return block(a.Title + " cannot take a rewritten call: a hook rewrote it to " + encode(o.args))
	}
	return Reply{} // an allow: Goose's own mode decides
}
