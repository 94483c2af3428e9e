package bridge

import (
	"maps"

	"github.com/hookwire/hookwire/core/protocol"
)

// claudeDecide writes a decision as Claude Code reads it: hookSpecificOutput
// for PreToolUse and PermissionRequest, decision block after a tool,
// continue false to stop, exit code 2 with stderr to block when the hook
// could not be asked.
func claudeDecide(ev Event, o outcome) Reply {
	if o.failure != "" {
		return failed(o)
	}
	if d := o.ended; d != nil {
		switch d.action {
		case protocol.ActionDenyTool:
			return claudePermission(ev, "deny", d.because(), nil)
		case protocol.ActionRespond:
			return claudePermission(ev, "deny", d.forLLM, nil)
		default: // abort_turn, hard_abort
			stop := map[string]any{"continue": false, "stopReason": d.because()}
			if o.step.Guard {
				// continue false alone stops the turn after the tool has
				// run (Claude Code 2.1.331): the tool is denied as well.
				maps.Copy(stop, claudeSpecific(ev, d.because()))
			}
			return Reply{Stdout: encode(stop)}
		}
	}
	switch ev.Name {
	case "PreToolUse":
		switch a := o.approval; {
		case a != nil && a.byDefault && o.args == nil:
			// No approver had an opinion: no decision, so that Claude Code's
			// own permission rules apply, rather than a dialog forced on
			// the user.
			return Reply{}
		case a != nil && a.byDefault:
			return claudePermission(ev, "ask", "every approver abstained", o.args)
		case a != nil && a.denied():
			return claudePermission(ev, "deny", a.because(), nil)
		case a != nil:
			return claudePermission(ev, "allow", a.reason, o.args)
		case o.args != nil:
			// New arguments that no approver looked at are shown to the user.
			return claudePermission(ev, "ask", "a hook rewrote the call", o.args)
		}
	case "PermissionRequest":
		switch a := o.approval; {
		case a == nil || a.byDefault:
		case a.denied():
			return claudeOutput(ev, map[string]any{"decision": map[string]any{"behavior": "deny", "message": a.because()}})
		default:
			allow := map[string]any{"behavior": "allow"}
			if o.args != nil {
				allow["updatedInput"] = o.args
			}
			return claudeOutput(ev, map[string]any{"decision": allow})
		}
	case "PostToolUse", "PostToolUseFailure":
		if o.result != nil {
			return Reply{Stdout: encode(map[string]any{"decision": "block", "reason": *o.result})}
		}
	}
	return Reply{}
}

func claudePermission(ev Event, decision, reason string, args map[string]any) Reply {
	out := map[string]any{"permissionDecision": decision}
	if reason != "" {
		out["permissionDecisionReason"] = reason
	}
	if args != nil {
		out["updatedInput"] = args
	}
	return claudeOutput(ev, out)
}

// claudeSpecific is the hookSpecificOutput that denies the tool of a
// PreToolUse or PermissionRequest event.
func claudeSpecific(ev Event, reason string) map[string]any {
	if ev.Name == "PermissionRequest" {
		return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": ev.Name, "decision": map[string]any{"behavior": "deny", "message": reason}}}
	}
	return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": ev.Name, "permissionDecision": "deny", "permissionDecisionReason": reason}}
}

func claudeOutput(ev Event, specific map[string]any) Reply {
	specific["hookEventName"] = ev.Name
	return Reply{Stdout: encode(map[string]any{"hookSpecificOutput": specific})}
}

// failed is the outcome of a hook that could not be asked: a guard blocks
// (exit code 2, the reason on stderr, which the agent shows the model),
// unless the user chose --failure-policy open; any other event goes on with
// a warning (exit code 1).
func failed(o outcome) Reply {
	if o.step.Guard && !o.failOpen {
		return Reply{Exit: 2, Stderr: "hookwire bridge: blocked: " + o.failure}
	}
	return Reply{Exit: 1, Stderr: "hookwire bridge: " + o.failure}
}

// claudeToolResult is a tool's outcome as PostToolUse and PostToolUseFailure
// carry it.
func claudeToolResult(ev Event) protocol.ToolResult {
	if ev.Name == "PostToolUseFailure" {
		yes := true
		return protocol.ToolResult{ForLLM: ev.str("error"), IsError: &yes}
	}
	return protocol.ToolResult{ForLLM: text(ev.Fields["tool_response"])}
}

// text is a value as the model reads it: a string as it is, anything else as JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	return encode(v)
}
