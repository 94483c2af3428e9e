package hookwire

import (
	"cmp"
	"context"
	"encoding/json"
	"path"
	"runtime/debug"
)

// observe decodes an observe notification and hands it to every observer
// whose pattern matches its kind.
func (h *Hook) observe(ctx context.Context, method string, params json.RawMessage) {
	ev, err := decodeEvent(method, params)
	if err != nil {
		h.logger().Warn("ignoring an event that cannot be read", "method", method, "err", err)
		return
	}
	for _, o := range h.observers {
		if ok, _ := path.Match(o.pattern, ev.Kind); ok {
			h.deliver(ctx, o, ev)
		}
	}
}

func (h *Hook) deliver(ctx context.Context, o observer, ev RuntimeEvent) {
	defer func() {
		if v := recover(); v != nil {
			h.logger().Error("observer panicked", "pattern", o.pattern, "kind", ev.Kind, "panic", v, "stack", string(debug.Stack()))
		}
	}()
	o.fn(ctx, ev)
}

// decodeEvent reads hook.runtime_event as it is, and turns the legacy
// hook.event into the same form, so that one observer sees both.
func decodeEvent(method string, params json.RawMessage) (RuntimeEvent, error) {
	var ev RuntimeEvent
	if method == MethodRuntimeEvent {
		err := ev.UnmarshalJSON(params)
		return ev, err
	}
	var old LegacyEvent
	if err := old.UnmarshalJSON(params); err != nil {
		return ev, err
	}
	ev.Kind = cmp.Or(LegacyEventKinds[old.Kind], old.Kind)
	ev.Payload = old.Payload
	if m := old.Meta; m != nil {
		ev.Scope = EventScope{AgentID: m.AgentID, SessionKey: m.SessionKey, TurnID: m.TurnID}
	}
	return ev, nil
}
