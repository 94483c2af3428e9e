// Command reference is the Go SDK's reference hook for the exchange vectors
// of schema/testdata/exchanges: each handler decides by the name it is given,
// as the README there says.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

const reason = "reference"

var errReference = errors.New("the reference hook failed, as asked")

// common answers the names every interceptor shares; ok is false for the
// others.
func common(name string) (res any, err error, ok bool) {
	switch name {
	case "abort_turn":
		return hookwire.AbortTurn{Reason: hookwire.Ptr(reason)}, nil, true
	case "hard_abort":
		return hookwire.HardAbort{Reason: hookwire.Ptr(reason)}, nil, true
	case "error":
		return nil, errReference, true
	case "remarks":
		return hookwire.Continue{Context: hookwire.Ptr("check twice"), Message: hookwire.Ptr("seen")}, nil, true
	case "hook_error":
		return nil, &hookwire.RPCError{Code: -32010, Message: "quota", Data: json.RawMessage(`{"retry_after":5}`)}, true
	}
	return hookwire.Continue{}, nil, false
}

func main() {
	h := hookwire.New("reference")
	h.OnBeforeLLM(func(_ context.Context, req hookwire.BeforeLLMParams) (hookwire.BeforeLLMResult, error) {
		if req.Model == "modify" {
			req.Messages = append(req.Messages, hookwire.Message{Role: "system", Content: hookwire.Ptr(reason)})
			return req.Modify(), nil
		}
		res, err, _ := common(req.Model)
		if err != nil {
			return nil, err
		}
		return res.(hookwire.BeforeLLMResult), nil
	})
	h.OnAfterLLM(func(_ context.Context, resp hookwire.AfterLLMParams) (hookwire.AfterLLMResult, error) {
		if resp.Model == "modify" {
			if resp.Response == nil { // a host may leave it out
				resp.Response = &hookwire.LLMResponse{}
			}
			resp.Response.Content = hookwire.Ptr(reason)
			return resp.Modify(), nil
		}
		res, err, _ := common(resp.Model)
		if err != nil {
			return nil, err
		}
		return res.(hookwire.AfterLLMResult), nil
	})
	h.OnBeforeTool(func(_ context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
		switch call.Tool {
		case "modify":
			call.Arguments = map[string]any{"text": reason}
			return call.Modify(), nil
		case "respond":
			text, _ := call.Arguments["text"].(string)
			return hookwire.Respond{Result: hookwire.Text(reason + ": " + text)}, nil
		case "deny_tool":
			return hookwire.DenyTool{Reason: reason}, nil
		case "slow":
			time.Sleep(200 * time.Millisecond)
		}
		res, err, _ := common(call.Tool)
		if err != nil {
			return nil, err
		}
		return res.(hookwire.BeforeToolResult), nil
	})
	h.OnAfterTool(func(_ context.Context, res hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
		if res.Tool == "modify" {
			if res.Result == nil { // a host may leave it out
				res.Result = &hookwire.ToolResult{}
			}
			res.Result.ForLLM = reason
			return res.Modify(), nil
		}
		if res.Tool == "redact" && res.Result != nil {
			res.Result.ForLLM = strings.ReplaceAll(res.Result.ForLLM, "secret", "***")
			return res.Modify(), nil
		}
		out, err, _ := common(res.Tool)
		if err != nil {
			return nil, err
		}
		return out.(hookwire.AfterToolResult), nil
	})
	h.OnApproveTool(func(_ context.Context, req hookwire.ApproveToolParams) (hookwire.ApproveToolResult, error) {
		switch req.Tool {
		case "approve", "modify":
			return hookwire.ApproveToolResult{Approved: true}, nil
		case "echo":
			return hookwire.ApproveToolResult{Approved: true, Arguments: req.Arguments}, nil
		case "abstain":
			return hookwire.Abstain(), nil
		case "error":
			return hookwire.ApproveToolResult{}, errReference
		}
		return hookwire.ApproveToolResult{Approved: false, Reason: hookwire.Ptr(reason)}, nil
	})
	h.OnEvent("*", func(context.Context, hookwire.RuntimeEvent) {})
	h.Main()
}
