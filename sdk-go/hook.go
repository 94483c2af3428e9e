package hookwire

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
)

// EventFunc observes events. Events reach observers one at a time, in the
// order the host sent them; a panic is logged and the next event goes on.
type EventFunc func(ctx context.Context, ev RuntimeEvent)

// Hook is a hook program: its name, its handlers and its tools. Register
// everything before [Hook.Run], [Hook.Serve] or [Hook.Call]. The zero value
// is ready to use and answers hook.hello with the name the host gives it.
//
// Handlers run concurrently, so one that takes long holds up no other;
// their context is cancelled when the hook shuts down. An error (or a
// panic) becomes a JSON-RPC error reply, code -32000 with the error's
// message, unless the error is an [*RPCError], whose code is kept. A nil
// result of a union is continue. The tools of [AddTool] act before the
// handlers: their definitions are added to what the hook.before_llm
// handler answers, and calls to them are answered without reaching the
// hook.before_tool handler.
type Hook struct {
	// Name is the name sent back in hook.hello; empty means the name the
	// host configured.
	Name string
	// Logger receives the SDK's own records: handler failures, protocol
	// problems. Nil means a text logger on stderr.
	Logger *slog.Logger

	user       handlers // registered with the On methods of hook_gen.go
	sdk        handlers // the SDK's own, which call the user's: the tools' part of a method
	observers  []observer
	tools      []*tool
	closers    []func(context.Context)
	extensions atomic.Pointer[[]string] // announced in the host's last hello
	maxLine    atomic.Int64             // the longest reply line the host reads; 0 until a hello says more

	defaultLog sync.Once
	log        *slog.Logger
}

type observer struct {
	pattern string
	fn      EventFunc
}

// New returns a hook that calls itself name in hook.hello.
func New(name string) *Hook { return &Hook{Name: name} }

// OnEvent observes the events whose kind matches pattern, a [path.Match]
// glob over dotted kinds: "agent.tool.*", "agent.turn.end", "*". It sees
// hook.runtime_event and the legacy hook.event alike: a legacy event
// arrives with its kind mapped by [LegacyEventKinds] ("tool_exec_start" is
// "agent.tool.exec_start"), its Meta's AgentID, SessionKey and TurnID in
// Scope, and its Payload as sent. A legacy kind as pattern stands for its
// runtime kind, as in the host's observe list. OnEvent panics on a
// malformed pattern.
func (h *Hook) OnEvent(pattern string, fn EventFunc) {
	if kind, ok := LegacyEventKinds[pattern]; ok {
		pattern = kind
	}
	if _, err := path.Match(pattern, ""); err != nil {
		panic(fmt.Sprintf("hookwire: OnEvent(%q): %v", pattern, err))
	}
	if fn == nil {
		panic("hookwire: OnEvent: nil func")
	}
	h.observers = append(h.observers, observer{pattern, fn})
}

// OnClose registers fn to run when the hook stops serving, because the host
// closed stdin or a signal came: once the handlers and observers in flight
// are done, before [Hook.Serve] (and so [Hook.Run]) returns. It is the
// place to flush what the hook keeps. The functions run one after the
// other, in the order registered; a panic is logged and the next one runs.
// Their context carries the hook's values but is not cancelled, so that
// they can finish after a signal (a second signal ends the process).
func (h *Hook) OnClose(fn func(ctx context.Context)) {
	if fn == nil {
		panic("hookwire: OnClose: nil func")
	}
	h.closers = append(h.closers, fn)
}

// HostExtensions are the protocol extensions the host announced in its
// last hook.hello, such as [ExtRuntimeEventSession] (see the protocol
// reference): a hook must not send what the host did not announce. Nil
// before the first hello.
func (h *Hook) HostExtensions() []string {
	if p := h.extensions.Load(); p != nil {
		return slices.Clone(*p)
	}
	return nil
}

// close runs the OnClose functions.
func (h *Hook) close(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	for i, fn := range h.closers {
		func() {
			defer func() {
				if v := recover(); v != nil {
					h.logger().Error("an OnClose function panicked", "index", i, "panic", v, "stack", string(debug.Stack()))
				}
			}()
			fn(ctx)
		}()
	}
}

// register refuses a nil handler and a second one for the same method,
// which would silently replace the first: never what was meant.
func register(isNil, taken bool, method string) {
	if isNil {
		panic("hookwire: nil handler for " + method)
	}
	if taken {
		panic("hookwire: a second handler for " + method)
	}
}

func (h *Hook) logger() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	h.defaultLog.Do(func() { h.log = slog.New(slog.NewTextHandler(os.Stderr, nil)) })
	return h.log
}
