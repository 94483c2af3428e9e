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

// Event is one of the eight lifecycle events.
type Event string

// The eight events, and the protocol calls and events they come from.
const (
	// SessionStart: the first call or event of a session key (a call's
	// meta.SessionKey, an event's scope.session_key, agent.session.start),
	// once per session.
	SessionStart Event = "SessionStart"
	// UserPromptSubmit: the first hook.before_llm of a turn.
	UserPromptSubmit Event = "UserPromptSubmit"
	// PreToolUse: hook.before_tool.
	PreToolUse Event = "PreToolUse"
	// PostToolUse: hook.after_tool of a result that is not an error.
	PostToolUse Event = "PostToolUse"
	// PostToolUseFailure: hook.after_tool of a result with is_error.
	PostToolUseFailure Event = "PostToolUseFailure"
	// PermissionRequest: hook.approve_tool.
	PermissionRequest Event = "PermissionRequest"
	// TaskCompleted: the runtime event agent.turn.end (legacy turn_end).
	TaskCompleted Event = "TaskCompleted"
	// SessionEnd: the runtime event agent.session.end, or the hook's stop for
	// the sessions still open.
	SessionEnd Event = "SessionEnd"
)

// Events are the eight events, in the order a session meets them.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, TaskCompleted, SessionEnd}

// New returns a hook named name that runs the callbacks of opts: it
// registers the handlers and observers they need (hook.before_llm for
// UserPromptSubmit, hook.before_tool for PreToolUse, hook.after_tool for
// PostToolUse and PostToolUseFailure, hook.approve_tool for
// PermissionRequest and CanUseTool, an observer of every event and an
// OnClose function for SessionStart, TaskCompleted and SessionEnd), so its
// hello modes follow from them. Add other handlers, observers or tools to
// it as to any hook, except for the methods it already handles. Failing
// callbacks are logged to the hook's Logger (stderr by default).
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
	has := func(events ...Event) bool {
		return slices.ContainsFunc(events, func(e Event) bool { return len(hooks[e]) > 0 })
	}
	if has(UserPromptSubmit) {
		h.OnBeforeLLM(l.beforeLLM)
	}
	if has(PreToolUse) {
		h.OnBeforeTool(l.beforeTool)
	}
	if has(PostToolUse, PostToolUseFailure) {
		h.OnAfterTool(l.afterTool)
	}
	if has(PermissionRequest) || opts.CanUseTool != nil {
		h.OnApproveTool(l.approveTool)
	}
	if has(SessionStart, TaskCompleted, SessionEnd) {
		h.OnEvent("*", l.observe)
		h.OnClose(l.endAll)
	}
	return h
}

// layer translates between the protocol and the callbacks of one hook.
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

// chain runs the callbacks of in.Event in order, each on the input as the
// one before left it, until one skips or aborts; that one is returned. A
// callback that fails, or answers an action that is none of the three,
// counts as continue. apply takes a modified input or output into in, and
// changes nothing when it fails; nil for the events that have none.
func (l *layer) chain(ctx context.Context, in Input, apply func(in *Input, modified any) error) (Input, *Output) {
	for i, callback := range l.hooks[in.Event] {
		which := []any{"event", in.Event, "callback", i + 1}
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
		used, unused, unusedName := out.ModifiedInput, out.ModifiedOutput, "ModifiedOutput"
		if in.Event == PostToolUse || in.Event == PostToolUseFailure {
			used, unused, unusedName = out.ModifiedOutput, out.ModifiedInput, "ModifiedInput"
		}
		if unused != nil {
			l.log().Warn("lifecycle callback answered "+unusedName+", which "+string(in.Event)+" has no use for; ignored", which...)
		}
		if used == nil {
			continue
		}
		if apply == nil {
			l.log().Warn("lifecycle callback answered ModifiedInput, which "+string(in.Event)+" has no use for; ignored", which...)
			continue
		}
		if err := apply(&in, used); err != nil {
			l.log().Error("lifecycle callback's change ignored", append(which, "err", err)...)
		}
	}
	return in, nil
}

// start runs the SessionStart callbacks the first time a session key is
// seen, and returns once they have run, however many calls of the session
// arrive meanwhile.
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
	l.chain(ctx, Input{Event: SessionStart, SessionID: key}, nil)
	return s
}

// end runs the SessionEnd callbacks of a session started and not ended.
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
	l.chain(ctx, Input{Event: SessionEnd, SessionID: key}, nil)
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
	if ev.Kind == hookwire.KindAgentSessionEnd {
		l.end(ctx, key)
		return
	}
	l.start(ctx, key)
	if ev.Kind == hookwire.KindAgentTurnEnd {
		l.chain(ctx, Input{Event: TaskCompleted, SessionID: key, Payload: ev.Payload}, nil)
	}
}

// firstOfTurn tells whether a before_llm call is the first of its turn: of
// a TurnID new to the session or, from a host that sends none, of a request
// whose last message is the user's.
func (l *layer) firstOfTurn(s *session, req hookwire.BeforeLLMParams) bool {
	var turn string
	if req.Meta != nil {
		turn = deref(req.Meta.TurnID)
	}
	if turn == "" {
		return len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == "user"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.turns[turn] {
		return false
	}
	s.turns[turn] = true
	return true
}

func (l *layer) beforeLLM(ctx context.Context, req hookwire.BeforeLLMParams) (hookwire.BeforeLLMResult, error) {
	key := sessionOf(req.Meta)
	if !l.firstOfTurn(l.start(ctx, key), req) {
		return hookwire.Continue{}, nil
	}
	at := len(req.Messages) - 1
	for at >= 0 && req.Messages[at].Role != "user" {
		at--
	}
	var message string
	if at >= 0 {
		message = deref(req.Messages[at].Content)
	}
	in, stop := l.chain(ctx, Input{Event: UserPromptSubmit, SessionID: key, Message: message}, func(in *Input, modified any) error {
		text, ok := modified.(string)
		if !ok {
			return fmt.Errorf("ModifiedInput is a %T, not the message's new text (a string)", modified)
		}
		if at < 0 {
			return errors.New("the request has no user message to replace")
		}
		in.Message = text
		return nil
	})
	if stop != nil && stop.Action == Abort {
		return abortTurn(stop.Reason), nil
	}
	if in.Message == message {
		return hookwire.Continue{}, nil
	}
	req.Messages = slices.Clone(req.Messages)
	req.Messages[at].Content = &in.Message
	return req.Modify(), nil
}

func (l *layer) beforeTool(ctx context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
	key := sessionOf(call.Meta)
	l.start(ctx, key)
	modified := false
	in, stop := l.chain(ctx, Input{Event: PreToolUse, SessionID: key, ToolName: call.Tool, ToolInput: call.Arguments}, func(in *Input, v any) error {
		args, err := arguments(v)
		if err != nil {
			return err
		}
		in.ToolInput, modified = args, true
		return nil
	})
	if stop != nil {
		if stop.Action == Skip {
			return hookwire.DenyTool{Reason: cmp.Or(stop.Reason, call.Tool+" skipped by a PreToolUse callback")}, nil
		}
		return abortTurn(stop.Reason), nil
	}
	if !modified {
		return hookwire.Continue{}, nil
	}
	call.Arguments = in.ToolInput
	return call.Modify(), nil
}

// arguments reads a PreToolUse callback's ModifiedInput: a tool's whole
// arguments, as a map or as anything that encodes to a JSON object.
func arguments(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok && m != nil {
		return m, nil
	}
	var m map[string]any
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil || m == nil {
		return nil, fmt.Errorf("ModifiedInput is a %T, not the tool's arguments (a JSON object)", v)
	}
	return m, nil
}

func (l *layer) afterTool(ctx context.Context, res hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
	key := sessionOf(res.Meta)
	l.start(ctx, key)
	in := Input{SessionID: key, ToolName: res.Tool, ToolInput: res.Arguments}
	if in.ToolInput == nil {
		in.ToolInput = map[string]any{}
	}
	// A host may leave the result out (PicoClaw does when it has none):
	// callbacks then see an empty result.
	var result hookwire.ToolResult
	if res.Result != nil {
		result = *res.Result
	}
	failed := result.IsError != nil && *result.IsError
	if failed {
		in.Event, in.Error = PostToolUseFailure, errors.New(result.ForLLM)
	} else {
		in.Event, in.ToolOutput = PostToolUse, result
	}
	modified := false
	_, stop := l.chain(ctx, in, func(in *Input, v any) error {
		r, err := toolResult(v, result)
		if err != nil {
			return err
		}
		result, modified = r, true
		if failed {
			in.Error = errors.New(r.ForLLM)
		} else {
			in.ToolOutput = r
		}
		return nil
	})
	if stop != nil && stop.Action == Abort {
		return abortTurn(stop.Reason), nil
	}
	if !modified {
		return hookwire.Continue{}, nil
	}
	res.Result = &result
	return res.Modify(), nil
}

// toolResult reads a PostToolUse or PostToolUseFailure callback's
// ModifiedOutput: a whole ToolResult, or a string that replaces the
// for_llm of the current one.
func toolResult(v any, current hookwire.ToolResult) (hookwire.ToolResult, error) {
	switch r := v.(type) {
	case string:
		current.ForLLM = r
		return current, nil
	case hookwire.ToolResult:
		return r, nil
	case *hookwire.ToolResult:
		if r != nil {
			return *r, nil
		}
	}
	var result hookwire.ToolResult
	b, err := json.Marshal(v)
	if err == nil {
		err = result.UnmarshalJSON(b)
	}
	if err != nil {
		return current, fmt.Errorf("ModifiedOutput is a %T, neither a ToolResult nor a string (the new for_llm)", v)
	}
	return result, nil
}

func (l *layer) approveTool(ctx context.Context, req hookwire.ApproveToolParams) (hookwire.ApproveToolResult, error) {
	key := sessionOf(req.Meta)
	l.start(ctx, key)
	var kind hookwire.ToolKind
	if req.ToolKind != nil {
		kind = *req.ToolKind
	}
	in := Input{Event: PermissionRequest, SessionID: key, ToolName: req.Tool, ToolInput: req.Arguments, ToolKind: kind, AffectedPaths: req.AffectedPaths}
	if _, stop := l.chain(ctx, in, nil); stop != nil {
		return deny(cmp.Or(stop.Reason, req.Tool+" refused by a PermissionRequest callback")), nil
	}
	if l.canUseTool == nil {
		return hookwire.ApproveToolResult{Approved: true}, nil
	}
	verdict, err := safely(func() (PermissionResult, error) {
		return l.canUseTool(ctx, req.Tool, req.Arguments, CanUseToolOptions{ToolKind: kind, AffectedPaths: slices.Clone(req.AffectedPaths)})
	})
	if err != nil {
		// A broken permission check approves nothing: the host decides.
		l.failed("canUseTool failed, taken as ask", err, "tool", req.Tool)
		return abstain(), nil
	}
	switch verdict.Behavior {
	case Allow:
		switch {
		case verdict.UpdatedInput == nil:
			return hookwire.ApproveToolResult{Approved: true}, nil
		case slices.Contains(l.h.HostExtensions(), hookwire.ExtApproveToolArguments):
			return hookwire.ApproveToolResult{Approved: true, Arguments: verdict.UpdatedInput}, nil
		}
		// Running the call with the arguments it came with would not be
		// what was allowed.
		return deny(fmt.Sprintf("canUseTool allowed %s with updated input, which this host cannot apply (it does not announce %s)", req.Tool, hookwire.ExtApproveToolArguments)), nil
	case Deny:
		return deny(verdict.Message), nil
	case Ask:
		return abstain(), nil
	}
	l.log().Error("canUseTool answered a behavior that is not allow, deny or ask; taken as ask", "tool", req.Tool, "behavior", verdict.Behavior)
	return abstain(), nil
}

func deny(reason string) hookwire.ApproveToolResult {
	return hookwire.ApproveToolResult{Approved: false, Reason: &reason}
}

// abstain is "ask" on the wire: a host without the approve_tool.abstain
// extension reads a denial, which is the safe side.
func abstain() hookwire.ApproveToolResult {
	return hookwire.ApproveToolResult{Approved: false, Abstain: hookwire.Ptr(true)}
}

func abortTurn(reason string) hookwire.AbortTurn {
	if reason == "" {
		return hookwire.AbortTurn{}
	}
	return hookwire.AbortTurn{Reason: &reason}
}

func sessionOf(m *hookwire.Meta) string {
	if m == nil {
		return ""
	}
	return deref(m.SessionKey)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
