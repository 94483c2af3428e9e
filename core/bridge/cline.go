package bridge

import (
	"maps"

	"github.com/hookwire/hookwire/core/agents"
)

// The form of Cline's replies.
var _ = addForm(agents.ClineReplies, replyForm{parse: clineParse, decide: clineDecide})

// clineEvents are the hook file each of Cline's hookName values runs: the
// bridge names an event as install names its file.
var clineEvents = map[string]string{
	"tool_call":        "PreToolUse",
	"tool_result":      "PostToolUse",
	"prompt_submit":    "UserPromptSubmit",
	"agent_start":      "TaskStart",
	"agent_resume":     "TaskResume",
	"agent_end":        "TaskComplete",
	"agent_error":      "TaskError",
	"agent_abort":      "TaskCancel",
	"session_shutdown": "SessionShutdown",
	"pre_compact":      "PreCompact",
}

// clineParse reads a Cline event into the bridge's members: its name is
// the file hookName runs, its session the root session of the run (a
// sub-agent's events share it), its folder the first workspace root, and a
// tool's call and result the members of tool_call or tool_result.
func clineParse(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	if name, ok := fields["hookName"].(string); ok {
		fields["hook_event_name"] = name
		if file, ok := clineEvents[name]; ok {
			fields["hook_event_name"] = file
		}
	}
	fields["session_id"] = fields["taskId"]
	context, _ := fields["sessionContext"].(map[string]any)
	if root, ok := context["rootSessionId"].(string); ok && root != "" {
		fields["session_id"] = root
	}
	if roots, ok := fields["workspaceRoots"].([]any); ok && len(roots) > 0 {
		fields["cwd"] = roots[0]
	}
	for _, key := range []string{"tool_call", "tool_result"} {
		call, ok := fields[key].(map[string]any)
		if !ok {
			continue
		}
		fields["tool_name"], fields["tool_use_id"] = call["name"], call["id"]
		fields["tool_input"] = call["input"]
		if call["name"] == "run_commands" {
			fields["tool_input"] = clineCommands(call["input"])
		}
		if key == "tool_result" {
			fields["tool_response"] = call["output"]
		}
	}
	return eventOf(fields)
}

// clineCommands is run_commands' input with its commands where a hook
// reads them: in "commands", and, one line per command, in "command", as
// every other agent's shell tool has it, so that a hook that reads a shell
// call's command sees all that the call runs. Cline 3.0.65 runs a bare
// string or list, a {"command", "args"} (run with no shell), a {"command"}
// or a {"cmd"} as it runs {"commands": [...]}, and reads "commands" first
// where there are several: a "command" of the model's beside "commands"
// never runs, and the hook does not read it.
func clineCommands(input any) any {
	var out map[string]any
	switch in := input.(type) {
	case string, []any:
		out = map[string]any{"commands": in}
	case map[string]any:
		out = maps.Clone(in)
		if _, ok := in["commands"]; ok {
			break
		}
		switch {
		case in["command"] != nil && in["args"] != nil:
			out["commands"] = []any{map[string]any{"command": in["command"], "args": in["args"]}}
		case in["command"] != nil:
			out["commands"] = []any{in["command"]}
		case in["cmd"] != nil:
			out["commands"] = []any{in["cmd"]}
		}
	default:
		return input
	}
	delete(out, "command")
	if lines := commandLines(out["commands"]); lines != nil {
		out["command"] = *lines
	}
	return out
}

// clineDecide writes a decision as Cline reads it: before a tool, a cancel
// with its reason, which ends Cline's whole run, or nothing, which allows;
// Cline reads nothing of the other events from the bridge. The reason says
// that the run was ended, never that one call was denied.
func clineDecide(a *agents.Agent, ev Event, o outcome) Reply {
	return blockOnly(a, o, func(reason string, _ bool) Reply {
		return Reply{Stdout: encode(map[string]any{"cancel": true,
			"errorMessage": "hookwire ended " + a.Title + "'s run at its call of " + ev.str("tool_name") + " (" + a.Title + " stops a call only by ending the run): " + reason})}
	})
}
