package agent

import (
	"context"
	"testing"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// sent records what the agent sends its hooks, and answers before_tool
// and approve_tool with the decisions it is given.
type sent struct {
	noHooks
	llm       []protocol.BeforeLLMParams
	tool      []protocol.BeforeToolParams
	approval  []protocol.ApproveToolParams
	after     []protocol.AfterToolParams
	events    []protocol.RuntimeEvent
	beforeDec runtime.Decision
	approveOK runtime.Decision
}

func (s *sent) BeforeLLM(_ context.Context, p protocol.BeforeLLMParams) (protocol.BeforeLLMParams, runtime.Decision) {
	s.llm = append(s.llm, p)
	return p, pass
}

func (s *sent) BeforeTool(_ context.Context, p protocol.BeforeToolParams) (protocol.BeforeToolParams, runtime.Decision) {
	s.tool = append(s.tool, p)
	if s.beforeDec.Action == "" {
		return p, pass
	}
	return p, s.beforeDec
}

func (s *sent) ApproveTool(_ context.Context, p protocol.ApproveToolParams) runtime.Decision {
	s.approval = append(s.approval, p)
	if s.approveOK.Action == "" {
		return pass
	}
	return s.approveOK
}

func (s *sent) AfterTool(_ context.Context, p protocol.AfterToolParams) (protocol.AfterToolParams, runtime.Decision) {
	s.after = append(s.after, p)
	return p, pass
}

func (s *sent) Emit(ev protocol.RuntimeEvent) { s.events = append(s.events, ev) }

// turnUnder plays one turn that calls echo_text, then answers, under a
// host's loop (nil: the demo agent's own), and returns what it sent, the
// tool message the model read and the Status of agent.turn.end.
func turnUnder(t *testing.T, loop *host.Loop, s *sent) (toolMessage, status string) {
	t.Helper()
	tool, _ := Builtin("echo_text", t.TempDir())
	a := &Agent{LLM: NewScripted([]Reply{echo("hi"), {Content: "ok"}}), Tools: []Tool{tool}, Hooks: s, Loop: loop}
	a.RunTurn(context.Background(), "p")
	for _, req := range s.llm {
		for _, m := range req.Messages {
			if m.Role == "tool" && m.Content != nil {
				toolMessage = *m.Content
			}
		}
	}
	for _, ev := range s.events {
		if ev.Kind == protocol.KindTurnEnd {
			var p map[string]any
			if err := protocol.Unmarshal(ev.Payload, &p); err != nil {
				t.Fatal(err)
			}
			status, _ = p["Status"].(string)
		}
	}
	return toolMessage, status
}

// Under PicoClaw's loop the agent opens every request with a system prompt,
// writes meta's trace path and source, leaves channel and chat_id out,
// sends PicoClaw's options and its tool results' members, and ends the turn
// "completed"; the demo agent's own does none of that.
func TestUnderPicoClawsLoopTheAgentSendsWhatPicoClawsLoopSends(t *testing.T) {
	s := &sent{}
	if _, status := turnUnder(t, host.PicoClaw.Loop, s); status != "completed" {
		t.Errorf("turn end Status %q, want completed", status)
	}
	req := s.llm[0]
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || *req.Messages[0].Content != host.PicoClaw.Loop.SystemPrompt {
		t.Errorf("first request's messages %+v, want the system prompt, then the user's", req.Messages)
	}
	if req.Options["max_tokens"] != 32768 || req.Channel != nil || *req.Meta.TracePath != "turn.llm.request" || *req.Meta.Source != "runTurn" {
		t.Errorf("before_llm %+v, meta %+v", req, *req.Meta)
	}
	if c := s.tool[0]; c.Channel != nil || c.ChatID != nil || *c.Meta.TracePath != "turn.tool.before" {
		t.Errorf("before_tool %+v", c)
	}
	if c := s.approval[0]; *c.Meta.TracePath != "turn.tool.approve" || c.Channel != nil {
		t.Errorf("approve_tool %+v", c)
	}
	if r := s.after[0].Result; r.Silent == nil || r.IsError == nil || r.Async == nil {
		t.Errorf("after_tool result %+v, want silent, is_error and async written", r)
	}
	for _, ev := range s.events {
		if ev.Correlation == nil || ev.Attrs["agent_source"] != "runTurn" {
			t.Errorf("%s: correlation %v, attrs %v", ev.Kind, ev.Correlation, ev.Attrs)
		}
	}

	s = &sent{}
	if _, status := turnUnder(t, nil, s); status != TurnDone {
		t.Errorf("the demo agent's turn end Status %q, want %q", status, TurnDone)
	}
	if req := s.llm[0]; len(req.Messages) != 1 || req.Channel == nil || req.Meta.TracePath != nil {
		t.Errorf("the demo agent's request %+v", req)
	}
}

// The model reads PicoClaw's words for a denied call, and a turn a hook
// ended ends "error" (abort_turn) or "aborted" (hard_abort), as in
// pipeline_execute.go and turn_coord.go.
func TestUnderPicoClawsLoopDenialsAndAbortsAreInPicoClawsWords(t *testing.T) {
	deny := runtime.Decision{Action: protocol.ActionDenyTool, Hook: "h", Reason: "no"}
	for _, c := range []struct {
		name         string
		s            *sent
		text, status string
	}{
		{"deny_tool", &sent{beforeDec: deny}, "Tool execution denied by hook: no", "completed"},
		{"deny_tool without a reason", &sent{beforeDec: runtime.Decision{Action: protocol.ActionDenyTool, Hook: "h"}}, "Tool execution denied by hook", "completed"},
		{"approval", &sent{approveOK: deny}, "Tool execution denied by approval hook: no", "completed"},
		{"failed approval", &sent{approveOK: runtime.Decision{Action: protocol.ActionDenyTool, Hook: "h", Reason: "hook h failed: boom", Failed: true}},
			`Tool execution denied by approval hook: tool approval hook "h" failed`, "completed"},
		{"abort_turn", &sent{beforeDec: runtime.Decision{Action: protocol.ActionAbortTurn, Hook: "h"}}, "", "error"},
		{"hard_abort", &sent{beforeDec: runtime.Decision{Action: protocol.ActionHardAbort, Hook: "h"}}, "", "aborted"},
	} {
		text, status := turnUnder(t, host.PicoClaw.Loop, c.s)
		if text != c.text || status != c.status {
			t.Errorf("%s: the model read %q, the turn ended %q; want %q, %q", c.name, text, status, c.text, c.status)
		}
	}
}
