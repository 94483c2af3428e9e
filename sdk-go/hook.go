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

// Handler types, one per request method. Handlers run concurrently, so
// one that takes long holds up no other; their context is cancelled when
// the hook shuts down. An error (or a panic) becomes a JSON-RPC error
// reply, code -32000 with the error's message, unless the error is an
// [*RPCError], whose code is kept. A nil result of a union is continue.
type (
	BeforeLLMFunc   func(ctx context.Context, req BeforeLLMParams) (BeforeLLMResult, error)
	AfterLLMFunc    func(ctx context.Context, resp AfterLLMParams) (AfterLLMResult, error)
	BeforeToolFunc  func(ctx context.Context, call BeforeToolParams) (BeforeToolResult, error)
	AfterToolFunc   func(ctx context.Context, res AfterToolParams) (AfterToolResult, error)
	ApproveToolFunc func(ctx context.Context, req ApproveToolParams) (ApproveToolResult, error)
	// EventFunc observes events. Events reach observers one at a time, in the
	// order the host sent them; a panic is logged and the next event goes on.
	EventFunc func(ctx context.Context, ev RuntimeEvent)
)

// Hook is a hook program: its name, its handlers and its tools. Register
// everything before [Hook.Run], [Hook.Serve] or [Hook.Call]. The zero value
// is ready to use and answers hook.hello with the name the host gives it.
type Hook struct {
	// Name is the name sent back in hook.hello; empty means the name the
	// host configured.
	Name string
	// Logger receives the SDK's own records: handler failures, protocol
	// problems. Nil means a text logger on stderr.
	Logger *slog.Logger

	beforeLLM   BeforeLLMFunc
	afterLLM    AfterLLMFunc
	beforeTool  BeforeToolFunc
	afterTool   AfterToolFunc
	approveTool ApproveToolFunc
	observers   []observer
	tools       []*tool
	closers     []func(context.Context)
	extensions  atomic.Pointer[[]string] // announced in the host's last hello
	maxLine     atomic.Int64             // the longest reply line the host reads; 0 until a hello says more

	defaultLog sync.Once
	log        *slog.Logger
}

type observer struct {
	pattern string
	fn      EventFunc
}

// New returns a hook that calls itself name in hook.hello.
func New(name string) *Hook { return &Hook{Name: name} }

// OnBeforeLLM handles hook.before_llm, the request about to go to the LLM.
// With tools added by [AddTool], a continue from fn becomes a modify that
// carries the tools, and a modify from fn gets them added.
func (h *Hook) OnBeforeLLM(fn BeforeLLMFunc) {
	register(fn == nil, h.beforeLLM != nil, MethodBeforeLLM)
	h.beforeLLM = fn
}

// OnAfterLLM handles hook.after_llm, the LLM's answer.
func (h *Hook) OnAfterLLM(fn AfterLLMFunc) {
	register(fn == nil, h.afterLLM != nil, MethodAfterLLM)
	h.afterLLM = fn
}

// OnBeforeTool handles hook.before_tool, a tool call about to run. Calls to
// the tools added by [AddTool] are answered by the SDK and do not reach fn.
func (h *Hook) OnBeforeTool(fn BeforeToolFunc) {
	register(fn == nil, h.beforeTool != nil, MethodBeforeTool)
	h.beforeTool = fn
}

// OnAfterTool handles hook.after_tool, a tool call that has run.
func (h *Hook) OnAfterTool(fn AfterToolFunc) {
	register(fn == nil, h.afterTool != nil, MethodAfterTool)
	h.afterTool = fn
}

// OnApproveTool handles hook.approve_tool, the question whether a tool call
// may run.
func (h *Hook) OnApproveTool(fn ApproveToolFunc) {
	register(fn == nil, h.approveTool != nil, MethodApproveTool)
	h.approveTool = fn
}

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
// last hook.hello, such as "approve_tool.arguments" (see the protocol
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

// Modes are the hello modes the registered handlers need, in protocol
// order: observe, llm, tool, approve.
func (h *Hook) Modes() []Mode {
	modes := []Mode{}
	if len(h.observers) > 0 {
		modes = append(modes, ModeObserve)
	}
	if h.beforeLLM != nil || h.afterLLM != nil || len(h.tools) > 0 {
		modes = append(modes, ModeLLM)
	}
	if h.beforeTool != nil || h.afterTool != nil || len(h.tools) > 0 {
		modes = append(modes, ModeTool)
	}
	if h.approveTool != nil {
		modes = append(modes, ModeApprove)
	}
	return modes
}

func (h *Hook) logger() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	h.defaultLog.Do(func() { h.log = slog.New(slog.NewTextHandler(os.Stderr, nil)) })
	return h.log
}
