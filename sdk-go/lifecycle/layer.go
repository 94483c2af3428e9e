package lifecycle

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// New returns a hook named name that runs the callbacks of opts: it
// registers the handlers and observers they need, as the lifecycle table
// says (the method an event comes from; an observer of every event and an
// OnClose function for the events of runtime events and sessions;
// hook.approve_tool for CanUseTool), so its hello modes follow from them.
// Add other handlers, observers or tools to it as to any hook, except for
// the methods it already handles. Failing callbacks are logged to the
// hook's Logger (stderr by default).
//
// New panics on an event that is not one of [Events] and on a nil callback.
func New(name string, opts Options) *hookwire.Hook {
	hooks := Hooks{} // a copy: the caller's map may change, and calls read it concurrently
	for event, callbacks := range opts.Hooks {
		if !slices.Contains(Events, event) {
			panic(fmt.Sprintf("lifecycle: unknown event %q", event))
		}
		if slices.ContainsFunc(callbacks, func(c Callback) bool { return c == nil }) {
			panic(fmt.Sprintf("lifecycle: a nil %s callback", event))
		}
		hooks[event] = slices.Clone(callbacks)
	}
	h := hookwire.New(name)
	l := &layer{h: h, hooks: hooks, canUseTool: opts.CanUseTool, open: map[string]*session{}}
	methods, observe := map[string]bool{}, false
	if opts.CanUseTool != nil {
		methods[hookwire.MethodApproveTool] = true
	}
	for _, r := range rows {
		if len(hooks[r.event]) > 0 {
			methods[r.method] = methods[r.method] || r.method != ""
			observe = observe || r.method == ""
		}
	}
	for method, needed := range methods {
		if needed {
			handlers[method](l)
		}
	}
	if observe {
		h.OnEvent("*", l.observe)
		h.OnClose(l.endAll)
	}
	return h
}

// layer runs the callbacks of one hook on the rows of the lifecycle table.
type layer struct {
	h          *hookwire.Hook
	hooks      Hooks
	canUseTool CanUseTool

	mu    sync.Mutex
	open  map[string]*session // started and not ended, by key
	order []string            // their keys, in the order they started
}

type session struct {
	started chan struct{}   // closed once the SessionStart callbacks have run
	turns   map[string]bool // the turns whose first LLM call was seen; guarded by layer.mu
}

// members are a call's params or an event, member by member.
type members = map[string]json.RawMessage

var stderrLog = sync.OnceValue(func() *slog.Logger { return slog.New(slog.NewTextHandler(os.Stderr, nil)) })

func (l *layer) log() *slog.Logger { return cmp.Or(l.h.Logger, stderrLog()) }

// panicked is a callback's panic, as an error.
type panicked struct {
	value any
	stack []byte
}

func (p panicked) Error() string { return fmt.Sprint("panic: ", p.value) }

// safely calls fn, turning a panic into an error.
func safely[T any](fn func() (T, error)) (out T, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicked{v, debug.Stack()}
		}
	}()
	return fn()
}

func (l *layer) failed(msg string, err error, args ...any) {
	args = append(args, "err", err)
	if p, ok := err.(panicked); ok {
		args = append(args, "stack", string(p.stack))
	}
	l.log().Error(msg, args...)
}

// chain runs the callbacks of r's event in order, each on the input as the
// one before left it, until one skips or aborts; that one is returned. A
// callback that fails, or answers an action that is none of the three,
// counts as continue. apply takes the modified input or output that r uses
// into in and params, and changes nothing when it fails.
func (l *layer) chain(ctx context.Context, r row, in Input, params members) (Input, *Output) {
	for i, callback := range l.hooks[r.event] {
		which := []any{"event", r.event, "callback", i + 1}
		out, err := safely(func() (Output, error) { return callback(ctx, in) })
		if err != nil {
			l.failed("lifecycle callback failed, taken as continue", err, which...)
			continue
		}
		switch out.Action {
		case Skip, Abort:
			return in, &out
		case "", Continue:
		default:
			l.log().Error("lifecycle callback answered an action that is not continue, skip or abort; taken as continue", append(which, "action", out.Action)...)
			continue
		}
		var used any
		for _, m := range []struct {
			with, name string
			value      any
		}{{"modified_input", "ModifiedInput", out.ModifiedInput}, {"modified_output", "ModifiedOutput", out.ModifiedOutput}} {
			if m.value != nil && (r.modify == nil || r.modify.with != m.with) {
				l.log().Warn("lifecycle callback answered "+m.name+", which "+string(r.event)+" has no use for; ignored", which...)
			} else if m.value != nil {
				used = m.value
			}
		}
		if used == nil {
			continue
		}
		if err := l.apply(r, &in, params, used); err != nil {
			l.log().Error("lifecycle callback's change ignored", append(which, "err", err)...)
		}
	}
	return in, nil
}

// read reads the input of r from params.
func read(r row, key string, params members) Input {
	in := Input{Event: r.event, SessionID: key}
	for _, s := range r.input {
		raw := lookup(params, s.from)
		if s.from == "last_user_message" {
			_, raw = lastUserMessage(params)
		}
		switch {
		case s.typ == "tool_error":
			var result hookwire.ToolResult
			if raw != nil {
				_ = result.UnmarshalJSON(raw)
			}
			*in.field(s.field).(*error) = errors.New(result.ForLLM)
		case raw != nil:
			_ = json.Unmarshal(raw, in.field(s.field))
		case s.typ == "arguments": // a host leaves empty arguments out
			*in.field(s.field).(*map[string]any) = map[string]any{}
		}
	}
	return in
}

// lookup is the member of params at a dotted path, nil when there is none.
func lookup(params members, path string) json.RawMessage {
	name, rest, nested := strings.Cut(path, ".")
	raw := params[name]
	if !nested || raw == nil {
		return raw
	}
	var inner members
	if json.Unmarshal(raw, &inner) != nil {
		return nil
	}
	return lookup(inner, rest)
}

// lastUserMessage is the index and content of the request's last user
// message: -1 and nil when it has none.
func lastUserMessage(params members) (int, json.RawMessage) {
	var messages []members
	_ = json.Unmarshal(params["messages"], &messages)
	for i := len(messages) - 1; i >= 0; i-- {
		if string(messages[i]["role"]) == `"user"` {
			if content := messages[i]["content"]; content != nil {
				return i, content
			}
			return i, json.RawMessage(`""`)
		}
	}
	return -1, nil
}

// apply takes a callback's modified input or output into params, where r's
// row says, and reads the input anew from them.
func (l *layer) apply(r row, in *Input, params members, v any) error {
	from := r.input[slices.IndexFunc(r.input, func(s source) bool { return s.field == r.modify.field })].from
	current := params[from]
	if from == "last_user_message" {
		_, current = lastUserMessage(params)
	}
	raw, err := modified(r.modify, v, current)
	if err != nil {
		return err
	}
	if from != "last_user_message" {
		params[from] = raw
	} else if err := setLastUserMessage(params, raw); err != nil {
		return err
	}
	*in = read(r, in.SessionID, params)
	return nil
}

// modified is a callback's ModifiedInput or ModifiedOutput as the JSON of
// the member it replaces: a string; a tool's whole arguments, as anything
// that encodes to a JSON object; a whole ToolResult, or a string that
// replaces the for_llm of the current one.
func modified(m *source, v any, current json.RawMessage) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	text, isText := v.(string)
	var args map[string]any
	switch m.typ {
	case "string":
		if !isText {
			return nil, fmt.Errorf("ModifiedInput is a %T, not the %s's new text (a string)", v, strings.ToLower(m.field))
		}
		return raw, err
	case "arguments":
		if err != nil || json.Unmarshal(raw, &args) != nil || args == nil {
			return nil, fmt.Errorf("ModifiedInput is a %T, not the tool's arguments (a JSON object)", v)
		}
		return raw, nil
	}
	var result hookwire.ToolResult
	if isText {
		_ = result.UnmarshalJSON(current)
		result.ForLLM = text
	} else if err != nil || result.UnmarshalJSON(raw) != nil {
		return nil, fmt.Errorf("ModifiedOutput is a %T, neither a ToolResult nor a string (the new for_llm)", v)
	}
	return json.Marshal(result)
}

func setLastUserMessage(params members, content json.RawMessage) error {
	at, _ := lastUserMessage(params)
	if at < 0 {
		return errors.New("the request has no user message to replace")
	}
	var messages []members
	_ = json.Unmarshal(params["messages"], &messages)
	messages[at]["content"] = content
	params["messages"], _ = json.Marshal(messages)
	return nil
}

// sessionRows runs the callbacks of the rows of a session step.
func (l *layer) sessionRows(ctx context.Context, step, key string) {
	for _, r := range rows {
		if r.session == step {
			l.chain(ctx, r, Input{Event: r.event, SessionID: key}, nil)
		}
	}
}

// start runs the callbacks of the session's start the first time a session
// key is seen, and returns once they have run, however many calls of the
// session arrive meanwhile.
func (l *layer) start(ctx context.Context, key string) *session {
	l.mu.Lock()
	s, seen := l.open[key]
	if !seen {
		s = &session{started: make(chan struct{}), turns: map[string]bool{}}
		l.open[key] = s
		l.order = append(l.order, key)
	}
	l.mu.Unlock()
	if seen {
		<-s.started
		return s
	}
	defer close(s.started)
	l.sessionRows(ctx, "start", key)
	return s
}

// end runs the callbacks of a session's end, for a session started and not
// ended.
func (l *layer) end(ctx context.Context, key string) {
	l.mu.Lock()
	s := l.open[key]
	delete(l.open, key)
	l.order = slices.DeleteFunc(l.order, func(k string) bool { return k == key })
	l.mu.Unlock()
	if s == nil {
		return
	}
	<-s.started
	l.sessionRows(ctx, "end", key)
}

// endAll ends the sessions still open when the hook stops, in the order
// they started.
func (l *layer) endAll(ctx context.Context) {
	l.mu.Lock()
	keys := slices.Clone(l.order)
	l.mu.Unlock()
	for _, key := range keys {
		l.end(ctx, key)
	}
}

func (l *layer) observe(ctx context.Context, ev hookwire.RuntimeEvent) {
	key := deref(ev.Scope.SessionKey)
	if key == "" && strings.HasPrefix(ev.Kind, "agent.session.") {
		var p struct{ SessionKey string }
		_ = json.Unmarshal(ev.Payload, &p)
		key = p.SessionKey
	}
	if key == "" {
		return
	}
	if slices.ContainsFunc(rows, func(r row) bool { return r.session == "end" && r.eventKind == ev.Kind }) {
		l.end(ctx, key)
		return
	}
	l.start(ctx, key)
	var event members
	if raw, err := json.Marshal(ev); err == nil && json.Unmarshal(raw, &event) == nil {
		for _, r := range rows {
			if r.eventKind == ev.Kind && r.session == "" && len(l.hooks[r.event]) > 0 {
				l.chain(ctx, r, read(r, key, event), event)
			}
		}
	}
}

// firstOfTurn tells whether a before_llm call is the first of its turn: of
// a TurnID new to the session or, from a host that sends none, of a request
// whose last message is the user's.
func (l *layer) firstOfTurn(s *session, params members) bool {
	var turn string
	_ = json.Unmarshal(lookup(params, "meta.TurnID"), &turn)
	if turn == "" {
		var messages []struct{ Role string }
		_ = json.Unmarshal(params["messages"], &messages)
		return len(messages) > 0 && messages[len(messages)-1].Role == "user"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.turns[turn] {
		return false
	}
	s.turns[turn] = true
	return true
}

// holds tells whether r's condition holds for a call.
func (l *layer) holds(s *session, r row, params members) bool {
	switch {
	case r.when == "":
		return true
	case r.when == "first_of_turn":
		return l.firstOfTurn(s, params)
	}
	path, negated := strings.CutPrefix(r.when, "!")
	return (string(lookup(params, path)) == "true") != negated
}

// handler is the handler of a method: it runs the rows that come from it,
// and answers what their outcomes map to; modify builds the method's modify
// from its changed params.
func handler[P, R any](l *layer, method string, modify func(P) R) func(context.Context, P) (R, error) {
	return func(ctx context.Context, params P) (R, error) {
		var result R
		raw, err := json.Marshal(params)
		if err != nil {
			return result, err
		}
		reply, changed := l.call(ctx, method, raw)
		if reply == nil {
			var p P
			if err := json.Unmarshal(changed, &p); err != nil {
				return result, err
			}
			return modify(p), nil
		}
		if raw, err = json.Marshal(reply); err == nil {
			var v any
			if v, err = hookwire.DecodeResult(method, raw); err == nil {
				result, _ = v.(R)
			}
		}
		return result, err
	}
}

// call runs the rows of a method on its params: the reply, or nil and the
// params as the callbacks changed them.
func (l *layer) call(ctx context.Context, method string, raw []byte) (any, []byte) {
	var params members
	_ = json.Unmarshal(raw, &params)
	var key string
	_ = json.Unmarshal(lookup(params, "meta.SessionKey"), &key)
	s := l.start(ctx, key)
	before, _ := json.Marshal(params)
	for _, r := range rows {
		if r.method != method || len(l.hooks[r.event]) == 0 || !l.holds(s, r, params) {
			continue
		}
		_, stop := l.chain(ctx, r, read(r, key, params), params)
		if stop == nil {
			continue
		}
		o := map[Action]*outcome{Skip: r.skip, Abort: r.abort}[stop.Action]
		if o == nil || o.action == "none" {
			break
		}
		reason := stop.Reason
		if reason == "" {
			reason = o.reason
			for name, v := range params {
				var text string
				if json.Unmarshal(v, &text) == nil {
					reason = strings.ReplaceAll(reason, "{"+name+"}", text)
				}
			}
		}
		if o.action == "refuse" {
			return map[string]any{"approved": false, "reason": reason}, nil
		}
		if reason == "" {
			return map[string]string{"action": o.action}, nil
		}
		return map[string]string{"action": o.action, "reason": reason}, nil
	}
	if method == hookwire.MethodApproveTool {
		return l.approve(ctx, params), nil
	}
	if changed, _ := json.Marshal(params); string(changed) != string(before) {
		return nil, changed
	}
	return map[string]string{"action": "continue"}, nil
}

// approve asks CanUseTool about a call the rows let through.
func (l *layer) approve(ctx context.Context, params members) any {
	if l.canUseTool == nil {
		return hookwire.ApproveToolResult{Approved: true}
	}
	var req hookwire.ApproveToolParams
	if raw, err := json.Marshal(params); err != nil || json.Unmarshal(raw, &req) != nil {
		return abstain // a call that cannot be read is approved by nobody here
	}
	verdict, err := safely(func() (PermissionResult, error) {
		return l.canUseTool(ctx, req.Tool, req.Arguments, CanUseToolOptions{ToolKind: deref(req.ToolKind), AffectedPaths: req.AffectedPaths})
	})
	if err != nil {
		// A broken permission check approves nothing: the host decides.
		l.failed("canUseTool failed, taken as ask", err, "tool", req.Tool)
		return abstain
	}
	switch verdict.Behavior {
	case Allow:
		switch {
		case verdict.UpdatedInput == nil:
			return hookwire.ApproveToolResult{Approved: true}
		case slices.Contains(l.h.HostExtensions(), hookwire.ExtApproveToolArguments):
			return hookwire.ApproveToolResult{Approved: true, Arguments: verdict.UpdatedInput}
		}
		// Running the call with the arguments it came with would not be
		// what was allowed.
		return deny(fmt.Sprintf("canUseTool allowed %s with updated input, which this host cannot apply (it does not announce %s)", req.Tool, hookwire.ExtApproveToolArguments))
	case Deny:
		return deny(verdict.Message)
	case Ask:
		return abstain
	}
	l.log().Error("canUseTool answered a behavior that is not allow, deny or ask; taken as ask", "tool", req.Tool, "behavior", verdict.Behavior)
	return abstain
}

func deny(reason string) hookwire.ApproveToolResult {
	return hookwire.ApproveToolResult{Approved: false, Reason: &reason}
}

// abstain is "ask" on the wire: a host without the approve_tool.abstain
// extension reads a denial, which is the safe side.
var abstain = hookwire.ApproveToolResult{Approved: false, Abstain: hookwire.Ptr(true)}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
