package examples

import "encoding/json"

// The contracts of the five agents that joined Claude Code and Gemini CLI:
// each event of each agent's sample (core/bridge/testdata), each decision
// of the reference hook, and exactly what the agent reads back.

// claudeLike are the contracts every agent of Claude Code's form keeps at
// PreToolUse, whatever else it does differently.
func claudeLike(modify string) []contract {
	return []contract{
		{"SessionStart", nil, "", 0},
		{"UserPromptSubmit", nil, "", 0},
		{"PreToolUse", tool("deny_tool"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
		{"PreToolUse", tool("respond"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference: hi"}}`, 0},
		{"PreToolUse", tool("modify"), modify, 0},
		{"PreToolUse", tool("approve"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, 0},
		{"PreToolUse", tool("abstain"), "", 0},
		{"PreToolUse", nil, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
		{"PreToolUse", tool("abort_turn"), `{"continue":false,"stopReason":"reference","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
		{"PostToolUse", nil, "", 0},
		{"Stop", nil, "", 0},
		{"SubagentStop", nil, "", 0},
		{"PreCompact", nil, "", 0},
	}
}

const takesNewInput = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"reference"}}}`

var codexContracts = append(claudeLike(takesNewInput), []contract{
	{"PermissionRequest", tool("approve"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, 0},
	{"PermissionRequest", nil, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"reference"}}}`, 0},
	{"PostToolUse", withOutput(tool("modify"), "hi"), `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"reference"}}`, 0},
	{"PostToolUse", tool("abort_turn"), `{"continue":false,"stopReason":"reference"}`, 0},
	{"StopFailure", nil, "", 0},
	{"SubagentStart", nil, "", 0},
	{"PostCompact", nil, "", 0},
	// No event ends a Codex CLI session: its server stops after --idle.
}...)

var factoryContracts = append(claudeLike(takesNewInput), []contract{
	// Droid takes no new output: the model reads the text after it.
	{"PostToolUse", withOutput(tool("modify"), "hi"), `{"decision":"block","reason":"reference"}`, 0},
	{"Notification", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}...)

var qwenContracts = append(claudeLike(
	// Qwen Code 0.24.4 reads no updatedInput at PreToolUse: the call the
	// hook did not want is not run.
	`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Qwen Code cannot take a rewritten call: a hook rewrote it to {\"text\":\"reference\"}"}}`),
	[]contract{
		{"PermissionRequest", tool("approve"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, 0},
		{"PermissionRequest", nil, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"reference"}}}`, 0},
		// A stopped result: the model reads an error with the new text.
		{"PostToolUse", withOutput(tool("modify"), map[string]any{"llmContent": "hi", "returnDisplay": "hi"}), `{"continue":false,"stopReason":"reference"}`, 0},
		{"PostToolUseFailure", tool("modify"), `{"decision":"block","reason":"reference"}`, 0},
		{"PostToolBatch", nil, "", 0},
		{"UserPromptExpansion", nil, "", 0},
		{"SessionDelete", nil, "", 0},
		{"MessageDisplay", nil, "", 0},
		{"StopFailure", nil, "", 0},
		{"SubagentStart", nil, "", 0},
		{"PostCompact", nil, "", 0},
		{"Notification", nil, "", 0},
		{"PermissionDenied", nil, "", 0},
		{"TodoCreated", nil, "", 0},
		{"TodoCompleted", nil, "", 0},
		{"InstructionsLoaded", nil, "", 0},
		{"SessionEnd", nil, "", 0},
	}...)

// copilotTool is a camelCase preToolUse's call: toolArgs is a JSON string.
func copilotTool(name string) map[string]any {
	return map[string]any{"toolName": name, "toolArgs": `{"text":"hi"}`}
}

var copilotContracts = []contract{
	{"sessionStart", nil, "", 0},
	{"userPromptSubmitted", nil, "", 0},
	{"preToolUse", copilotTool("deny_tool"), `{"permissionDecision":"deny","permissionDecisionReason":"reference"}`, 0},
	{"preToolUse", copilotTool("respond"), `{"permissionDecision":"deny","permissionDecisionReason":"reference: hi"}`, 0},
	{"preToolUse", copilotTool("modify"), `{"permissionDecision":"allow","modifiedArgs":{"text":"reference"}}`, 0},
	{"preToolUse", copilotTool("approve"), `{"permissionDecision":"allow"}`, 0},
	{"preToolUse", copilotTool("abstain"), "", 0},
	{"preToolUse", nil, `{"permissionDecision":"deny","permissionDecisionReason":"reference"}`, 0},
	{"preToolUse", copilotTool("abort_turn"), `{"permissionDecision":"deny","permissionDecisionReason":"reference"}`, 0},
	{"permissionRequest", copilotTool("approve"), `{"behavior":"allow"}`, 0},
	{"permissionRequest", nil, `{"behavior":"deny","message":"reference"}`, 0},
	// The PascalCase form, with Claude Code's fields: both forms of answer.
	{"pascal/PreToolUse", tool("deny_tool"), `{"permissionDecision":"deny","permissionDecisionReason":"reference","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
	{"pascal/PreToolUse", tool("modify"), `{"permissionDecision":"allow","modifiedArgs":{"text":"reference"},"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"reference"}}}`, 0},
	{"pascal/PostToolUse", nil, "", 0},
	{"postToolUse", nil, "", 0},
	{"errorOccurred", nil, "", 0},
	{"agentStop", nil, "", 0},
	{"subagentStop", nil, "", 0},
	{"notification", nil, "", 0},
	{"sessionEnd", nil, "", 0},
	{"pascal/SessionEnd", nil, "", 0}, // the session the PascalCase events name
}

// cursorDeny is Cursor's deny, the same words to the user and the model.
func cursorDeny(reason string) string {
	return `{"permission":"deny","user_message":` + quoteJSON(reason) + `,"agent_message":` + quoteJSON(reason) + `}`
}

var cursorContracts = []contract{
	{"sessionStart", nil, `{}`, 0},
	{"beforeSubmitPrompt", nil, `{}`, 0},
	{"preToolUse", tool("deny_tool"), cursorDeny("reference"), 0},
	{"preToolUse", tool("respond"), cursorDeny("reference: hi"), 0},
	{"preToolUse", tool("modify"), `{"permission":"allow","updated_input":{"text":"reference"}}`, 0},
	{"preToolUse", tool("approve"), `{"permission":"allow"}`, 0},
	{"preToolUse", tool("abstain"), `{}`, 0},
	{"preToolUse", nil, cursorDeny("reference"), 0},
	{"preToolUse", tool("abort_turn"), cursorDeny("reference"), 0},
	{"beforeShellExecution", nil, cursorDeny("reference"), 0},
	{"beforeMCPExecution", map[string]any{"tool_name": "approve", "tool_input": `{"text":"hi"}`}, `{"permission":"allow"}`, 0},
	// Cursor takes no new input for an MCP call, and is never asked to ask.
	{"beforeMCPExecution", map[string]any{"tool_name": "modify", "tool_input": `{"text":"hi"}`},
		cursorDeny(`Cursor cannot take a rewritten call at beforeMCPExecution: a hook rewrote it to {"text":"reference"}`), 0},
	{"beforeReadFile", nil, cursorDeny("reference"), 0},
	{"afterShellExecution", nil, `{}`, 0},
	{"afterMCPExecution", nil, `{}`, 0},
	{"afterFileEdit", nil, `{}`, 0},
	{"postToolUse", nil, `{}`, 0},
	{"postToolUseFailure", nil, `{}`, 0},
	{"afterAgentResponse", nil, `{}`, 0},
	{"afterAgentThought", nil, `{}`, 0},
	{"stop", nil, `{}`, 0},
	{"subagentStart", nil, `{}`, 0},
	{"subagentStop", nil, `{}`, 0},
	{"preCompact", nil, `{}`, 0},
	// Not mapped: nothing, as without a hook.
	{"beforeTabFileRead", nil, "", 0},
	{"afterTabFileEdit", nil, "", 0},
	{"sessionEnd", nil, `{}`, 0},
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
