package host

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/hookwire/hookwire/core/protocol"
)

// The agents a hook reaches through the bridge (hookwire-bridge), as
// hosts: `hookwire run --host claude-code` and `hookwire conformance
// --host claude-code` show before deployment what the agent makes of a
// hook's replies, by the rules the bridge follows (core/bridge, which
// checks that its events call exactly the stages each host grants).

// ClaudeCode is Claude Code 2.1.331 behind the bridge: it has no model
// events, so before_llm is called once per prompt, and only the messages a
// modify appends reach Claude (as context of the prompt); after_llm is
// called once per turn, with the last answer, which a modify cannot change;
// tools reach its model only from MCP servers; respond
// becomes a deny whose reason is the result; an approver's abstention
// leaves the call to Claude Code's own permission rules.
var ClaudeCode = promptAgent("claude-code", "Claude Code", nil)

// appendedOnly is a before_llm modify as Claude Code takes it: the
// messages appended after those sent, as context; no tools, no other
// change.
func appendedOnly(next, prev protocol.BeforeLLMParams, notes []string) (protocol.BeforeLLMParams, []string) {
	next, notes = sameTools(next, prev, notes, "Claude Code takes no tools from a hook")
	n := len(prev.Messages)
	if len(next.Messages) < n || !reflect.DeepEqual(next.Messages[:n], prev.Messages) {
		notes = append(notes, "messages changed: Claude Code takes only messages appended after those sent, as context of the prompt")
		kept := slices.Clone(prev.Messages)
		if len(next.Messages) > n {
			kept = append(kept, next.Messages[n:]...)
		}
		next.Messages = kept
	}
	return next, notes
}

// GeminiCLI is Gemini CLI 0.61.0 behind the bridge: every stage is called,
// but a before_llm modify cannot add tools, respond becomes a deny whose
// reason is the result, and a new tool output reaches the model only as a
// blocked result ("Tool result blocked: " and the new text, an error).
var GeminiCLI = &Host{
	Name:   "gemini-cli",
	Title:  "Gemini CLI",
	Grants: only(AgentStages["gemini-cli"]),
	Acts: func(method string, params, res any) (any, []string) {
		res, notes := agentActs("Gemini CLI", method, params, res)
		switch v := res.(type) {
		case protocol.BeforeLLMModify:
			prev, _ := params.(protocol.BeforeLLMParams)
			v.Request, notes = sameTools(v.Request, prev, notes, "Gemini CLI takes no tools from a BeforeModel hook")
			res = v
		case protocol.AfterToolModify:
			v.Result.Result.ForLLM = "Tool result blocked: " + v.Result.Result.ForLLM
			yes := true
			v.Result.Result.IsError = &yes
			notes = append(notes, "the new output reaches the model as a blocked result, an error reading \"Tool result blocked: \" and the new text: Gemini CLI 0.61.0 reads no new output from a hook")
			res = v
		}
		return res, notes
	},
}

// CodexCLI is Codex CLI 0.171.0 behind the bridge: Claude Code's form, so
// before_llm is called once per prompt and only the messages a modify
// appends reach the model; after_llm is never called. A new tool output
// reaches the model in place of the output, as a blocked result's reason.
var CodexCLI = promptAgent("codex-cli", "Codex CLI", nil)

// FactoryDroid is Factory Droid behind the bridge: Claude Code's form,
// except that a new tool output reaches the model as feedback after the
// output, which it still reads.
var FactoryDroid = promptAgent("factory-droid", "Factory Droid", func(v protocol.AfterToolModify, prev protocol.AfterToolParams) (any, string) {
	v.Result.Result.ForLLM = prev.Result.ForLLM + "\n" + v.Result.Result.ForLLM
	return v, "the new output reaches the model after the output, which it still reads: Factory Droid takes no new output from a hook"
})

// QwenCode is Qwen Code 0.24.4 behind the bridge: Claude Code's form, except
// that a new tool output reaches the model as an error with the new text,
// and a rewritten call is denied (it takes no new arguments at PreToolUse).
var QwenCode = promptAgent("qwen-code", "Qwen Code", func(v protocol.AfterToolModify, _ protocol.AfterToolParams) (any, string) {
	yes := true
	v.Result.Result.IsError = &yes
	return v, "the new output reaches the model as an error: Qwen Code takes no new output from a hook, only a stop with a reason"
})

// CopilotCLI is GitHub Copilot CLI behind the bridge: only a tool call's
// stages are called (before_tool, approve_tool).
var CopilotCLI = &Host{
	Name:   "copilot-cli",
	Title:  "GitHub Copilot CLI",
	Grants: only(AgentStages["copilot-cli"]),
	Acts: func(method string, params, res any) (any, []string) {
		return agentActs("GitHub Copilot CLI", method, params, res)
	},
}

// Cursor is Cursor behind the bridge: a tool call's stages, and before_llm
// at each prompt, where only abort_turn (blocking the prompt) is taken.
var Cursor = &Host{
	Name:   "cursor",
	Title:  "Cursor",
	Grants: only(AgentStages["cursor"]),
	Acts: func(method string, params, res any) (any, []string) {
		res, notes := agentActs("Cursor", method, params, res)
		if _, ok := res.(protocol.BeforeLLMModify); ok {
			prev, _ := params.(protocol.BeforeLLMParams)
			return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: prev},
				append(notes, "request changes dropped: Cursor takes no context or new prompt from a hook, only a blocked prompt")
		}
		return res, notes
	},
}

// promptAgent is an agent of Claude Code's form: before_llm once per prompt,
// where only appended messages reach the model; after_llm, where the agent
// calls it, once per turn at its end, with the last answer, which a modify
// cannot change. newOutput says what it makes of an after_tool modify,
// when not what Claude Code makes of it.
func promptAgent(name, title string, newOutput func(v protocol.AfterToolModify, prev protocol.AfterToolParams) (any, string)) *Host {
	return &Host{
		Name:   name,
		Title:  title,
		Grants: only(AgentStages[name]),
		Calls: func(method string, params any) bool {
			// after_llm comes at Stop, with the last answer of the turn only.
			p, ok := params.(protocol.AfterLLMParams)
			return method != protocol.MethodAfterLLM || ok && len(p.Response.ToolCalls) == 0
		},
		Acts: func(method string, params, res any) (any, []string) {
			res, notes := agentActs(title, method, params, res)
			switch v := res.(type) {
			case protocol.BeforeToolModify:
				prev, _ := params.(protocol.BeforeToolParams)
				if name == "codex-cli" && !reflect.DeepEqual(v.Call.Arguments, prev.Arguments) {
					notes = append(notes, "modify: Codex CLI 0.171.0 takes new arguments only with an allow: a rewritten call no approver allowed is allowed, past Codex CLI's own permission rules")
				}
				if name == "qwen-code" && !reflect.DeepEqual(v.Call.Arguments, prev.Arguments) {
					args, _ := json.Marshal(v.Call.Arguments)
					return protocol.DenyTool{Action: protocol.ActionDenyTool, Reason: "Qwen Code cannot take a rewritten call: a hook rewrote it to " + string(args)},
						append(notes, "modify: Qwen Code 0.24.4 takes no new arguments at PreToolUse: the call is denied")
				}
			case protocol.BeforeLLMModify:
				prev, _ := params.(protocol.BeforeLLMParams)
				v.Request, notes = appendedOnly(v.Request, prev, notes)
				res = v
			case protocol.AfterLLMModify:
				// The user has read the answer: it stands.
				prev, _ := params.(protocol.AfterLLMParams)
				res = protocol.Continue{Remarks: v.Remarks}
				if !reflect.DeepEqual(v.Response.Response, prev.Response) {
					notes = append(notes, "modify: "+title+" shows its last answer as it was (the user has read it); only context on it counts, and keeps the turn going")
				}
			case protocol.AfterToolModify:
				if newOutput != nil {
					prev, _ := params.(protocol.AfterToolParams)
					var note string
					res, note = newOutput(v, prev)
					notes = append(notes, note)
				}
			}
			return res, notes
		},
	}
}

// AgentStages are the stages each agent's events call through the bridge.
var AgentStages = map[string][]string{
	"claude-code":   {"before_llm", "after_llm", "before_tool", "approve_tool", "after_tool"},
	"gemini-cli":    {"before_llm", "after_llm", "before_tool", "approve_tool", "after_tool"},
	"codex-cli":     {"before_llm", "after_llm", "before_tool", "approve_tool", "after_tool"},
	"copilot-cli":   {"before_tool", "approve_tool"},
	"cursor":        {"before_llm", "before_tool", "approve_tool"},
	"factory-droid": {"before_llm", "before_tool", "approve_tool", "after_tool"},
	"qwen-code":     {"before_llm", "after_llm", "before_tool", "approve_tool", "after_tool"},
}

// sameTools puts back the tools of the request sent, as an agent that
// takes none from a hook does, and notes what was dropped and why.
func sameTools(next, prev protocol.BeforeLLMParams, notes []string, why string) (protocol.BeforeLLMParams, []string) {
	if !reflect.DeepEqual(toolMap(next.Tools), toolMap(prev.Tools)) {
		notes = append(notes, "tools change"+toolChanges(next.Tools, prev.Tools)+" dropped: "+why+" (serve plugin tools with hookwire mcp)")
		next.Tools = prev.Tools
	}
	return next, notes
}

// only grants the stages of an intercept list that the agent calls.
func only(called []string) func([]string) []string {
	return func(intercept []string) []string {
		var out []string
		for _, s := range intercept {
			if slices.Contains(called, s) {
				out = append(out, s)
			}
		}
		return out
	}
}

// agentActs is what both agents do alike: respond has no counterpart, so
// it is a deny whose reason is the result; an abstaining approver leaves
// the call to the agent.
func agentActs(agent, method string, params, res any) (any, []string) {
	switch v := res.(type) {
	case protocol.Respond:
		return protocol.DenyTool{Action: protocol.ActionDenyTool, Reason: v.Result.ForLLM},
			[]string{"respond: " + agent + " lets no hook answer a tool call: the call is denied, and the model reads the result as the reason"}
	case protocol.ApproveToolResult:
		if v.Abstain != nil && *v.Abstain {
			return res, []string{"abstain: no decision; " + agent + "'s own permission rules decide"}
		}
	}
	return res, nil
}
