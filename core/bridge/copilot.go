package bridge

import (
	"encoding/json"
	"errors"
	"maps"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of Copilot CLI's replies.
var _ = addForm(agents.CopilotReplies, replyForm{parse: copilotParse, decide: copilotDecide})

// copilotPascal are the PascalCase event names of Copilot CLI's Claude Code
// form, by the camelCase name of the same event.
var copilotPascal = map[string]string{
	"PreToolUse":        "preToolUse",
	"PermissionRequest": "permissionRequest",
	"PostToolUse":       "postToolUse",
	"UserPromptSubmit":  "userPromptSubmitted",
	"Stop":              "agentStop",
	"SubagentStop":      "subagentStop",
	"ErrorOccurred":     "errorOccurred",
	"SessionStart":      "sessionStart",
	"SessionEnd":        "sessionEnd",
	"Notification":      "notification",
}

// copilotShapes name a camelCase event that comes without its name by the
// member only it has, in this order.
var copilotShapes = []struct{ member, event string }{
	{"toolResult", "postToolUse"},
	{"toolName", "preToolUse"},
	{"prompt", "userPromptSubmitted"},
	{"error", "errorOccurred"},
	{"initialPrompt", "sessionStart"},
	{"source", "sessionStart"},
	{"reason", "sessionEnd"},
	{"stopReason", "agentStop"},
}

// copilotParse reads either form of a Copilot CLI event into the bridge's
// members: hook_event_name (the camelCase name), session_id, tool_name,
// tool_input (an object, where the camelCase form has a JSON string) and
// tool_response. The camelCase form's session is its sessionId (none in
// the reference's examples: then the events of a folder and hook share one
// server).
func copilotParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	name, _ := fields["hook_event_name"].(string)
	if name == "" {
		name, _ = fields["hookEventName"].(string)
	}
	for _, s := range copilotShapes {
		if _, ok := fields[s.member]; ok && name == "" {
			name = s.event
		}
	}
	if name == "" {
		return Event{}, errors.New("the event has no hook_event_name string, and none of the members that name a camelCase event")
	}
	if camel, ok := copilotPascal[name]; ok {
		fields["agent_event_name"] = name // the form it came in, for the reply
		name = camel
	}
	fields["hook_event_name"] = name
	if _, ok := fields["session_id"].(string); !ok {
		session, _ := fields["sessionId"].(string)
		fields["session_id"] = session
	}
	if tool, ok := fields["toolName"].(string); ok {
		fields["tool_name"] = tool
	}
	switch args := fields["toolArgs"].(type) {
	case string:
		var input map[string]any
		if json.Unmarshal([]byte(args), &input) == nil {
			fields["tool_input"] = input
		}
	case map[string]any:
		fields["tool_input"] = args
	}
	if result, ok := fields["toolResult"].(map[string]any); ok {
		fields["tool_response"] = result["textResultForLlm"]
	}
	return eventOf(fields)
}

// copilotDecide writes a decision as Copilot CLI reads it: permissionDecision,
// permissionDecisionReason and modifiedArgs for preToolUse, behavior and
// message for permissionRequest, at the top level; an event that came in the
// PascalCase form gets the same in Claude Code's hookSpecificOutput too.
// Copilot CLI takes a failed or timed-out hook for an allow, so a guard the
// hook cannot answer is denied here, in JSON, with exit code 0.
func copilotDecide(_ *agents.Agent, ev Event, o outcome) Reply {
	deny := func(reason string) Reply { return copilotPermission(ev, "deny", reason, nil) }
	if o.failure != "" {
		if !o.step.Guard || o.failOpen {
			return Reply{Stderr: o.problem()}
		}
		r := deny("hookwire blocked the call: " + o.failure)
		r.Stderr = o.problem()
		return r
	}
	if d := o.ended; d != nil {
		if d.action == protocol.ActionRespond {
			return deny(d.forLLM)
		}
		if o.step.Guard {
			return deny(d.because())
		}
		return Reply{}
	}
	switch a := o.approval; {
	case !o.step.Guard:
	case a != nil && a.denied() && !a.byDefault:
		return deny(a.because())
	case a != nil && !a.byDefault:
		return copilotPermission(ev, "allow", a.reason, o.args)
	case o.args != nil && ev.Name == "preToolUse":
		// New arguments with no decision: Copilot CLI (1.0.102) runs the
		// new call as its own rules decide for it, neither allowed nor
		// denied by a hook.
		return copilotPermission(ev, "", "", o.args)
	case o.args != nil:
		return deny("Copilot CLI cannot take a rewritten call at permissionRequest: a hook rewrote it to " + encode(o.args))
	}
	return Reply{} // no opinion: Copilot CLI's own rules decide
}

// copilotPermission is a decision on a tool call (or, with none, new
// arguments alone), in the form of the event:
// Copilot CLI's own members, and Claude Code's hookSpecificOutput as well
// for an event that came in the PascalCase form.
func copilotPermission(ev Event, decision, reason string, args map[string]any) Reply {
	out, specific := map[string]any{}, map[string]any{}
	if decision != "" { // none: the agent's own rules decide
		out["permissionDecision"], specific["permissionDecision"] = decision, decision
	}
	if ev.Name == "permissionRequest" {
		out = map[string]any{"behavior": decision}
		if decision == "deny" {
			out["message"] = reason
		}
		specific = map[string]any{"decision": maps.Clone(out)}
	} else {
		if reason != "" {
			out["permissionDecisionReason"], specific["permissionDecisionReason"] = reason, reason
		}
		if args != nil {
			out["modifiedArgs"], specific["updatedInput"] = args, args
		}
	}
	if pascal, _ := ev.Fields["agent_event_name"].(string); pascal != "" {
		specific["hookEventName"] = pascal
		out["hookSpecificOutput"] = specific
	}
	return Reply{Stdout: encode(out)}
}
