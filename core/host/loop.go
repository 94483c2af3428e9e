package host

import (
	"encoding/json"
	"fmt"

	"github.com/hookwire/hookwire/core/protocol"
)

// Loop is what a host's own agent loop puts in the calls and events it
// sends, where that differs from what hookwire's demo agent (core/agent)
// sends, so that the demo agent can send the same under that host. The
// members a host writes at all are its Writes; Loop fills what the demo
// agent would otherwise leave out or word differently.
type Loop struct {
	// SystemPrompt is the system message every LLM request opens with: a
	// host's loop always sends one, and what the host does with a hook
	// that changes it shows only when there is one.
	SystemPrompt string
	// Source is meta.Source of every call and event.
	Source string
	// TracePaths are meta.TracePath, by method for a call and by kind
	// for an event.
	TracePaths map[string]string
	// TurnStatus is the Status of agent.turn.end for each of the demo
	// agent's turn statuses.
	TurnStatus map[string]string
	// Denied is the text the model reads for a tool call a before_tool
	// hook denied, or an approver did not approve (approval), with the
	// hook's reason.
	Denied func(reason string, approval bool) string
	// ApprovalFailed is the reason of a denial by an approver whose call
	// failed; nil: why it failed.
	ApprovalFailed func(hook string) string
	// Payloads are the members of each event kind's payload the host
	// writes, each with the value it has when the demo agent has none; the
	// demo agent's other members are left out. A kind not listed is sent
	// as the demo agent makes it.
	Payloads map[string]map[string]any
	// Correlation is the correlation of an event whose meta has the trace
	// path, and Attrs its attrs, given meta.Source and meta.Iteration; nil
	// leaves either out.
	Correlation func(tracePath string) map[string]any
	Attrs       func(source string, iteration int) map[string]any
	// Severity is the severity of an event of the kind with that payload.
	Severity func(kind string, payload map[string]any) string
	// Options are the options of every LLM request of the agent of that
	// id; nil: none.
	Options func(agentID string) map[string]any
	// NoChannel: the loop leaves the channel and chat_id of its calls
	// empty, whatever its types have room for.
	NoChannel bool
	// Response and Result are an LLM's answer and a tool's result as the
	// host's types write them; nil: as they are.
	Response func(protocol.LLMResponse) protocol.LLMResponse
	Result   func(protocol.ToolResult) protocol.ToolResult
}

// Payload is the payload of an event of the kind as the host writes it,
// from the members the demo agent gives: those the host writes, in its
// place a zero value for each it does not have. It is p itself for a kind
// the loop does not list.
func (l *Loop) Payload(kind string, p map[string]any) map[string]any {
	members, ok := l.Payloads[kind]
	if !ok {
		return p
	}
	out := make(map[string]any, len(members))
	for k, zero := range members {
		if v, ok := p[k]; ok {
			out[k] = v
		} else {
			out[k] = zero
		}
	}
	return out
}

// picoClawLoop is what PicoClaw's agent loop sends (its code at cf67dd38:
// pipeline_llm.go, pipeline_execute.go, turn_coord.go, event_payloads.go,
// agent_event.go, events_runtime.go).
var picoClawLoop = &Loop{
	// PicoClaw's loop always builds a system prompt (its identity, tools
	// and skills); this one stands for it.
	SystemPrompt: "You are PicoClaw, a personal assistant. Use the tools offered when they help.",
	Source:       "runTurn",
	TracePaths: map[string]string{
		protocol.MethodBeforeLLM:     "turn.llm.request",
		protocol.MethodAfterLLM:      "turn.llm.response",
		protocol.MethodBeforeTool:    "turn.tool.before",
		protocol.MethodApproveTool:   "turn.tool.approve",
		protocol.MethodAfterTool:     "turn.tool.after",
		protocol.KindTurnStart:       "turn.start",
		protocol.KindTurnEnd:         "turn.end",
		protocol.KindLLMRequest:      "turn.llm.request",
		protocol.KindLLMResponse:     "turn.llm.response",
		protocol.KindToolExecStart:   "turn.tool.start",
		protocol.KindToolExecEnd:     "turn.tool.end",
		protocol.KindToolExecSkipped: "turn.tool.skipped",
		protocol.KindError:           "turn.error",
	},
	// completed, error or aborted: an abort_turn ends the turn as an
	// error ("hook requested turn abort"), a hard_abort as aborted (rolled
	// back); a turn the caller gave up on ends in an error of the context.
	TurnStatus: map[string]string{
		"done": "completed", "aborted": "error", "hard_aborted": "aborted", "failed": "error", "canceled": "error",
	},
	Denied: func(reason string, approval bool) string {
		text := "Tool execution denied by hook"
		if approval {
			text = "Tool execution denied by approval hook"
		}
		if reason == "" {
			return text
		}
		return text + ": " + reason
	},
	// hooks.go words a failed approver so, whatever went wrong (a
	// deadline says "timed out", which the demo agent cannot tell apart).
	ApprovalFailed: func(hook string) string { return fmt.Sprintf("tool approval hook %q failed", hook) },
	// The members of PicoClaw's payload types, with their Go zero values
	// (a nil slice is written null).
	Payloads: map[string]map[string]any{
		protocol.KindTurnStart: {"UserMessage": "", "MediaCount": 0},
		protocol.KindTurnEnd: {
			"Status": "", "Workspace": "", "Iterations": 0, "Duration": 0, "FinalContentLen": 0, "UserMessage": "", "FinalContent": "",
			"ActiveSkills": nil, "AttemptedSkills": nil, "FinalSuccessfulPath": nil, "SkillContextSnapshots": nil, "ToolKinds": nil, "ToolExecutions": nil,
		},
		protocol.KindLLMRequest:      {"Model": "", "MessagesCount": 0, "ToolsCount": 0, "MaxTokens": 0, "Temperature": 0},
		protocol.KindLLMResponse:     {"ContentLen": 0, "ToolCalls": 0, "HasReasoning": false},
		protocol.KindToolExecStart:   {"Tool": "", "Arguments": nil},
		protocol.KindToolExecEnd:     {"Tool": "", "Duration": 0, "ForLLMLen": 0, "ForUserLen": 0, "IsError": false, "Async": false},
		protocol.KindToolExecSkipped: {"Tool": "", "Reason": ""},
		protocol.KindError:           {"Stage": "", "Message": ""},
	},
	// An event's correlation is a struct, always written; its trace_id is
	// the trace path of the event's meta (and parent_turn_id, empty for a
	// top-level turn, is left out).
	Correlation: func(tracePath string) map[string]any {
		c := map[string]any{}
		if tracePath != "" {
			c["trace_id"] = tracePath
		}
		return c
	},
	Attrs: func(source string, iteration int) map[string]any {
		a := map[string]any{}
		if source != "" {
			a["agent_source"] = source
		}
		if iteration != 0 {
			a["iteration"] = iteration
		}
		if len(a) == 0 {
			return nil
		}
		return a
	},
	NoChannel: true,
	// Its defaults: 32768 tokens, temperature 0.7 (config/defaults.go,
	// agent/instance.go), and the agent's id as the prompt cache key.
	Options: func(agentID string) map[string]any {
		return map[string]any{"max_tokens": 32768, "temperature": 0.7, "prompt_cache_key": agentID}
	},
	// PicoClaw's LLMResponse has no role, and always writes content,
	// finish_reason, reasoning and reasoning_details (null when there are
	// none); its ToolResult always writes silent, is_error and async.
	Response: func(r protocol.LLMResponse) protocol.LLMResponse {
		r.Role = nil
		r.Content, r.FinishReason, r.Reasoning = orEmpty(r.Content), orEmpty(r.FinishReason), orEmpty(r.Reasoning)
		if r.ReasoningDetails == nil {
			r.ReasoningDetails = json.RawMessage("null")
		}
		return r
	},
	Result: func(r protocol.ToolResult) protocol.ToolResult {
		r.Silent, r.IsError, r.Async = orFalse(r.Silent), orFalse(r.IsError), orFalse(r.Async)
		return r
	},
	Severity: func(kind string, payload map[string]any) string {
		switch kind {
		case protocol.KindError:
			return "error"
		case protocol.KindToolExecSkipped:
			return "warn"
		case protocol.KindTurnEnd:
			switch fmt.Sprint(payload["Status"]) {
			case "error":
				return "error"
			case "aborted":
				return "warn"
			}
		case protocol.KindToolExecEnd:
			if payload["IsError"] == true {
				return "warn"
			}
		}
		return "info"
	},
}

func orEmpty(s *string) *string {
	if s == nil {
		return new(string)
	}
	return s
}

func orFalse(b *bool) *bool {
	if b == nil {
		return new(bool)
	}
	return b
}
