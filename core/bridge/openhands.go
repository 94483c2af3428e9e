package bridge

import (
	"fmt"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of OpenHands' replies.
var _ = addForm(agents.OpenHandsReplies, replyForm{parse: openHandsParse, decide: openHandsDecide, toolResult: openHandsToolResult, llm: claudePrompt{}})

// openHandsParse reads an OpenHands event into the bridge's members: its
// event_type is the hook_event_name, working_dir the cwd, a prompt's
// message the prompt. An event without a session (the SDK's session_id
// may be null) is of the session of its folder.
func openHandsParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	if _, ok := fields["hook_event_name"]; !ok {
		fields["hook_event_name"] = fields["event_type"]
	}
	if _, ok := fields["session_id"].(string); !ok {
		fields["session_id"] = fields["working_dir"]
	}
	if _, ok := fields["cwd"]; !ok {
		fields["cwd"] = fields["working_dir"]
	}
	if fields["hook_event_name"] == "UserPromptSubmit" {
		fields["prompt"] = fields["message"]
	}
	return eventOf(fields)
}

// openHandsDecide writes a decision as OpenHands reads it: a top-level
// decision "deny" with its reason blocks a tool call or a prompt (the
// model reads "Action rejected: " and the reason), additionalContext on a
// prompt reaches the model. Nothing else it answers is read: an allow
// changes nothing, and what a hook answers after a tool is dropped.
func openHandsDecide(agent *agents.Agent, ev Event, o outcome) Reply {
	deny := func(reason string) Reply {
		return Reply{Stdout: encode(map[string]any{"decision": "deny", "reason": reason})}
	}
	if o.failure != "" {
		var block map[string]any
		if o.step.Guard {
			block = map[string]any{"decision": "deny", "reason": "hookwire blocked the call: " + o.failure}
		}
		return blockedOrWarned(o, block)
	}
	if d := o.ended; d != nil {
		switch {
		case d.action == protocol.ActionRespond:
			return deny(d.forLLM)
		case o.step.Guard || ev.Name == agent.PromptEvent():
			return deny(d.because())
		}
		// Past a tool, and at the end of a turn (where a deny keeps the
		// agent going), an abort has no form: the turn ends as it would.
		return Reply{}
	}
	if context, _ := o.llm["additionalContext"].(string); context != "" {
		return Reply{Stdout: encode(map[string]any{"additionalContext": context})}
	}
	if o.result != nil && o.once("output of "+ev.str("tool_name")) {
		return Reply{Stdout: encode(map[string]any{"systemMessage": fmt.Sprintf(
			"hookwire: %s reads nothing a hook answers after a tool: the model reads the output of %s unchanged, not what a hook made of it", agent.TitleVersion(), ev.str("tool_name"))})}
	}
	if !o.step.Guard {
		return Reply{}
	}
	switch a := o.approval; {
	case a != nil && !a.byDefault && a.denied():
		return deny(a.because())
	case o.args != nil && agent.Quirks.NoNewArguments:
		return deny(agent.Title + " cannot take a rewritten call: a hook rewrote it to " + encode(o.args))
	case a != nil && !a.byDefault:
		allow := map[string]any{"decision": "allow"}
		if a.reason != "" {
			allow["reason"] = a.reason
		}
		return Reply{Stdout: encode(allow)}
	}
	return Reply{}
}

// openHandsToolResult is a tool's outcome as PostToolUse carries it: the
// observation, whose content is a list of text blocks, and is_error.
func openHandsToolResult(ev Event) protocol.ToolResult {
	response := ev.object("tool_response")
	out := protocol.ToolResult{ForLLM: claudeToolText(response["content"])}
	if isError, ok := response["is_error"].(bool); ok {
		out.IsError = &isError
	}
	return out
}
