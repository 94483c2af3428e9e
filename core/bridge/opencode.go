package bridge

import (
	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of the replies of hookwire's plugin for OpenCode's plugin API
// (OpenCode and its forks): the plugin writes its events in the bridge's
// own members (hook_event_name, session_id, cwd, tool_name, tool_input,
// tool_use_id, tool_response), so ParseEvent reads them.
var _ = addForm(agents.OpenCodeReplies, replyForm{decide: openCodeDecide, message: "message", context: openCodeContext})

// openCodeContext gives the model a hook's context after a tool the only
// way OpenCode's plugin API has: in the tool's output it reads, after the
// output (the one a hook wrote, else the tool's own).
func openCodeContext(r Reply, ev Event, text string) Reply {
	return edited(r, func(out map[string]any) {
		output, ok := out["output"].(string)
		if !ok {
			output, _ = ev.Fields["tool_response"].(string)
		}
		out["output"] = output + "\n\n" + text
	})
}

// openCodeDecide writes a decision as the plugin reads it: before a tool,
// {"block": reason}, which it throws, {"args": {...}}, which the tool runs
// with, or nothing, which allows; after a tool, {"output": text}, which
// the model reads in place of the tool's output. A guard the hook cannot
// answer is blocked, with the failure as the reason.
func openCodeDecide(a *agents.Agent, ev Event, o outcome) Reply {
	block := func(reason string) Reply {
		return Reply{Stdout: encode(map[string]any{"block": reason})}
	}
	switch {
	case o.failure != "" && (o.failOpen || !o.step.Guard):
		return Reply{Stdout: encode(map[string]any{"message": o.problem()})}
	case o.failure != "":
		return block("hookwire blocked the call: " + o.failure)
	case o.ended != nil && o.ended.action == protocol.ActionRespond:
		return block(o.ended.forLLM)
	case o.ended != nil:
		return block(o.ended.because())
	case o.approval != nil && o.approval.denied() && !o.approval.byDefault:
		return block(o.approval.because())
	case o.args != nil:
		return Reply{Stdout: encode(map[string]any{"args": o.args})}
	case o.result != nil:
		return Reply{Stdout: encode(map[string]any{"output": *o.result})}
	}
	return Reply{}
}
