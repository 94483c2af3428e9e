package examples

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/bridge"
)

// How the tests that drive every agent read each agent's form: its event
// for a shell command, and what of a reply blocks, decides or speaks to
// the user.

// allAgents are the agents of the bridge.
var allAgents = []string{"claude-code", "cline", "gemini-cli", "codex-cli", "copilot-cli", "cursor", "factory-droid", "goose", "kimi-cli", "mistral-vibe", "openhands", "qwen-code", "windsurf"}

// byExitCode are the agents that read no JSON from a hook: exit code 2
// blocks, and the agent reads stderr.
var byExitCode = map[string]bool{"kimi-cli": true, "windsurf": true}

// reads is what the agent reads of a reply besides its exit code: the
// JSON on stdout, or stderr where it reads no JSON.
func reads(agent, stdout, stderr string) string {
	if byExitCode[agent] {
		return stderr
	}
	return stdout
}

// rmEvent is the agent's event for `rm -rf /` in its shell tool.
func rmEvent(t *testing.T, agent string) map[string]any {
	call := func(tool string) map[string]any {
		return map[string]any{"tool_name": tool, "tool_input": map[string]any{"command": "rm -rf /"}}
	}
	switch agent {
	case "gemini-cli":
		return sample(t, agent, "BeforeTool", call("run_shell_command"))
	case "qwen-code":
		return sample(t, agent, "PreToolUse", call("run_shell_command"))
	case "factory-droid":
		return sample(t, agent, "PreToolUse", call("Execute"))
	case "goose":
		return sample(t, agent, "PreToolUse", call("shell"))
	case "mistral-vibe":
		return sample(t, agent, "pre_tool", call("file_system.bash"))
	case "openhands":
		return sample(t, agent, "PreToolUse", call("terminal"))
	case "kimi-cli":
		return sample(t, agent, "PreToolUse", call("Shell"))
	case "cline":
		return sample(t, agent, "PreToolUse", map[string]any{"tool_name": "run_commands", "tool_input": map[string]any{"commands": []any{"rm -rf /"}}})
	case "copilot-cli":
		return sample(t, agent, "preToolUse", map[string]any{"toolName": "bash", "toolArgs": `{"command":"rm -rf /"}`})
	case "cursor":
		return sample(t, agent, "beforeShellExecution", map[string]any{"command": "rm -rf /"})
	case "windsurf":
		return sample(t, agent, "pre_run_command", map[string]any{"tool_info": map[string]any{"command_line": "rm -rf /", "cwd": "/Users/yourname/project"}})
	}
	return sample(t, agent, "PreToolUse", call("Bash")) // Claude Code, Codex CLI
}

// blocked says whether the agent reads the reply as a blocked tool call.
func blocked(agent, stdout string, exit int) bool {
	if exit == 2 && agent != "copilot-cli" { // Copilot CLI runs the tool on any failure
		return true
	}
	var out map[string]any
	if exit != 0 || json.Unmarshal([]byte(stdout), &out) != nil {
		return false
	}
	switch agent {
	case "gemini-cli":
		return out["decision"] == "deny"
	case "copilot-cli":
		return out["permissionDecision"] == "deny"
	case "cursor":
		return out["permission"] == "deny"
	case "goose":
		return out["decision"] == "block"
	case "mistral-vibe", "openhands":
		return out["decision"] == "deny"
	case "cline":
		return out["cancel"] == true
	}
	specific, _ := out["hookSpecificOutput"].(map[string]any)
	return specific != nil && specific["permissionDecision"] == "deny"
}

// toUser is the message the agent shows its user: the reply's
// systemMessage (Cursor: user_message, Mistral Vibe: system_message), or
// else its stderr, after the reason of a block where there is one (Goose
// shows its stderr; Mistral Vibe shows nothing of a deny but the reason).
func toUser(stdout, stderr string) string {
	var out struct {
		SystemMessage string
		UserMessage   string `json:"user_message"`
		VibeMessage   string `json:"system_message"`
		Reason        string
	}
	if json.Unmarshal([]byte(stdout), &out) != nil {
		return stderr
	}
	if message := out.SystemMessage + out.UserMessage + out.VibeMessage; message != "" {
		return message
	}
	return strings.TrimPrefix(out.Reason+"\n"+stderr, "\n")
}

// guardEvents are the events of an agent that guard a tool, from the
// bridge's own table.
func guardEvents(agent string) []string {
	var events []string
	for name, step := range bridge.Agents[agent].Events {
		if step.Guard {
			events = append(events, name)
		}
	}
	slices.Sort(events)
	return events
}

// asks says whether an event of the agent asks a hook that declares modes
// (comma-separated) anything; a hook that never starts is asked all.
func asks(agent, event, modes string) bool {
	stages := map[string][]bridge.Stage{"tool": {bridge.BeforeTool, bridge.AfterTool}, "approve": {bridge.Approval}}
	for _, mode := range strings.Split(modes, ",") {
		for _, st := range stages[mode] {
			if modes == "never-start" || slices.Contains(bridge.Agents[agent].Events[event].Calls, st) {
				return true
			}
		}
	}
	return modes == "never-start"
}

// decides says what of a reply is a decision on the tool call, in any
// agent's form: an exit code other than 0, or any member of the JSON on
// stdout but the message to the user (systemMessage, Cursor's
// user_message, Mistral Vibe's system_message). Empty when the reply leaves the call to the agent.
func decides(stdout string, exit int) string {
	if exit != 0 {
		return fmt.Sprintf("exit code %d", exit)
	}
	if stdout == "" {
		return ""
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		return "stdout that is not a JSON object"
	}
	var members []string
	for k := range out {
		if k != "systemMessage" && k != "user_message" && k != "system_message" {
			members = append(members, k)
		}
	}
	slices.Sort(members)
	return strings.Join(members, ", ")
}

// clineChanges puts a contract's tool call (tool_name, tool_input,
// tool_response) where Cline writes it, in the sample's tool_call or
// tool_result; the other changes stay as they are.
func clineChanges(ev, changes map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range changes {
		out[k] = v
	}
	for _, key := range []string{"tool_call", "tool_result"} {
		call, ok := ev[key].(map[string]any)
		if !ok {
			continue
		}
		for from, to := range map[string]string{"tool_name": "name", "tool_input": "input", "tool_response": "output"} {
			if v, ok := changes[from]; ok {
				call[to] = v
				delete(out, from)
			}
		}
	}
	return out
}
