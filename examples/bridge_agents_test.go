package examples

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// The contracts of the five agents that joined Claude Code and Gemini CLI:
// each event of each agent's sample (core/bridge/testdata), each decision
// of the reference hook, and exactly what the agent reads back.

// claudeLike are the contracts every agent of Claude Code's form keeps,
// with what the agent reads at PreToolUse for some decisions of the
// reference hook, where it differs from Claude Code (by the tool's name).
func claudeLike(differs map[string]string) []contract {
	preToolUse := func(decision, stdout string) contract {
		if s, ok := differs[decision]; ok {
			stdout = s
		}
		return contract{"PreToolUse", tool(decision), stdout, 0}
	}
	return []contract{
		{"SessionStart", nil, "", 0},
		{"UserPromptSubmit", nil, "", 0},
		preToolUse("deny_tool", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`),
		preToolUse("respond", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference: hi"}}`),
		preToolUse("modify", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"reference"}}}`),
		preToolUse("approve", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`),
		preToolUse("abstain", ""),
		preToolUse("abort_turn", `{"continue":false,"stopReason":"reference","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`),
		{"PreToolUse", nil, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`, 0},
		{"PostToolUse", nil, "", 0},
		{"Stop", nil, "", 0},
		{"SubagentStop", nil, "", 0},
		{"PreCompact", nil, "", 0},
	}
}

// Codex CLI 0.171.0 runs the tool on a PreToolUse reply it does not take:
// an allow comes with the call's own input, abort_turn is a deny alone.
var codexContracts = append(claudeLike(map[string]string{
	"approve":    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"hi"}}}`,
	"abort_turn": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"reference"}}`,
}), []contract{
	{"PermissionRequest", tool("approve"), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, 0},
	{"PermissionRequest", nil, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"reference"}}}`, 0},
	// The new text as the reason of a block, which the model reads in
	// place of the output: Codex CLI 0.171.0 takes no updatedToolOutput.
	{"PostToolUse", withOutput(tool("modify"), "hi"), `{"decision":"block","reason":"reference"}`, 0},
	{"PostToolUse", tool("abort_turn"), `{"continue":false,"stopReason":"reference"}`, 0},
	{"StopFailure", nil, "", 0},
	{"SubagentStart", nil, "", 0},
	{"PostCompact", nil, "", 0},
	{"PreModelRequest", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}...)

var factoryContracts = append(claudeLike(nil), []contract{
	// Droid 0.215.0 takes no new output, nor a decision after a tool: the
	// text goes as context, which the model reads after the output.
	{"PostToolUse", withOutput(tool("modify"), "hi"), `{"hookSpecificOutput":{"additionalContext":"reference","hookEventName":"PostToolUse"}}`, 0},
	{"Notification", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}...)

// Goose 1.52.0 reads a decision at PreToolUse alone: a block with its
// reason, or nothing, which allows; it takes no new arguments.
var gooseContracts = []contract{
	{"SessionStart", nil, "", 0},
	{"UserPromptSubmit", nil, "", 0},
	{"PreToolUse", tool("deny_tool"), `{"decision":"block","reason":"reference"}`, 0},
	{"PreToolUse", tool("respond"), `{"decision":"block","reason":"reference: hi"}`, 0},
	{"PreToolUse", tool("modify"), `{"decision":"block","reason":"Goose cannot take a rewritten call: a hook rewrote it to {\"text\":\"reference\"}"}`, 0},
	{"PreToolUse", tool("approve"), "", 0},
	{"PreToolUse", tool("abstain"), "", 0},
	{"PreToolUse", tool("abort_turn"), `{"decision":"block","reason":"reference"}`, 0},
	{"PreToolUse", nil, `{"decision":"block","reason":"reference"}`, 0},
	{"PreToolUseResult", nil, "", 0},
	{"BeforeShellExecution", nil, "", 0},
	{"AfterShellExecution", nil, "", 0},
	{"BeforeReadFile", nil, "", 0},
	{"AfterFileEdit", nil, "", 0},
	{"PostToolUse", tool("modify"), "", 0},
	{"PostToolUseFailure", nil, "", 0},
	{"Stop", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}

// vibeOutput is a post_tool event's changes with the text the model will
// read of the tool's output.
func vibeOutput(changes map[string]any, text string) map[string]any {
	changes["tool_output_text"] = text
	return changes
}

// Mistral Vibe 3.0.2 reads a deny with its reason, before a tool and after
// it (where the reason replaces the output), new arguments, and nothing,
// which goes on; it has no allow.
var vibeContracts = []contract{
	{"pre_tool", tool("deny_tool"), `{"decision":"deny","reason":"reference"}`, 0},
	{"pre_tool", tool("respond"), `{"decision":"deny","reason":"reference: hi"}`, 0},
	{"pre_tool", tool("modify"), `{"hook_specific_output":{"tool_input":{"text":"reference"}}}`, 0},
	{"pre_tool", tool("approve"), "", 0},
	{"pre_tool", tool("abstain"), "", 0},
	{"pre_tool", tool("abort_turn"), `{"decision":"deny","reason":"reference"}`, 0},
	{"pre_tool", nil, `{"decision":"deny","reason":"reference"}`, 0},
	{"post_tool", vibeOutput(tool("modify"), "hi"), `{"decision":"deny","reason":"reference"}`, 0},
	{"post_tool", vibeOutput(tool("abort_turn"), "hi"), `{"decision":"deny","reason":"reference"}`, 0},
	{"post_tool", nil, "", 0},
	{"post_agent", nil, "", 0},
}

// Kimi CLI 1.51.0 reads exit code 2, its reason on stderr, at PreToolUse
// and UserPromptSubmit alone: the contracts hold stderr (byExitCode).
var kimiContracts = []contract{
	{"SessionStart", nil, "", 0},
	{"UserPromptSubmit", nil, "", 0},
	{"PreToolUse", tool("deny_tool"), "reference", 2},
	{"PreToolUse", tool("respond"), "reference: hi", 2},
	{"PreToolUse", tool("modify"), `Kimi CLI cannot take a rewritten call: a hook rewrote it to {"text":"reference"}`, 2},
	{"PreToolUse", tool("approve"), "", 0},
	{"PreToolUse", tool("abstain"), "", 0}, // no opinion: Kimi CLI's own mode decides
	{"PreToolUse", tool("abort_turn"), "reference", 2},
	{"PreToolUse", tool("hard_abort"), "reference", 2},
	{"PreToolUse", nil, "reference", 2},
	// After the tool and the turn: observers get the event, Kimi CLI nothing.
	{"PostToolUse", tool("modify"), "", 0},
	{"PostToolUseFailure", nil, "", 0},
	{"Stop", nil, "", 0},
	{"StopFailure", nil, "", 0},
	{"SubagentStart", nil, "", 0},
	{"SubagentStop", nil, "", 0},
	{"PreCompact", nil, "", 0},
	{"PostCompact", nil, "", 0},
	{"Notification", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}

// OpenHands 1.16.0 reads a top-level decision and its reason; nothing
// after a tool, no new arguments.
var openHandsContracts = []contract{
	{"SessionStart", nil, "", 0},
	{"UserPromptSubmit", nil, "", 0},
	{"PreToolUse", tool("deny_tool"), `{"decision":"deny","reason":"reference"}`, 0},
	{"PreToolUse", tool("respond"), `{"decision":"deny","reason":"reference: hi"}`, 0},
	{"PreToolUse", tool("modify"), `{"decision":"deny","reason":"OpenHands cannot take a rewritten call: a hook rewrote it to {\"text\":\"reference\"}"}`, 0},
	{"PreToolUse", tool("approve"), `{"decision":"allow"}`, 0},
	{"PreToolUse", tool("abstain"), "", 0},
	{"PreToolUse", tool("abort_turn"), `{"decision":"deny","reason":"reference"}`, 0},
	{"PreToolUse", nil, `{"decision":"deny","reason":"reference"}`, 0},
	{"PostToolUse", withOutput(tool("modify"), map[string]any{"content": []any{map[string]any{"type": "text", "text": "hi"}}, "is_error": false}),
		`{"systemMessage":"hookwire: OpenHands 1.16.0 reads nothing a hook answers after a tool: the model reads the output of modify unchanged, not what a hook made of it"}`, 0},
	{"PostToolUse", nil, "", 0},
	{"Stop", nil, "", 0},
	{"SessionEnd", nil, "", 0},
}

// Cline 3.0.65 reads a decision at PreToolUse alone: a cancel, which ends
// the whole run and says so, or nothing, which allows; the bridge writes
// it no new arguments.
var clineContracts = []contract{
	{"TaskStart", nil, "", 0},
	{"UserPromptSubmit", nil, "", 0},
	{"PreToolUse", tool("deny_tool"), clineCancel("deny_tool", "reference"), 0},
	{"PreToolUse", tool("respond"), clineCancel("respond", "reference: hi"), 0},
	{"PreToolUse", tool("modify"), clineCancel("modify", `Cline cannot take a rewritten call: a hook rewrote it to {\"text\":\"reference\"}`), 0},
	{"PreToolUse", tool("approve"), "", 0},
	{"PreToolUse", tool("abstain"), "", 0},
	{"PreToolUse", tool("abort_turn"), clineCancel("abort_turn", "reference"), 0},
	{"PreToolUse", nil, clineCancel("run_commands", "reference"), 0},
	{"PostToolUse", tool("modify"), "", 0},
	{"TaskResume", nil, "", 0},
	{"TaskComplete", nil, "", 0},
	{"TaskError", nil, "", 0},
	{"TaskCancel", nil, "", 0},
	{"PreCompact", nil, "", 0},
	{"SessionShutdown", nil, "", 0},
}

// clineCancel is Cline's cancel of the run at a call of tool, for reason.
func clineCancel(tool, reason string) string {
	return `{"cancel":true,"errorMessage":"hookwire ended Cline's run at its call of ` + tool + ` (Cline stops a call only by ending the run): ` + reason + `"}`
}

// Qwen Code 0.24.4 reads no updatedInput at PreToolUse: the call the hook
// did not want is not run.
var qwenContracts = append(claudeLike(map[string]string{
	"modify": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Qwen Code cannot take a rewritten call: a hook rewrote it to {\"text\":\"reference\"}"}}`,
}), []contract{
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

// windsurfMCP is the tool_info of a pre_mcp_tool_use calling tool, whose
// name tells the reference hook what to decide.
func windsurfMCP(tool string) map[string]any {
	return map[string]any{"tool_info": map[string]any{"mcp_server_name": "github", "mcp_tool_name": tool, "mcp_tool_arguments": map[string]any{"text": "hi"}}}
}

// Windsurf reads no JSON: what it reads is the exit code and stderr,
// which the contracts hold in place of stdout (byExitCode).
var windsurfContracts = []contract{
	{"pre_user_prompt", nil, "", 0},
	{"pre_mcp_tool_use", windsurfMCP("deny_tool"), "reference", 2},
	{"pre_mcp_tool_use", windsurfMCP("respond"), "reference: hi", 2},
	// Windsurf takes no new arguments: the call the hook did not want is blocked.
	{"pre_mcp_tool_use", windsurfMCP("modify"), `Windsurf cannot take a rewritten call: a hook rewrote it to {"text":"reference"}`, 2},
	{"pre_mcp_tool_use", windsurfMCP("approve"), "", 0},
	{"pre_mcp_tool_use", windsurfMCP("abstain"), "", 0}, // no opinion: Windsurf's own rules
	{"pre_mcp_tool_use", windsurfMCP("abort_turn"), "reference", 2},
	{"pre_mcp_tool_use", windsurfMCP("hard_abort"), "reference", 2},
	{"pre_mcp_tool_use", nil, "reference", 2},
	{"pre_run_command", nil, "reference", 2},
	{"pre_read_code", nil, "reference", 2},
	{"pre_write_code", nil, "reference", 2},
	// After the action: observers get the event, Windsurf gets nothing back.
	{"post_run_command", nil, "", 0},
	{"post_read_code", nil, "", 0},
	{"post_write_code", nil, "", 0},
	{"post_mcp_tool_use", nil, "", 0},
	{"post_setup_worktree", nil, "", 0},
	{"post_cascade_response_with_transcript", nil, "", 0},
	{"post_cascade_response", nil, "", 0},
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The root README's line for each agent, as written (the guard's path
// made real): run as the agent runs a command hook, through a shell, it
// blocks rm -rf / in that agent's form.
func TestTheREADMEsLineForEachAgentBlocksRmRf(t *testing.T) {
	sdk, _ := filepath.Abs("../sdk-python/src")
	guard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	var lines []string
	for _, line := range strings.Split(readFile(t, filepath.Join("..", "README.md")), "\n") {
		if strings.HasPrefix(line, "| ") && strings.Contains(line, `"hookwire-bridge `) { // a command in a settings file
			lines = append(lines, line)
		}
	}
	seen := map[string]bool{}
	for _, line := range lines {
		cells := strings.Split(line, " | ")
		var config map[string]json.RawMessage
		if err := json.Unmarshal([]byte(strings.Trim(cells[len(cells)-1], "` |")), &config); err != nil {
			config = tomlHooks(t, line, strings.Trim(cells[len(cells)-1], "` |"))
		}
		if hooks, ok := config["hooks"]; ok { // else the events are the file's own members (OpenHands)
			if err := json.Unmarshal(hooks, &config); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
		command := regexp.MustCompile(`"(hookwire-bridge ([a-z-]+) -- [^"]+)"`).FindStringSubmatch(line)
		agent := command[2]
		seen[agent] = true
		b := newBridgeRun(t, agent, bridgeHook{})
		event := rmEvent(t, agent)
		name, _ := event["hook_event_name"].(string)
		switch agent {
		case "copilot-cli":
			name = "preToolUse" // its camelCase events carry no name
		case "goose":
			name, _ = event["event"].(string) // its events are named by "event"
		case "openhands":
			name, _ = event["event_type"].(string)
		case "windsurf":
			name, _ = event["agent_action_name"].(string)
		}
		if config[name] == nil {
			t.Errorf("%s: the README's line names no %s, the event that guards its shell", agent, name)
		}
		in, _ := json.Marshal(event)
		sh := exec.Command("sh", "-c", strings.ReplaceAll(command[1], "/path/to/guard.py", guard))
		sh.Env = append(environ(nil), "PYTHONPATH="+sdk, "XDG_RUNTIME_DIR="+b.dir, "HOOKWIRE_BRIDGE_TEST="+b.mark)
		sh.Stdin = bytes.NewReader(in)
		out, err := sh.Output()
		exit := 0
		if e, ok := err.(*exec.ExitError); ok && byExitCode[agent] {
			exit, err = e.ExitCode(), nil // the agent reads the exit code
		}
		if err != nil || !blocked(agent, strings.TrimSpace(string(out)), exit) {
			t.Errorf("%s: %v, %s: want rm -rf / blocked", agent, err, out)
		}
	}
	// Cline's hooks are programs, not a settings file: its line names the
	// file and what hookwire install writes there.
	if strings.Contains(readFile(t, filepath.Join("..", "README.md")), "| Cline | `.clinerules/hooks/PreToolUse`") {
		seen["cline"] = true
	}
	if len(seen) != len(allAgents) {
		t.Errorf("the README has a line for %v, want one for each of %v", seen, allAgents)
	}
}

// tomlHooks reads a README line that is TOML (an array of tables, each
// with its event: Kimi CLI's config.toml names it by event, Mistral Vibe's
// hooks.toml by type) as the JSON lines read: each event the line names a
// hook for, a member.
func tomlHooks(t *testing.T, line, cell string) map[string]json.RawMessage {
	t.Helper()
	var file struct {
		Hooks []struct{ Event, Type, Command string }
	}
	if err := toml.Unmarshal([]byte(cell), &file); err != nil || len(file.Hooks) == 0 {
		t.Fatalf("%s: neither JSON nor a TOML array of hooks: %v", line, err)
	}
	config := map[string]json.RawMessage{}
	for _, h := range file.Hooks {
		config[cmp.Or(h.Event, h.Type)] = json.RawMessage(`true`)
	}
	return config
}
