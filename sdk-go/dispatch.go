package hookwire

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
)

// Error makes the JSON-RPC error object an error: a handler that returns
// one chooses the code of its error reply, and [Hook.Call] returns the
// error reply as one.
func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// dispatch runs the request method and returns its result, encoded, or
// the error to reply with. It never panics: a handler's panic is an error
// reply, and the hook goes on.
func (h *Hook) dispatch(ctx context.Context, method string, params json.RawMessage) (result []byte, rpcErr *RPCError) {
	defer func() {
		if v := recover(); v != nil {
			h.logger().Error("handler panicked", "method", method, "panic", v, "stack", string(debug.Stack()))
			result, rpcErr = nil, &RPCError{Code: CodeHandlerError, Message: fmt.Sprint("panic: ", v)}
		}
	}()
	var err error
	switch method {
	case MethodHello:
		result, err = h.hello(params).MarshalJSON()
	case MethodBeforeLLM:
		result, err = invoke(ctx, method, params, h.runBeforeLLM)
	case MethodAfterLLM:
		result, err = invoke(ctx, method, params, orContinue(h.afterLLM))
	case MethodBeforeTool:
		result, err = invoke(ctx, method, params, h.runBeforeTool)
	case MethodAfterTool:
		result, err = invoke(ctx, method, params, orContinue(h.afterTool))
	case MethodApproveTool:
		if h.approveTool == nil {
			// Approving what nobody looked at would be a silent yes.
			return nil, &RPCError{Code: CodeMethodNotFound, Message: "this hook does not handle " + method}
		}
		result, err = invoke(ctx, method, params, h.approveTool)
	default:
		return nil, &RPCError{Code: CodeMethodNotFound, Message: "method not found: " + method}
	}
	if err == nil {
		return result, nil
	}
	var e *RPCError
	if errors.As(err, &e) && e != nil {
		return nil, e
	}
	h.logger().Error("handler failed", "method", method, "err", err)
	return nil, &RPCError{Code: CodeHandlerError, Message: err.Error()}
}

// decodes reports whether dispatch decodes the params of method with a
// decoder of this package, which rejects what is not JSON.
func (h *Hook) decodes(method string) bool {
	switch method {
	case MethodBeforeLLM, MethodAfterLLM, MethodBeforeTool, MethodAfterTool:
		return true
	case MethodApproveTool:
		return h.approveTool != nil
	}
	return false
}

// invoke decodes the params of method, runs fn and encodes its result. A
// nil result of a union is continue, and a continue says so.
func invoke[P any, PP interface {
	*P
	json.Unmarshaler
}, R json.Marshaler](ctx context.Context, method string, raw json.RawMessage, fn func(context.Context, P) (R, error)) ([]byte, error) {
	var p P
	if err := PP(&p).UnmarshalJSON(raw); err != nil {
		return nil, &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf("invalid params of %s: %v", method, err)}
	}
	r, err := fn(ctx, p)
	if err != nil {
		return nil, err
	}
	switch c := any(r).(type) {
	case nil:
		return continueResult, nil
	case Continue:
		// The action may be left out, but every host log and document
		// shows it: write it.
		if c.Action == nil {
			c.Action = Ptr(string(ActionContinue))
		}
		return c.MarshalJSON()
	}
	return r.MarshalJSON()
}

var continueResult = []byte(`{"action":"continue"}`)

// orContinue is fn, or a handler that lets everything through: the host
// sends both methods of a mode to a hook that handles one of them.
func orContinue[P any, R any](fn func(context.Context, P) (R, error)) func(context.Context, P) (R, error) {
	if fn != nil {
		return fn
	}
	return func(context.Context, P) (R, error) {
		var zero R // a nil union, which invoke answers with continue
		return zero, nil
	}
}

func (h *Hook) hello(raw json.RawMessage) HelloResult {
	// Read leniently: whatever the host sent, the hook wants to start.
	var p struct {
		Name         string   `json:"name"`
		Version      int      `json:"version"`
		Modes        []Mode   `json:"modes"`
		Extensions   []string `json:"extensions"`
		MaxLineBytes int64    `json:"max_line_bytes"`
	}
	_ = json.Unmarshal(raw, &p)
	h.extensions.Store(&p.Extensions)
	h.maxLine.Store(p.MaxLineBytes)
	if p.Version != ProtocolVersion {
		h.logger().Warn("the host speaks another protocol version; going on", "host", p.Version, "hook", ProtocolVersion)
	}
	for _, m := range p.Modes {
		if !slices.Contains(h.Modes(), m) {
			h.logger().Warn("the host grants a mode this hook has no handler for", "mode", m, "effect", unhandledMode[m])
		}
	}
	modes, _ := json.Marshal(h.Modes())
	return HelloResult{
		OK:   true,
		Name: Ptr(cmp.Or(h.Name, p.Name)),
		// An extension: the modes this hook's handlers need, so that a host
		// can warn about a configuration that leaves some of them unused.
		Extra: Extra{"modes": modes},
	}
}

// unhandledMode says what a host's calls of a mode get from a hook with no
// handler for it.
var unhandledMode = map[Mode]string{
	ModeObserve: "events are dropped",
	ModeLLM:     "hook.before_llm and hook.after_llm are answered with continue",
	ModeTool:    "hook.before_tool and hook.after_tool are answered with continue",
	ModeApprove: "hook.approve_tool is answered with an error, which a host may take as a denial of every tool call",
}

// defaultMaxLine is the longest reply line of a host that does not say:
// PicoClaw's host reads lines up to 1 MiB, and stops reading for good at a
// longer one.
const defaultMaxLine = 1 << 20

// MaxLineBytes is the longest reply line the host reads, newline
// included: what it announced in its last hook.hello (max_line_bytes), or
// 1 MiB when it announced nothing.
func (h *Hook) MaxLineBytes() int64 {
	if n := h.maxLine.Load(); n > 0 {
		return n
	}
	return defaultMaxLine
}

func (h *Hook) runBeforeLLM(ctx context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
	var res BeforeLLMResult = Continue{}
	if h.beforeLLM != nil {
		var err error
		if res, err = h.beforeLLM(ctx, req); err != nil {
			return nil, err
		}
	}
	if len(h.tools) == 0 {
		return res, nil
	}
	switch r := res.(type) {
	case nil, Continue:
		return BeforeLLMModify{Request: h.withTools(req)}, nil
	case BeforeLLMModify:
		r.Request = h.withTools(r.Request)
		return r, nil
	}
	return res, nil // an abort stays an abort
}

func (h *Hook) runBeforeTool(ctx context.Context, call BeforeToolParams) (BeforeToolResult, error) {
	for _, t := range h.tools {
		if t.name == call.Tool {
			return Respond{Result: t.call(ctx, call.Arguments)}, nil
		}
	}
	if h.beforeTool != nil {
		return h.beforeTool(ctx, call)
	}
	return Continue{}, nil
}

// Ptr returns a pointer to v, for the optional fields of the protocol types:
// AbortTurn{Reason: hookwire.Ptr("over budget")}.
func Ptr[T any](v T) *T { return &v }
