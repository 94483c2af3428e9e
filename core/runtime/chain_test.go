package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"

	"github.com/hookwire/hookwire/core/protocol"
)

// The chain engine and the outcome rules: what each answer of each hook
// does to a stage's chain and to its Decision.

func TestEveryActionOfEveryMethod(t *testing.T) {
	type check func(t *testing.T, out any, d Decision)
	decided := func(action protocol.Action, reason string) check {
		return func(t *testing.T, _ any, d Decision) {
			if d.Action != action || d.Reason != reason || (action != protocol.ActionContinue && d.Hook != "h") {
				t.Errorf("decision = %+v, want %s by h, reason %q", d, action, reason)
			}
		}
	}
	unchanged := func(t *testing.T, out any, d Decision) {
		if d.Action != protocol.ActionContinue {
			t.Errorf("decision = %+v, want continue", d)
		}
		switch o := out.(type) {
		case protocol.BeforeLLMParams:
			same(t, o, llmReq)
		case protocol.AfterLLMParams:
			same(t, o, llmResp)
		case protocol.BeforeToolParams:
			same(t, o, toolReq)
		case protocol.AfterToolParams:
			same(t, o, toolRes)
		}
	}
	for _, tc := range []struct {
		stage  Stage
		result string
		check  check
	}{
		{StageBeforeLLM, `{"action":"continue"}`, unchanged},
		{StageBeforeLLM, `{}`, unchanged},
		{StageBeforeLLM, `{"action":""}`, unchanged},
		{StageBeforeLLM, `{"action":"modify","request":{"model":"other","messages":[{"role":"user","content":"bye"}]}}`,
			func(t *testing.T, out any, d Decision) {
				req := out.(protocol.BeforeLLMParams)
				if d.Action != protocol.ActionContinue || req.Model != "other" || *req.Messages[0].Content != "bye" {
					t.Errorf("got %+v, %+v", req, d)
				}
				if req.Options != nil {
					t.Errorf("options survived a modify that left them out: %v (modify replaces, it does not merge)", req.Options)
				}
				if req.Meta != meta {
					t.Errorf("meta = %v, want the host's", req.Meta)
				}
			}},
		{StageBeforeLLM, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageBeforeLLM, `{"action":"hard_abort","reason":"stop"}`, decided(protocol.ActionHardAbort, "stop")},
		{StageAfterLLM, `{"action":"continue"}`, unchanged},
		{StageAfterLLM, `{"action":"modify","response":{"model":"m","response":{"content":"changed"}}}`,
			func(t *testing.T, out any, d Decision) {
				resp := out.(protocol.AfterLLMParams)
				if d.Action != protocol.ActionContinue || *resp.Response.Content != "changed" || resp.Meta != meta {
					t.Errorf("got %+v, %+v", resp, d)
				}
			}},
		{StageAfterLLM, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageAfterLLM, `{"action":"hard_abort"}`, decided(protocol.ActionHardAbort, "")},
		{StageBeforeTool, `{"action":"continue"}`, unchanged},
		{StageBeforeTool, `{"action":"modify","call":{"tool":"read_file","arguments":{"path":"a"}}}`,
			func(t *testing.T, out any, d Decision) {
				call := out.(protocol.BeforeToolParams)
				if d.Action != protocol.ActionContinue || call.Tool != "read_file" || call.Arguments["path"] != "a" || call.Meta != meta {
					t.Errorf("got %+v, %+v", call, d)
				}
			}},
		{StageBeforeTool, `{"action":"modify","call":{"arguments":{}}}`,
			func(t *testing.T, out any, d Decision) {
				if call := out.(protocol.BeforeToolParams); call.Tool != "" {
					t.Errorf("tool = %q: a call without tool renames the tool to \"\"", call.Tool)
				}
			}},
		{StageBeforeTool, `{"action":"respond","result":{"for_llm":"sunny","is_error":false}}`,
			func(t *testing.T, out any, d Decision) {
				if d.Action != protocol.ActionRespond || d.Hook != "h" || d.Result == nil || d.Result.ForLLM != "sunny" {
					t.Errorf("decision = %+v", d)
				}
				same(t, out, toolReq)
			}},
		{StageBeforeTool, `{"action":"respond","call":{"tool":"my_plugin_tool","arguments":{"query":"q"}},"result":{"for_llm":"ok"}}`,
			func(t *testing.T, out any, d Decision) {
				if call := out.(protocol.BeforeToolParams); d.Action != protocol.ActionRespond || call.Tool != "my_plugin_tool" {
					t.Errorf("got %+v, %+v", call, d)
				}
			}},
		{StageBeforeTool, `{"action":"deny_tool","reason":"Invalid arguments"}`, decided(protocol.ActionDenyTool, "Invalid arguments")},
		{StageBeforeTool, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageBeforeTool, `{"action":"hard_abort","reason":"stop"}`, decided(protocol.ActionHardAbort, "stop")},
		{StageAfterTool, `{"action":"continue"}`, unchanged},
		{StageAfterTool, `{"action":"modify","result":{"tool":"echo_text","result":{"for_llm":"redacted"}}}`,
			func(t *testing.T, out any, d Decision) {
				res := out.(protocol.AfterToolParams)
				if d.Action != protocol.ActionContinue || res.Result.ForLLM != "redacted" || res.Meta != meta {
					t.Errorf("got %+v, %+v", res, d)
				}
			}},
		{StageAfterTool, `{"action":"abort_turn","reason":"no"}`, decided(protocol.ActionAbortTurn, "no")},
		{StageAfterTool, `{"action":"hard_abort"}`, decided(protocol.ActionHardAbort, "")},
		{StageApproveTool, `{"approved":true}`, decided(protocol.ActionContinue, "")},
		{StageApproveTool, `{"approved":false,"reason":"Dangerous command"}`, decided(protocol.ActionDenyTool, "Dangerous command")},
		{StageApproveTool, `{"approved":false}`, decided(protocol.ActionDenyTool, "")},
	} {
		t.Run(string(tc.stage)+" "+tc.result, func(t *testing.T) {
			h := startRuntime(t, map[string]ProcessConfig{"h": proc(0, []string{string(tc.stage)}, "-result", tc.stage.Method()+"="+tc.result)})
			out, d := ask(h.Runtime, tc.stage)
			tc.check(t, out, d)
			if rec := h.calls.last(t); rec.Err != nil || rec.Hook != "h" || rec.Method != tc.stage.Method() {
				t.Errorf("call record = %+v", rec)
			}
		})
	}
}

func TestActionTheStageDoesNotAllowIsAnErrorAndTheChainGoesOn(t *testing.T) {
	for _, tc := range []struct {
		stage  Stage
		result string
	}{
		{StageBeforeLLM, `{"action":"respond","result":{"for_llm":"x"}}`},
		{StageAfterLLM, `{"action":"deny_tool","reason":"x"}`},
		{StageAfterTool, `{"action":"respond","result":{"for_llm":"x"}}`},
		{StageBeforeTool, `{"action":"explode"}`},
	} {
		t.Run(string(tc.stage), func(t *testing.T) {
			h := startRuntime(t, map[string]ProcessConfig{
				"bad":  proc(1, []string{string(tc.stage)}, "-result", tc.stage.Method()+"="+tc.result),
				"good": proc(2, []string{string(tc.stage)}, "-tag", "G"),
			})
			out, d := ask(h.Runtime, tc.stage)
			if d.Action != protocol.ActionContinue {
				t.Errorf("decision = %+v, want continue", d)
			}
			if b, _ := json.Marshal(out); !strings.Contains(string(b), "G") {
				t.Errorf("the next hook did not run: %+v", out)
			}
			bad := h.calls.list[0]
			if bad.Hook != "bad" || bad.Err == nil || !strings.Contains(bad.Err.Error(), "is not allowed") {
				t.Errorf("record of the bad hook = %+v", bad)
			}
			h.logs.WaitFor(t, "hook call failed")
		})
	}
}

// tagger is an in-process hook that leaves its tag in every object.
type tagger string

func (g tagger) BeforeLLM(_ context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	req.Messages = append(req.Messages, protocol.Message{Role: "system", Content: ptr(string(g))})
	return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: req}, nil
}

func (g tagger) AfterLLM(_ context.Context, resp protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	resp.Response.Content = ptr(*resp.Response.Content + string(g))
	return protocol.AfterLLMModify{Action: protocol.ActionModify, Response: resp}, nil
}

func (g tagger) BeforeTool(_ context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	args := map[string]any{}
	for k, v := range call.Arguments {
		args[k] = v
	}
	tags, _ := args["tags"].([]any)
	args["tags"] = append(slices.Clip(tags), string(g))
	call.Arguments = args
	return protocol.BeforeToolModify{Action: protocol.ActionModify, Call: call}, nil
}

func (g tagger) AfterTool(_ context.Context, res protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	res.Result.ForLLM += string(g)
	return protocol.AfterToolModify{Action: protocol.ActionModify, Result: res}, nil
}

func TestChainOfTwoProcessHooksAndOneInProcessHook(t *testing.T) {
	all := []string{"before_llm", "after_llm", "before_tool", "after_tool"}
	h := startRuntime(t, map[string]ProcessConfig{
		"a": proc(2, all, "-tag", "A"),
		"b": proc(1, all, "-tag", "B"),
	}, InProcess{Name: "c", Priority: 100, Hook: tagger("C")})
	ctx := context.Background()

	// In-process first whatever its priority, then lower priority first;
	// each hook sees what the one before it returned.
	req, d := h.BeforeLLM(ctx, llmReq)
	var tags []string
	for _, m := range req.Messages[1:] {
		tags = append(tags, *m.Content)
	}
	if !d.Continue() || strings.Join(tags, "") != "CBA" {
		t.Errorf("before_llm: tags %v, decision %+v; want C, B, A", tags, d)
	}
	if len(llmReq.Messages) != 1 {
		t.Errorf("a hook changed the caller's request: %v", llmReq.Messages)
	}
	resp, _ := h.AfterLLM(ctx, llmResp)
	if got := *resp.Response.Content; got != "helloCBA" {
		t.Errorf("after_llm: content %q, want helloCBA", got)
	}
	call, _ := h.BeforeTool(ctx, toolReq)
	if got := fmt.Sprint(call.Arguments["tags"]); got != "[C B A]" {
		t.Errorf("before_tool: tags %s, want [C B A]", got)
	}
	res, _ := h.AfterTool(ctx, toolRes)
	if res.Result.ForLLM != "hiCBA" {
		t.Errorf("after_tool: for_llm %q, want hiCBA", res.Result.ForLLM)
	}
	var order []string
	for _, c := range h.calls.list {
		order = append(order, c.Hook)
	}
	if got := strings.Join(order, ""); got != "cbacbacbacba" {
		t.Errorf("call order %q", got)
	}
}

func TestTheFirstEndingActionEndsTheChain(t *testing.T) {
	for _, tc := range []struct {
		stage  Stage
		result string
		want   protocol.Action
	}{
		{StageBeforeTool, `{"action":"respond","result":{"for_llm":"x"}}`, protocol.ActionRespond},
		{StageBeforeTool, `{"action":"deny_tool","reason":"no"}`, protocol.ActionDenyTool},
		{StageBeforeTool, `{"action":"abort_turn"}`, protocol.ActionAbortTurn},
		{StageBeforeLLM, `{"action":"hard_abort"}`, protocol.ActionHardAbort},
		{StageAfterTool, `{"action":"abort_turn"}`, protocol.ActionAbortTurn},
		{StageApproveTool, `{"approved":false}`, protocol.ActionDenyTool},
	} {
		t.Run(string(tc.stage)+" "+string(tc.want), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "second")
			h := startRuntime(t, map[string]ProcessConfig{
				"first":  proc(1, []string{string(tc.stage)}, "-result", tc.stage.Method()+"="+tc.result),
				"second": proc(2, []string{string(tc.stage)}, "-record", rec),
			})
			if _, d := ask(h.Runtime, tc.stage); d.Action != tc.want || d.Hook != "first" {
				t.Errorf("decision = %+v", d)
			}
			h.Close()
			if lines := testbin.Lines(t, rec); len(lines) != 1 || !strings.Contains(lines[0], "hook.hello") {
				t.Errorf("the second hook was called after the chain ended: %q", lines)
			}
		})
	}
}

func TestEveryApproverMustApprove(t *testing.T) {
	h := startRuntime(t, map[string]ProcessConfig{
		"yes": proc(1, []string{"approve_tool"}),
		"no":  proc(2, []string{"approve_tool"}, "-result", protocol.MethodApproveTool+`={"approved":false,"reason":"not on weekends"}`),
	})
	d := h.ApproveTool(context.Background(), apprReq)
	if d.Action != protocol.ActionDenyTool || d.Hook != "no" || d.Reason != "not on weekends" {
		t.Errorf("decision = %+v", d)
	}
}

func TestTheDecisionCarriesWhatEachHookRemarksInChainOrder(t *testing.T) {
	for _, stage := range []Stage{StageBeforeTool, StageAfterTool, StageApproveTool} {
		t.Run(string(stage), func(t *testing.T) {
			answer := `{"action":"continue","context":"%s knows","message":"%s says hi"}`
			if stage == StageApproveTool {
				answer = `{"approved":true,"context":"%s knows","message":"%s says hi"}`
			}
			h := startRuntime(t, map[string]ProcessConfig{
				"first":  proc(0, []string{string(stage)}, "-result", stage.Method()+"="+fmt.Sprintf(answer, "first", "first")),
				"second": proc(1, []string{string(stage)}, "-result", stage.Method()+"="+`{"approved":true,"action":"continue"}`),
				"third":  proc(2, []string{string(stage)}, "-result", stage.Method()+"="+fmt.Sprintf(answer, "third", "third")),
			})
			_, d := ask(h.Runtime, stage)
			if !d.Continue() {
				t.Fatalf("decision %+v", d)
			}
			if want := []string{"first knows", "third knows"}; !slices.Equal(d.Context, want) {
				t.Errorf("context %q, want %q", d.Context, want)
			}
			if want := []string{"first: first says hi", "third: third says hi"}; !slices.Equal(d.Messages, want) {
				t.Errorf("messages %q, want %q", d.Messages, want)
			}
		})
	}
}
