package bridge

import (
	"strings"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of Mistral Vibe's replies.
var _ = addForm(agents.VibeReplies, replyForm{parse: vibeParse, decide: vibeDecide, toolResult: vibeToolResult,
	message: "system_message", context: vibeContext})

// vibeParse reads a Vibe event into the bridge's members: its call's id
// is "tool_call_id".
func vibeParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	if id, ok := fields["tool_call_id"].(string); ok {
		fields["tool_use_id"] = id
	}
	return eventOf(fields)
}

// vibeDecide writes a decision as Vibe reads it: {"decision": "deny",
// "reason"} denies a call before a tool and, after it, replaces the output
// the model reads with the reason; new arguments go in
// hook_specific_output.tool_input; nothing goes on. Vibe takes a failed
// hook for one it may pass over, and runs the tool unless the entry is
// strict: a guard the hook cannot answer is denied here.
func vibeDecide(a *agents.Agent, ev Event, o outcome) Reply {
	deny := func(reason string) Reply {
		return Reply{Stdout: encode(map[string]any{"decision": "deny", "reason": reason})}
	}
	switch {
	case o.failure != "" && o.step.Guard && !o.failOpen:
		// Vibe shows its user nothing of a deny but its reason, which the
		// model reads too: the message to the user, with where the
		// session's log is, without the hook's stderr.
		told := o
		told.stderr = nil
		return deny(strings.Replace(told.problem(), "hookwire: ", "hookwire blocked the call: ", 1))
	case o.failure != "":
		return Reply{Stdout: encode(map[string]any{"system_message": o.problem()})}
	case o.ended != nil && o.ended.action == protocol.ActionRespond:
		return deny(o.ended.forLLM)
	case o.ended != nil:
		return deny(o.ended.because())
	case o.step.Guard && o.approval != nil && o.approval.denied() && !o.approval.byDefault:
		return deny(o.approval.because())
	case o.step.Guard && o.args != nil:
		return Reply{Stdout: encode(map[string]any{"hook_specific_output": map[string]any{"tool_input": o.args}})}
	case o.result != nil:
		return deny(*o.result)
	}
	return Reply{} // an allow: Vibe's own permission rules decide
}

// vibeContext adds text for the model after a tool's output, where Vibe
// reads it: hook_specific_output.additional_context.
func vibeContext(r Reply, _ Event, text string) Reply {
	return withContextAt(r, "hook_specific_output", "additional_context", text, nil)
}

// vibeToolResult is a tool's outcome as post_tool carries it: the text the
// model will read (tool_output_text), an error where tool_status says the
// tool failed.
func vibeToolResult(ev Event) protocol.ToolResult {
	r := protocol.ToolResult{ForLLM: ev.str("tool_output_text")}
	if ev.str("tool_status") == "failure" {
		yes := true
		r.IsError = &yes
	}
	return r
}
