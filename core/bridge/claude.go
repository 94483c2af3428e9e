package bridge

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of Claude Code's replies, which other agents write too, each
// with what it does differently (agents.Quirks).
var _ = addForm(agents.ClaudeReplies, replyForm{decide: claudeDecide, llm: claudePrompt{}})

// claudeDecide writes a decision as Claude Code reads it: hookSpecificOutput
// for PreToolUse and PermissionRequest, decision block after a tool,
// continue false to stop, exit code 2 with stderr to block when the hook
// could not be asked; and as agent reads it, where its quirks differ.
func claudeDecide(agent *agents.Agent, ev Event, o outcome) Reply {
	q := agent.Quirks
	if o.failure != "" {
		var block map[string]any
		if ev.Name == "PreToolUse" || ev.Name == "PermissionRequest" || ev.Name == "PreSkillShellCommand" {
			block = claudeSpecific(ev, "hookwire blocked the call: "+o.failure)
		}
		return blockedOrWarned(o, block)
	}
	if d := o.ended; d != nil {
		switch d.action {
		case protocol.ActionDenyTool:
			return claudePermission(ev, "deny", d.because(), nil)
		case protocol.ActionRespond:
			return claudePermission(ev, "deny", d.forLLM, nil)
		case protocol.ActionAbortTurn:
			if ev.Name == "UserPromptSubmit" {
				// The prompt is blocked: Claude never sees it, and the user
				// reads the reason.
				return Reply{Stdout: encode(map[string]any{"decision": "block", "reason": d.because()})}
			}
			fallthrough
		default: // abort_turn, hard_abort
			if o.step.Guard && q.FailsOnStopAtGuard {
				return claudePermission(ev, "deny", d.because(), nil)
			}
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
		case a != nil && !a.byDefault && a.denied():
			return claudePermission(ev, "deny", a.because(), nil)
		case o.args != nil && q.NoNewArguments:
			return claudePermission(ev, "deny", agent.Title+" cannot take a rewritten call: a hook rewrote it to "+encode(o.args), nil)
		case a != nil && !a.byDefault:
			return claudeAllow(agent, ev, a.reason, o.args)
		case o.args != nil && q.FailsOnAsk:
			// updatedInput alone is a failed hook to such an agent, which
			// then runs the call as it came: the rewrite is allowed instead.
			return claudeAllow(agent, ev, "a hook rewrote the call", o.args)
		case a != nil:
			return claudePermission(ev, "ask", "every approver abstained", o.args)
		case o.args != nil:
			// New arguments that no approver looked at, and no decision:
			// Claude Code runs the new call as its own permission rules
			// decide for it (2.1.331), neither allowed nor denied by a hook.
			return claudeOutput(ev, map[string]any{"updatedInput": o.args})
		}
	case "PreSkillShellCommand":
		if a := o.approval; a != nil && !a.byDefault && a.denied() {
			// The bridge's own denial: a later call of a turn a hook aborted.
			return claudePermission(ev, "deny", a.because(), nil)
		}
		if o.args != nil {
			// Claude Code never runs a skill's command with new arguments:
			// the rewrite is denied, and says what it was.
			return claudePermission(ev, "deny", agent.Title+" cannot run a rewritten skill command: a hook rewrote it to "+encode(o.args), nil)
		}
	case "PermissionRequest":
		switch a := o.approval; {
		case a == nil || a.byDefault:
		case a.denied():
			return claudeOutput(ev, map[string]any{"decision": map[string]any{"behavior": "deny", "message": a.because()}})
		case o.args != nil && q.NoNewArgumentsAtApproval:
			return claudeOutput(ev, map[string]any{"decision": map[string]any{"behavior": "deny",
				"message": agent.Title + " cannot take a rewritten call at PermissionRequest: a hook rewrote it to " + encode(o.args)}})
		default:
			allow := map[string]any{"behavior": "allow"}
			if o.args != nil {
				allow["updatedInput"] = o.args
			}
			return claudeOutput(ev, map[string]any{"decision": allow})
		}
	case "UserPromptSubmit":
		if context, _ := o.llm["additionalContext"].(string); context != "" {
			return claudeOutput(ev, map[string]any{"additionalContext": context})
		}
	case "PostToolUse":
		switch {
		case o.result == nil:
			return Reply{}
		case q.NewOutput == agents.OutputStop:
			return Reply{Stdout: encode(map[string]any{"continue": false, "stopReason": *o.result})}
		case q.NewOutput.Blocks():
			return Reply{Stdout: encode(map[string]any{"decision": "block", "reason": *o.result})}
		case q.NewOutput == agents.OutputContextAfter:
			return withContext(Reply{}, ev, *o.result)
		}
		output, ok := claudeNewOutput(ev, *o.result)
		if !ok {
			// The change has no place in the tool's output: Claude reads
			// the output as it was, and the user is told, once a tool.
			if !o.once("output of " + ev.str("tool_name")) {
				return Reply{}
			}
			return Reply{Stdout: encode(map[string]any{"systemMessage": fmt.Sprintf(
				"hookwire: %s cannot take the change hook %s made to the output of %s (the output is not text, and the change is not that tool's JSON): the model reads its output unchanged", agent.Title, o.hook, ev.str("tool_name"))})}
		}
		specific := map[string]any{"updatedToolOutput": output}
		if strings.HasPrefix(ev.str("tool_name"), agentTools[agent.Name].mcpPrefix) {
			specific["updatedMCPToolOutput"] = output // the name Claude Code read before updatedToolOutput
		}
		return claudeOutput(ev, specific)
	case "PostToolUseFailure":
		if o.result != nil {
			// A failed call's error cannot be replaced: Claude reads the
			// hook's text as feedback after it.
			return Reply{Stdout: encode(map[string]any{"decision": "block", "reason": *o.result})}
		}
	}
	return Reply{}
}

// claudeToolText is a tool's output as the hook reads it, text whatever
// the tool: a string as it is; Bash's stdout, then its stderr on a line of
// its own; Read's file content; the text of an llmContent; an MCP tool's
// text blocks, joined; any other output as JSON.
func claudeToolText(response any) string {
	switch r := response.(type) {
	case map[string]any:
		if stdout, ok := r["stdout"].(string); ok {
			if stderr, _ := r["stderr"].(string); stderr != "" {
				return stdout + "\n" + stderr
			}
			return stdout
		}
		if file, ok := r["file"].(map[string]any); ok {
			if content, ok := file["content"].(string); ok {
				return content
			}
		}
		if content, ok := r["llmContent"]; ok {
			return partsText(content) // as Gemini CLI, and agents built on it, write it
		}
	case []any:
		var texts []string
		for _, block := range r {
			b, _ := block.(map[string]any)
			t, ok := b["text"].(string)
			if !ok {
				return text(response)
			}
			texts = append(texts, t)
		}
		return strings.Join(texts, "\n")
	}
	return text(response)
}

// claudeNewOutput is the event's tool output with the hook's new text in the
// place claudeToolText read it from: Claude Code 2.1.331 takes a
// replacement only in the tool's own output shape. ok is false when the
// text has no such place (an object read as JSON, and the text is not
// JSON).
func claudeNewOutput(ev Event, newText string) (out any, ok bool) {
	switch r := ev.Fields["tool_response"].(type) {
	case string:
		return newText, true
	case map[string]any:
		if _, isShell := r["stdout"].(string); isShell {
			out := maps.Clone(r)
			out["stdout"], out["stderr"] = newText, ""
			return out, true
		}
		if file, ok := r["file"].(map[string]any); ok {
			if _, isText := file["content"].(string); isText {
				out, file := maps.Clone(r), maps.Clone(file)
				file["content"] = newText
				out["file"] = file
				return out, true
			}
		}
		if _, ok := r["llmContent"]; ok {
			out := maps.Clone(r)
			out["llmContent"] = newText
			return out, true
		}
	case []any:
		if claudeToolText(r) != text(r) {
			return []any{map[string]any{"type": "text", "text": newText}}, true
		}
	}
	var v any
	if err := json.Unmarshal([]byte(newText), &v); err != nil {
		return nil, false
	}
	return v, true
}

// claudeAllow lets a PreToolUse call run, with its new arguments if any.
func claudeAllow(agent *agents.Agent, ev Event, reason string, args map[string]any) Reply {
	if args == nil && agent.Quirks.FailsOnAllowWithoutArguments {
		args = ev.object("tool_input")
	}
	return claudePermission(ev, "allow", reason, args)
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

// claudeToolResult is a tool's outcome as PostToolUse and PostToolUseFailure
// carry it.
func claudeToolResult(ev Event) protocol.ToolResult {
	if ev.Name == "PostToolUseFailure" {
		yes := true
		return protocol.ToolResult{ForLLM: ev.str("error"), IsError: &yes}
	}
	return protocol.ToolResult{ForLLM: claudeToolText(ev.Fields["tool_response"])}
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

// claudePrompt is a prompt (UserPromptSubmit) as a before_llm call: a
// request whose one message is the user's prompt. Claude Code takes no
// rewritten prompt and no tools from a hook, only context: the messages a
// modify appends, joined.
type claudePrompt struct{}

func (claudePrompt) request(ev Event) protocol.BeforeLLMParams {
	prompt := ev.str("prompt")
	return protocol.BeforeLLMParams{Model: "", Messages: []protocol.Message{{Role: "user", Content: &prompt}}}
}

func (p claudePrompt) changedRequest(ev Event, req protocol.BeforeLLMParams) map[string]any {
	sent := len(p.request(ev).Messages)
	if len(req.Messages) <= sent {
		return nil
	}
	var added []string
	for _, m := range req.Messages[sent:] {
		if m.Content != nil && *m.Content != "" {
			added = append(added, *m.Content)
		}
	}
	if len(added) == 0 {
		return nil
	}
	return map[string]any{"additionalContext": strings.Join(added, "\n\n")}
}

// response is Claude's last answer of a turn (Stop): its text, and no
// tool calls.
func (claudePrompt) response(ev Event) protocol.AfterLLMParams {
	answer, stop := ev.str("last_assistant_message"), "stop"
	return protocol.AfterLLMParams{Response: protocol.LLMResponse{Content: &answer, FinishReason: &stop}}
}

func (claudePrompt) changedResponse(Event, protocol.AfterLLMParams) map[string]any { return nil }
