package bridge

import (
	"maps"
	"reflect"
	"strings"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// The form of Gemini CLI's replies.
var _ = addForm(agents.GeminiReplies, replyForm{decide: geminiDecide, toolResult: geminiToolResult, llm: geminiLLM{}})

// geminiDecide writes a decision as Gemini CLI reads it: decision allow or
// deny with a reason, hookSpecificOutput for new tool input, tool output or
// model request and response, continue false to stop, exit code 2 with
// stderr to block when the hook could not be asked.
func geminiDecide(_ *agents.Agent, ev Event, o outcome) Reply {
	if o.failure != "" {
		var block map[string]any
		if ev.Name == "BeforeTool" {
			block = map[string]any{"decision": "deny", "reason": "hookwire blocked the call: " + o.failure}
		}
		return blockedOrWarned(o, block)
	}
	if d := o.ended; d != nil {
		switch {
		case d.action == protocol.ActionDenyTool:
			return geminiOutput(map[string]any{"decision": "deny", "reason": d.because()})
		case d.action == protocol.ActionRespond:
			return geminiOutput(map[string]any{"decision": "deny", "reason": d.forLLM})
		case d.action == protocol.ActionAbortTurn && (ev.Name == "BeforeModel" || ev.Name == "AfterModel"):
			// A denied model call ends the turn there.
			return geminiOutput(map[string]any{"decision": "deny", "reason": d.because()})
		case o.step.Guard:
			// Stopping alone stops after the tool has run: deny it too.
			return geminiOutput(map[string]any{"decision": "deny", "reason": d.because(), "continue": false, "stopReason": d.because()})
		default: // abort_turn elsewhere, hard_abort
			return geminiOutput(map[string]any{"continue": false, "stopReason": d.because()})
		}
	}
	out := map[string]any{}
	specific := map[string]any{}
	switch ev.Name {
	case "BeforeTool":
		if a := o.approval; a != nil && !a.byDefault {
			if a.denied() {
				return geminiOutput(map[string]any{"decision": "deny", "reason": a.because()})
			}
			out["decision"] = "allow"
		}
		if o.args != nil {
			specific["tool_input"] = o.args
		}
	case "AfterTool":
		if o.result != nil {
			// Gemini CLI 0.61.0 reads no tool_output: a blocked result is
			// the one way to replace what the model reads, which it then
			// reads as "Tool result blocked: " and the new text.
			out := map[string]any{"decision": "deny", "reason": *o.result}
			if o.once("tool output") {
				out["systemMessage"] = geminiNoNewOutput
			}
			return geminiOutput(out)
		}
	case "BeforeModel":
		if o.llm != nil {
			specific["llm_request"] = o.llm
		}
	case "AfterModel":
		if o.llm != nil {
			specific["llm_response"] = o.llm
		}
	}
	if len(specific) > 0 {
		out["hookSpecificOutput"] = specific
	}
	return geminiOutput(out)
}

func geminiOutput(out map[string]any) Reply { return Reply{Stdout: encode(out)} }

// geminiNoNewOutput tells the user, once a session, why a changed tool
// output reads as blocked.
const geminiNoNewOutput = "hookwire: Gemini CLI takes no new tool output from a hook: a hook's change reaches the model as a blocked result (\"Tool result blocked: \" and the new text, an error); said once a session"

// geminiToolResult is a tool's outcome as AfterTool carries it:
// tool_response with llmContent and, when it failed, error.
func geminiToolResult(ev Event) protocol.ToolResult {
	resp := ev.object("tool_response")
	r := protocol.ToolResult{ForLLM: partsText(resp["llmContent"])}
	if e, ok := resp["error"]; ok && e != nil {
		yes := true
		r.IsError = &yes
		if r.ForLLM == "" {
			r.ForLLM = text(e)
		}
	}
	return r
}

// partsText is Gemini's content as text: a string as it is, the text of
// a part, or of a list of parts joined; anything else as JSON.
func partsText(content any) string {
	switch c := content.(type) {
	case map[string]any:
		if t, ok := c["text"].(string); ok {
			return t
		}
	case []any:
		var texts []string
		for _, part := range c {
			t, ok := part.(string)
			if !ok {
				p, _ := part.(map[string]any)
				if t, ok = p["text"].(string); !ok {
					return text(content)
				}
			}
			texts = append(texts, t)
		}
		return strings.Join(texts, "")
	}
	return text(content)
}

// llmFormat translates an agent's model request and response to the
// protocol's and back; nil for an agent with no model events.
type llmFormat interface {
	request(ev Event) protocol.BeforeLLMParams
	changedRequest(ev Event, req protocol.BeforeLLMParams) map[string]any
	response(ev Event) protocol.AfterLLMParams
	changedResponse(ev Event, resp protocol.AfterLLMParams) map[string]any
}

// geminiLLM is Gemini CLI's stable model API: llm_request {model, messages
// [{role: user|model|system, content}], config, toolConfig} and
// llm_response {candidates [{content {role, parts}, finishReason}]}.
type geminiLLM struct{}

func (geminiLLM) request(ev Event) protocol.BeforeLLMParams {
	in := ev.object("llm_request")
	req := protocol.BeforeLLMParams{Model: text(in["model"]), Messages: []protocol.Message{}}
	if cfg, ok := in["config"].(map[string]any); ok {
		req.Options = cfg
	}
	msgs, _ := in["messages"].([]any)
	for _, m := range msgs {
		m, _ := m.(map[string]any)
		role, content := text(m["role"]), text(m["content"])
		if role == "model" {
			role = "assistant"
		}
		req.Messages = append(req.Messages, protocol.Message{Role: role, Content: &content})
	}
	return req
}

// changedRequest is the request as the hook left it, in Gemini's form, or
// nil when it is unchanged. Tools a hook added have no place in it.
func (g geminiLLM) changedRequest(ev Event, req protocol.BeforeLLMParams) map[string]any {
	if reflect.DeepEqual(g.request(ev), req) {
		return nil
	}
	out := maps.Clone(ev.object("llm_request"))
	out["model"] = req.Model
	msgs := make([]any, 0, len(req.Messages))
	for _, m := range req.Messages {
		role := m.Role
		if role == "assistant" {
			role = "model"
		}
		content := ""
		if m.Content != nil {
			content = *m.Content
		}
		msgs = append(msgs, map[string]any{"role": role, "content": content})
	}
	out["messages"] = msgs
	if req.Options != nil {
		out["config"] = req.Options
	}
	return out
}

func (geminiLLM) response(ev Event) protocol.AfterLLMParams {
	model := text(ev.object("llm_request")["model"])
	resp := protocol.LLMResponse{}
	candidates, _ := ev.object("llm_response")["candidates"].([]any)
	if len(candidates) > 0 {
		c, _ := candidates[0].(map[string]any)
		content, _ := c["content"].(map[string]any)
		parts, _ := content["parts"].([]any)
		var texts []string
		for _, p := range parts {
			texts = append(texts, text(p))
		}
		joined := strings.Join(texts, "")
		resp.Content = &joined
		if reason, ok := c["finishReason"].(string); ok {
			resp.FinishReason = &reason
		}
	}
	return protocol.AfterLLMParams{Model: model, Response: resp}
}

// changedResponse is the response with the first candidate's text as the
// hook left it, or nil when it is unchanged.
func (g geminiLLM) changedResponse(ev Event, resp protocol.AfterLLMParams) map[string]any {
	before := g.response(ev)
	if reflect.DeepEqual(before.Response.Content, resp.Response.Content) {
		return nil
	}
	content := ""
	if resp.Response.Content != nil {
		content = *resp.Response.Content
	}
	out := maps.Clone(ev.object("llm_response"))
	candidates, _ := out["candidates"].([]any)
	first := map[string]any{"content": map[string]any{"role": "model", "parts": []any{content}}}
	if len(candidates) > 0 {
		if c, ok := candidates[0].(map[string]any); ok {
			first = maps.Clone(c)
			first["content"] = map[string]any{"role": "model", "parts": []any{content}}
		}
		candidates = append([]any{first}, candidates[1:]...)
	} else {
		candidates = []any{first}
	}
	out["candidates"] = candidates
	return out
}
