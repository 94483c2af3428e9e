package hookwire

import (
	"context"
	"encoding/json"
	"fmt"
)

// Call runs one message through h in-process, for the hook's own tests: the
// same decoding, handlers, tools and error replies as [Hook.Serve], with no
// process and no pipe. params is the params object, as a Go value or as
// encoded JSON ([]byte or json.RawMessage).
//
// Call returns the result exactly as it would go on the wire; decode it with
// the Decode functions of the result types. An error reply is returned as
// an [*RPCError] carrying its code. For hook.runtime_event and hook.event,
// Call runs the observers and returns nil, nil.
func (h *Hook) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var raw []byte
	switch p := params.(type) {
	case []byte:
		raw = p
	case json.RawMessage:
		raw = p
	default:
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return nil, fmt.Errorf("hookwire: Call %s: encoding params: %w", method, err)
		}
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("hookwire: Call %s: params are not JSON", method)
	}
	if isNotification(method) {
		h.observe(ctx, method, raw)
		return nil, nil
	}
	result, rpcErr := h.dispatch(ctx, method, raw)
	if rpcErr != nil {
		return nil, rpcErr
	}
	return result, nil
}
