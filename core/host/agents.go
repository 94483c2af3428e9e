package host

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The agents a hook reaches through the bridge (hookwire-bridge), as
// hosts: `hookwire run --host claude-code` and `hookwire conformance
// --host claude-code` show before deployment what the agent makes of a
// hook's replies, by the rules the bridge follows. Each is derived from
// the agent's value in core/agents: the stages its events call, and its
// quirks.

// agentHosts are the hosts of agents.All, in its order.
func agentHosts() []*Host {
	out := make([]*Host, len(agents.All))
	for i, a := range agents.All {
		out[i] = agentHost(a)
	}
	return out
}

// agentHost is agent a behind the bridge. Every agent turns respond into a
// deny whose reason is the result, and leaves an approver's abstention to
// its own permission rules. An agent without model events (most) is
// called before_llm once per prompt, where only the messages a modify
// appends reach the model, as context; and after_llm once per turn, with
// its last answer, which a modify cannot change.
func agentHost(a *agents.Agent) *Host {
	called := a.Called()
	h := &Host{
		Name:  a.Name,
		Title: a.Title,
		Grants: func(intercept []string) []string {
			var out []string
			for _, s := range intercept {
				if slices.Contains(called, agents.Stage(s)) {
					out = append(out, s)
				}
			}
			return out
		},
		Acts: func(method string, params, res any) (any, []string) { return agentActs(a, method, params, res) },
	}
	if !a.Quirks.ModelEvents && a.Calls(agents.AfterLLM) {
		h.Calls = func(method string, params any) bool {
			// after_llm comes at the end of the turn, with its last answer only.
			p, ok := params.(protocol.AfterLLMParams)
			return method != protocol.MethodAfterLLM || ok && len(p.Response.ToolCalls) == 0
		}
	}
	return h
}

// agentActs is what agent a acts on of a hook's answer res to method,
// sent params, with notes on what it drops or changes.
func agentActs(a *agents.Agent, method string, params, res any) (any, []string) {
	var notes []string
	denied := "the call is denied"
	if a.Quirks.EndsRun {
		denied = a.Title + "'s whole run is ended (it stops a call only so)"
	}
	switch v := res.(type) {
	case protocol.Respond:
		read := ", and the model reads the result as the reason"
		if a.Quirks.EndsRun {
			read = ", with the result as the reason; the model reads nothing of it"
		}
		return protocol.DenyTool{Action: protocol.ActionDenyTool, Reason: v.Result.ForLLM},
			[]string{"respond: " + a.Title + " lets no hook answer a tool call: " + denied + read}
	case protocol.ApproveToolResult:
		if v.Abstain != nil && *v.Abstain {
			return res, []string{"abstain: no decision; " + a.Title + "'s own permission rules decide"}
		}
	case protocol.BeforeToolModify:
		prev, _ := params.(protocol.BeforeToolParams)
		if reflect.DeepEqual(v.Call.Arguments, prev.Arguments) {
			break
		}
		if a.Quirks.FailsOnAsk {
			notes = append(notes, "modify: "+a.TitleVersion()+" takes new arguments only with an allow: a rewritten call no approver allowed is allowed, past "+a.Title+"'s own permission rules")
		}
		if a.Quirks.NoNewArguments {
			args, _ := json.Marshal(v.Call.Arguments)
			return protocol.DenyTool{Action: protocol.ActionDenyTool, Reason: a.Title + " cannot take a rewritten call: a hook rewrote it to " + string(args)},
				append(notes, "modify: "+a.TitleVersion()+" takes no new arguments at "+eventOf(a, agents.BeforeTool)+": "+denied)
		}
	case protocol.BeforeLLMModify:
		prev, _ := params.(protocol.BeforeLLMParams)
		switch {
		case a.Quirks.PromptBlockOnly:
			return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: prev},
				append(notes, "request changes dropped: "+a.Title+" takes no context or new prompt from a hook, only a blocked prompt")
		case a.Quirks.ModelEvents:
			v.Request, notes = sameTools(v.Request, prev, notes, a.Title+" takes no tools from a "+eventOf(a, agents.BeforeLLM)+" hook")
		default:
			v.Request, notes = appendedOnly(a, v.Request, prev, notes)
		}
		res = v
	case protocol.AfterLLMModify:
		if a.Quirks.ModelEvents {
			break
		}
		// The user has read the answer: it stands.
		prev, _ := params.(protocol.AfterLLMParams)
		res = protocol.Continue{Remarks: v.Remarks}
		if !reflect.DeepEqual(v.Response.Response, prev.Response) {
			notes = append(notes, "modify: "+a.Title+" shows its last answer as it was (the user has read it); only context on it counts, and keeps the turn going")
		}
	case protocol.AfterToolModify:
		prev, _ := params.(protocol.AfterToolParams)
		yes := true
		switch a.Quirks.NewOutput {
		case agents.OutputContextAfter:
			v.Result.Result.ForLLM = prev.Result.ForLLM + "\n" + v.Result.Result.ForLLM
			notes = append(notes, "the new output reaches the model after the output, which it still reads: "+a.Title+" takes no new output from a hook")
		case agents.OutputStop:
			v.Result.Result.IsError = &yes
			notes = append(notes, "the new output reaches the model as an error: "+a.Title+" takes no new output from a hook, only a stop with a reason")
		case agents.OutputBlockedResult:
			v.Result.Result.ForLLM = "Tool result blocked: " + v.Result.Result.ForLLM
			v.Result.Result.IsError = &yes
			notes = append(notes, "the new output reaches the model as a blocked result, an error reading \"Tool result blocked: \" and the new text: "+a.TitleVersion()+" reads no new output from a hook")
		}
		res = v
	}
	return res, notes
}

// eventOf is the first event of agent a, by name, that asks stage.
func eventOf(a *agents.Agent, stage agents.Stage) string {
	for _, name := range slices.Sorted(maps.Keys(a.Events)) {
		if slices.Contains(a.Events[name].Calls, stage) {
			return name
		}
	}
	return ""
}

// appendedOnly is a before_llm modify as Claude Code takes it, and each
// agent a of its form: the messages appended after those sent, as context;
// no tools, no other change.
func appendedOnly(a *agents.Agent, next, prev protocol.BeforeLLMParams, notes []string) (protocol.BeforeLLMParams, []string) {
	next, notes = sameTools(next, prev, notes, a.Title+" takes no tools from a hook")
	n := len(prev.Messages)
	if len(next.Messages) < n || !reflect.DeepEqual(next.Messages[:n], prev.Messages) {
		notes = append(notes, "messages changed: "+a.Title+" takes only messages appended after those sent, as context of the prompt")
		kept := slices.Clone(prev.Messages)
		if len(next.Messages) > n {
			kept = append(kept, next.Messages[n:]...)
		}
		next.Messages = kept
	}
	return next, notes
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
