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
	result, err := h.route(ctx, method, params)
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

// orFallback is fn, or a handler that lets everything through: the host
// sends both methods of a mode to a hook that handles one of them.
func orFallback[P any, R any](fn func(context.Context, P) (R, error)) func(context.Context, P) (R, error) {
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

// MaxLineBytes is the longest reply line the host reads, newline
// included: what it announced in its last hook.hello (max_line_bytes), or
// 1 MiB when it announced nothing.
func (h *Hook) MaxLineBytes() int64 {
	if n := h.maxLine.Load(); n > 0 {
		return n
	}
	return defaultMaxLine
}

// Ptr returns a pointer to v, for the optional fields of the protocol types:
// AbortTurn{Reason: hookwire.Ptr("over budget")}.
func Ptr[T any](v T) *T { return &v }
