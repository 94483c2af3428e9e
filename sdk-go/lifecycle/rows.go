package lifecycle

// The rows of the lifecycle table, and the one interpreter that runs them.
//
// lifecycle_gen.go holds the table (schema/lifecycle.json) as data: for
// each event, where it comes from (methods, eventRows, or a session step:
// startEvents, endEvents and endKinds), its named conditions (when,
// unless), the members its input is read from, what a callback's modified
// value replaces and what skip and abort become. What each word means is
// on the table's page, docs/lifecycle.md; this file gives it effect, with
// the session key read at sessionKey (a call without one is in the session
// "", a runtime event without one in none).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// method is a request method that events come from.
type method struct {
	name string
	// register makes handle the hook's handler of the method.
	register func(l *layer, m *method)
	// modified is the member of a modify result that holds the call.
	modified string
	// approval: its result is an approval, which CanUseTool decides after
	// the rows.
	approval bool
	rows     []row
}

type row struct {
	event        Event
	when, unless string
	kind         string
	input        []source
	modify       *modify
	skip, abort  outcome
}

// source is an Input field (by its Go name), the member it is read from and
// the field's type.
type source struct{ field, from, kind string }

// modify is the modified value a row takes (ModifiedInput or
// ModifiedOutput), the field it modifies, and that field's member and type.
type modify struct{ with, field, from, kind string }

type outcome struct{ action, reason string }

type keyPaths struct {
	call  string
	event []string
}

// handle is the handler of a method's calls: it runs the method's rows on
// the call as JSON, and answers what they come to as the method's result.
func handle[P, R any](l *layer, m *method) func(context.Context, P) (R, error) {
	return func(ctx context.Context, p P) (R, error) {
		var r R
		call, err := membersOf(p)
		if err != nil {
			return r, err
		}
		answer, err := l.run(ctx, m, call)
		if r, ok := answer.(R); ok || err != nil {
			return r, err
		}
		raw, err := json.Marshal(answer)
		if err != nil {
			return r, err
		}
		v, err := hookwire.DecodeResult(m.name, raw)
		r, _ = v.(R)
		return r, err
	}
}

// run runs a method's rows on a call, in the table's order, until a
// callback stops them, and answers the outcome it stopped them with; else
// CanUseTool's verdict on an approval, or the call as the callbacks left
// it: continue, or modify when they changed it.
func (l *layer) run(ctx context.Context, m *method, call members) (any, error) {
	key := call.text(sessionKey.call)
	s := l.start(ctx, key)
	received := maps.Clone(call) // the callbacks' changes replace members of call
	for _, r := range m.rows {
		if !l.has(r.event) || !l.holds(r, s, call) {
			continue
		}
		var with string
		var apply func(any) (Input, error)
		if r.modify != nil {
			with = r.modify.with
			apply = func(v any) (Input, error) {
				err := r.modify.apply(call, v)
				return r.read(key, call), err
			}
		}
		stop := l.chain(ctx, r.event, r.read(key, call), with, apply)
		if stop == nil {
			continue
		}
		o := r.skip
		if stop.Action == Abort {
			o = r.abort
		}
		if o.action == "" || o.action == "none" {
			break
		}
		return o.answer(stop.Reason, call.text("tool")), nil
	}
	switch {
	case m.approval:
		var req hookwire.ApproveToolParams
		if err := call.decode(&req); err != nil {
			return nil, err
		}
		return l.approve(ctx, req), nil
	case !sameJSON(call, received):
		return map[string]any{"action": "modify", m.modified: call}, nil
	}
	return map[string]any{"action": "continue"}, nil
}

// observe runs a runtime event in its session: it ends the session, or
// starts it and runs the event's rows.
func (l *layer) observe(ctx context.Context, ev hookwire.RuntimeEvent) {
	event, err := membersOf(ev)
	if err != nil {
		l.log().Error("lifecycle: a runtime event that does not encode, ignored", "kind", ev.Kind, "err", err)
		return
	}
	var key string
	for _, path := range sessionKey.event {
		if key = event.text(path); key != "" {
			break
		}
	}
	if key == "" {
		return // in no session
	}
	if slices.Contains(endKinds, ev.Kind) {
		l.end(ctx, key)
		return
	}
	l.start(ctx, key)
	for _, r := range eventRows {
		if r.kind == ev.Kind && l.has(r.event) {
			l.chain(ctx, r.event, r.read(key, event), "", nil)
		}
	}
}

// holds tells whether a row's conditions hold for a call of session s.
func (l *layer) holds(r row, s *session, call members) bool {
	return (r.when == "" || l.is(r.when, s, call)) && (r.unless == "" || !l.is(r.unless, s, call))
}

// is tells whether a named condition holds for a call of session s.
func (l *layer) is(condition string, s *session, call members) bool {
	switch condition {
	case "first_of_turn":
		return l.firstOfTurn(s, call.text("meta.TurnID"), call.messages())
	case "is_error":
		var isError bool
		_ = json.Unmarshal(call.get("result.is_error"), &isError)
		return isError
	}
	panic("lifecycle: the table names the condition " + condition + ", which the runner does not know")
}

// read is a row's input, read from a call or event of the session key.
func (r row) read(key string, from members) Input {
	in := Input{Event: r.event, SessionID: key}
	fields := reflect.ValueOf(&in).Elem()
	for _, s := range r.input {
		readField(fields.FieldByName(s.field), s.kind, from.source(s.from))
	}
	return in
}

// readField sets an Input field of a type from its member, raw. A field
// whose member is absent stays zero, except arguments, which are empty.
func readField(field reflect.Value, kind string, raw json.RawMessage) {
	switch kind {
	case "tool_error":
		var result hookwire.ToolResult
		_ = json.Unmarshal(raw, &result)
		field.Set(reflect.ValueOf(errors.New(result.ForLLM)))
	case "arguments":
		var args map[string]any
		_ = json.Unmarshal(raw, &args)
		if args == nil {
			args = map[string]any{} // a host leaves empty arguments out
		}
		field.Set(reflect.ValueOf(args))
	default:
		if raw != nil {
			_ = json.Unmarshal(raw, field.Addr().Interface())
		}
	}
}

// apply takes a callback's modified value into the call, in place of the
// member it replaces, as the type of the field it modifies.
func (m *modify) apply(call members, v any) error {
	var value any
	var err error
	switch m.kind {
	case "string":
		value, err = as[string](v, m.with, "the "+strings.ReplaceAll(m.field, "_", " ")+"'s new text (a string)")
	case "arguments":
		value, err = as[map[string]any](v, m.with, "the tool's arguments (a JSON object)")
	default: // a tool result, or the error it is read as
		var current hookwire.ToolResult
		_ = json.Unmarshal(call.get(m.from), &current)
		value, err = asResult(v, current)
	}
	if err != nil {
		return err
	}
	if m.from == "last_user_message" {
		return call.setLastUserMessage(value.(string))
	}
	raw, err := json.Marshal(value)
	if err == nil {
		call[m.from] = raw
	}
	return err
}

// answer is what a call answers for a callback that stopped the rows with
// its reason, reason: this outcome, with that reason or the row's after the
// call's tool.
func (o outcome) answer(reason, tool string) any {
	if reason == "" && o.reason != "" {
		reason = tool + " " + o.reason
	}
	switch {
	case o.action == "refuse":
		return deny(reason)
	case reason == "":
		return map[string]any{"action": o.action}
	}
	return map[string]any{"action": o.action, "reason": reason}
}

// members are the members of a call's params or of a runtime event, as the
// JSON it encodes to.
type members map[string]json.RawMessage

func membersOf(v any) (members, error) {
	raw, err := json.Marshal(v)
	if m, ok := v.(json.Marshaler); ok {
		raw, err = m.MarshalJSON() // as the SDK writes it: neither compacted nor escaped again
	}
	var ms members
	if err == nil {
		err = json.Unmarshal(raw, &ms)
	}
	return ms, err
}

// get is the member at a dotted path, nil when there is none.
func (ms members) get(path string) json.RawMessage {
	name, rest, nested := strings.Cut(path, ".")
	raw := ms[name]
	if !nested || raw == nil {
		return raw
	}
	var inner members
	if json.Unmarshal(raw, &inner) != nil {
		return nil
	}
	return inner.get(rest)
}

// text is the string at a dotted path, "" when it is none.
func (ms members) text(path string) string {
	var s string
	_ = json.Unmarshal(ms.get(path), &s)
	return s
}

// source is the member at a dotted path, or the text of the request's last
// user message.
func (ms members) source(from string) json.RawMessage {
	if from != "last_user_message" {
		return ms.get(from)
	}
	messages := ms.messages()
	if at := lastUser(messages); at >= 0 {
		raw, _ := json.Marshal(deref(messages[at].Content))
		return raw
	}
	return nil
}

func (ms members) messages() []hookwire.Message {
	var messages []hookwire.Message
	_ = json.Unmarshal(ms["messages"], &messages)
	return messages
}

// setLastUserMessage replaces the text of the request's last user message.
func (ms members) setLastUserMessage(text string) error {
	messages := ms.messages()
	at := lastUser(messages)
	if at < 0 {
		return errors.New("the request has no user message to replace")
	}
	messages[at].Content = &text
	raw, err := json.Marshal(messages)
	if err == nil {
		ms["messages"] = raw
	}
	return err
}

// decode decodes the members into v, a params type.
func (ms members) decode(v any) error {
	raw, err := json.Marshal(ms)
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	return err
}

// sameJSON tells whether two calls are the same JSON, whatever the order
// and spacing of their members.
func sameJSON(a, b members) bool {
	if len(a) != len(b) {
		return false
	}
	for name, x := range a {
		y, ok := b[name]
		if !ok {
			return false
		}
		if bytes.Equal(x, y) {
			continue
		}
		var vx, vy any
		if json.Unmarshal(x, &vx) != nil || json.Unmarshal(y, &vy) != nil || !reflect.DeepEqual(vx, vy) {
			return false
		}
	}
	return true
}

// lastUser is the index of the last user message, -1 when there is none.
func lastUser(messages []hookwire.Message) int {
	at := len(messages) - 1
	for at >= 0 && messages[at].Role != "user" {
		at--
	}
	return at
}
