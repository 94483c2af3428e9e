package agent

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// emit raises a runtime event of the session, outside any turn.
func (a *Agent) emit(kind, sessionKey, turnID string, payload map[string]any) {
	a.emitAt(kind, sessionKey, turnID, 0, payload)
}

// emitAt raises a runtime event, with its payload in PascalCase as PicoClaw
// writes it; turnID is empty for an event of the session, iteration is the
// LLM round under way. Under a host's loop (Loop), the event is as that
// loop writes it.
func (a *Agent) emitAt(kind, sessionKey, turnID string, iteration int, payload map[string]any) {
	a.step(Step{Kind: StepEvent, Event: kind})
	if a.Hooks == nil {
		return
	}
	severity := "info"
	if kind == protocol.KindError {
		severity = "error"
	}
	agentID := or(a.AgentID, "agent-1")
	ev := protocol.RuntimeEvent{
		ID:     ptr("evt-" + strconv.FormatInt(a.events.Add(1), 10)),
		Kind:   kind,
		Time:   ptr(time.Now().UTC().Format(time.RFC3339Nano)),
		Source: protocol.EventSource{Component: ptr("agent"), Name: ptr(agentID)},
		Scope: protocol.EventScope{
			AgentID: ptr(agentID), SessionKey: ptr(sessionKey), TurnID: optional(turnID),
			Channel: ptr(channel), ChatID: ptr(chatID),
		},
	}
	if l := a.Loop; l != nil {
		payload = l.Payload(kind, payload)
		severity = l.Severity(kind, payload)
		// The scope is the inbound message's, its sender included.
		ev.Scope.Extra = protocol.Extra{"sender_id": json.RawMessage(strconv.Quote(senderID))}
		if l.Correlation != nil {
			ev.Correlation = l.Correlation(l.TracePaths[kind])
		}
		if l.Attrs != nil {
			ev.Attrs = l.Attrs(l.Source, iteration)
		}
	}
	ev.Severity = &severity
	ev.Payload, _ = json.Marshal(payload)
	a.Hooks.Emit(ev)
}

// Tool events name the call as hooks left it (Tool, Arguments), as
// PicoClaw does; when hooks changed it, LLMTool and LLMArguments keep the
// call the LLM made, so that no hook can launder it out of an audit.

func toolStart(s Step) map[string]any {
	p := map[string]any{"Tool": s.Tool, "Arguments": s.Arguments}
	if s.LLMCall != nil {
		p["LLMTool"], p["LLMArguments"] = s.LLMCall.Tool, s.LLMCall.Arguments
	}
	return p
}

func toolSkipped(s Step, reason string) map[string]any {
	p := map[string]any{"Tool": s.Tool, "Reason": reason}
	if s.LLMCall != nil {
		p["LLMTool"] = s.LLMCall.Tool
	}
	return p
}

func toolEnd(s Step, took time.Duration, r protocol.ToolResult) map[string]any {
	p := map[string]any{
		"Tool": s.Tool, "Duration": took.Nanoseconds(), "ForLLMLen": len(r.ForLLM), "ForUserLen": len(deref(r.ForUser)),
		"IsError": r.IsError != nil && *r.IsError, "Async": r.Async != nil && *r.Async,
	}
	if s.LLMCall != nil {
		p["LLMTool"] = s.LLMCall.Tool
	}
	return p
}
