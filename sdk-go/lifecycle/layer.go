package lifecycle

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"sync"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// New returns a hook named name that runs the callbacks of opts: it
// registers the handlers and observers they need, so its hello modes follow
// from them. Add other handlers, observers or tools to it as to any hook,
// except for the methods it already handles. Failing callbacks are logged to
// the hook's Logger (stderr by default). New panics on an event that is not
// one of [Events] and on a nil callback.
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
	for _, m := range methods {
		if slices.ContainsFunc(m.rows, func(r row) bool { return l.has(r.event) }) || m.approval && opts.CanUseTool != nil {
			m.register(l, m)
		}
	}
	if slices.ContainsFunc(observed, l.has) {
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
	start func()          // runs the SessionStart callbacks once, and waits for them
	turns map[string]bool // the turns whose first LLM call was seen; guarded by layer.mu
}

var stderrLog = sync.OnceValue(func() *slog.Logger { return slog.New(slog.NewTextHandler(os.Stderr, nil)) })

func (l *layer) log() *slog.Logger { return cmp.Or(l.h.Logger, stderrLog()) }

// safely calls fn; when it fails, returning an error or panicking, the
// failure is logged as msg, with args, and ok is false.
func safely[T any](l *layer, msg string, fn func() (T, error), args ...any) (out T, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			l.log().Error(msg, append(args, "err", fmt.Sprint("panic: ", v), "stack", string(debug.Stack()))...)
			ok = false
		}
	}()
	out, err := fn()
	if err != nil {
		l.log().Error(msg, append(args, "err", err)...)
	}
	return out, err == nil
}

func (l *layer) has(e Event) bool { return len(l.hooks[e]) > 0 }

// chain runs the callbacks of an event in order, each on the input as the
// one before left it, until one skips or aborts; that one is returned. A
// callback that fails, or answers an action that is none of the three,
// counts as continue. apply takes the modified value the event uses (with,
// ModifiedInput or ModifiedOutput) into the call, and returns the
// input read anew from it; it changes nothing when it fails.
func (l *layer) chain(ctx context.Context, e Event, in Input, with string, apply func(any) (Input, error)) *Output {
	for i, callback := range l.hooks[e] {
		which := []any{"event", e, "callback", i + 1}
		out, ok := safely(l, "lifecycle callback failed, taken as continue", func() (Output, error) { return callback(ctx, in) }, which...)
		if !ok {
			continue
		}
		switch out.Action {
		case Skip, Abort:
			return &out
		case "", Continue:
		default:
			l.log().Error("lifecycle callback answered an action that is not continue, skip or abort; taken as continue", append(which, "action", out.Action)...)
			continue
		}
		for _, m := range [...]struct {
			name  string
			value any
		}{{"ModifiedInput", out.ModifiedInput}, {"ModifiedOutput", out.ModifiedOutput}} {
			switch {
			case m.value == nil:
			case m.name != with:
				l.log().Warn("lifecycle callback answered "+m.name+", which "+string(e)+" has no use for; ignored", which...)
			default:
				if changed, err := apply(m.value); err != nil {
					l.log().Error("lifecycle callback's change ignored", append(which, "err", err)...)
				} else {
					in = changed
				}
			}
		}
	}
	return nil
}

// as is a callback's modified value (name) as T, the type of what it
// replaces (want): itself, or what it encodes to in JSON decoded as T.
func as[T any](v any, name, want string) (T, error) {
	if t, ok := v.(T); ok {
		return t, nil
	}
	var t T
	raw, err := json.Marshal(v)
	if err == nil && string(raw) != "null" && json.Unmarshal(raw, &t) == nil {
		return t, nil
	}
	return t, fmt.Errorf("%s is a %T, not %s", name, v, want)
}

// asResult is a callback's modified output as the tool's result: a whole
// ToolResult, or a string that replaces the for_llm of the current one.
func asResult(v any, current hookwire.ToolResult) (hookwire.ToolResult, error) {
	if text, ok := v.(string); ok {
		current.ForLLM = text
		return current, nil
	}
	return as[hookwire.ToolResult](v, "ModifiedOutput", "a ToolResult or a string (the new for_llm)")
}

// sessionRows runs the callbacks of the events of a session's start or end.
func (l *layer) sessionRows(ctx context.Context, events []Event, key string) {
	for _, e := range events {
		l.chain(ctx, e, Input{Event: e, SessionID: key}, "", nil)
	}
}

// start runs the callbacks of the session's start the first time a session
// key is seen, and returns once they have run, however many calls of the
// session arrive meanwhile.
func (l *layer) start(ctx context.Context, key string) *session {
	l.mu.Lock()
	s := l.open[key]
	if s == nil {
		s = &session{start: sync.OnceFunc(func() { l.sessionRows(ctx, startEvents, key) }), turns: map[string]bool{}}
		l.open[key] = s
		l.order = append(l.order, key)
	}
	l.mu.Unlock()
	s.start()
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
	if s != nil {
		s.start()
		l.sessionRows(ctx, endEvents, key)
	}
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

// firstOfTurn tells whether a before_llm call is the first of its turn: of
// a TurnID new to the session or, from a host that sends none, of a request
// whose last message is the user's.
func (l *layer) firstOfTurn(s *session, turn string, messages []hookwire.Message) bool {
	if turn == "" {
		return len(messages) > 0 && messages[len(messages)-1].Role == "user"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	first := !s.turns[turn]
	s.turns[turn] = true
	return first
}

// approve asks CanUseTool about a call the rows let through.
func (l *layer) approve(ctx context.Context, req hookwire.ApproveToolParams) hookwire.ApproveToolResult {
	if l.canUseTool == nil {
		return hookwire.ApproveToolResult{Approved: true}
	}
	verdict, ok := safely(l, "canUseTool failed, taken as ask", func() (PermissionResult, error) {
		return l.canUseTool(ctx, req.Tool, req.Arguments, CanUseToolOptions{ToolKind: deref(req.ToolKind), AffectedPaths: req.AffectedPaths})
	}, "tool", req.Tool)
	if !ok {
		return abstain // a broken permission check approves nothing: the host decides
	}
	switch {
	case verdict.Behavior == Deny:
		return deny(verdict.Message)
	case verdict.Behavior == Ask:
		return abstain
	case verdict.Behavior != Allow:
		l.log().Error("canUseTool answered a behavior that is not allow, deny or ask; taken as ask", "tool", req.Tool, "behavior", verdict.Behavior)
		return abstain
	case verdict.UpdatedInput == nil:
		return hookwire.ApproveToolResult{Approved: true}
	case slices.Contains(l.h.HostExtensions(), hookwire.ExtApproveToolArguments):
		return hookwire.ApproveToolResult{Approved: true, Arguments: verdict.UpdatedInput}
	}
	// Running the call with the arguments it came with would not be what was
	// allowed.
	return deny(fmt.Sprintf("canUseTool allowed %s with updated input, which this host cannot apply (it does not announce %s)", req.Tool, hookwire.ExtApproveToolArguments))
}

func deny(reason string) hookwire.ApproveToolResult {
	return hookwire.ApproveToolResult{Approved: false, Reason: &reason}
}

// abstain is "ask" on the wire: a host without the abstain extension
// (hookwire.ExtApproveToolAbstain) reads a denial, which is the safe side.
var abstain = hookwire.ApproveToolResult{Approved: false, Abstain: hookwire.Ptr(true)}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
