package runtime

import (
	"context"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// The interfaces below mirror the process protocol, method for method, so
// that a hook written in Go and run in-process and a hook process are
// interchangeable. Params are passed by value and must be treated as
// read-only: to change an object, return a modify result that carries the
// whole new object. The runtime hands each hook a context that ends at the
// hook's deadline.

// LLMInterceptor intercepts hook.before_llm and hook.after_llm.
type LLMInterceptor interface {
	BeforeLLM(ctx context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error)
	AfterLLM(ctx context.Context, resp protocol.AfterLLMParams) (protocol.AfterLLMResult, error)
}

// ToolInterceptor intercepts hook.before_tool and hook.after_tool.
type ToolInterceptor interface {
	BeforeTool(ctx context.Context, call protocol.BeforeToolParams) (protocol.BeforeToolResult, error)
	AfterTool(ctx context.Context, result protocol.AfterToolParams) (protocol.AfterToolResult, error)
}

// ToolApprover answers hook.approve_tool.
type ToolApprover interface {
	ApproveTool(ctx context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error)
}

// EventObserver receives the hook.runtime_event notifications of the kinds
// it observes. Events are delivered from a queue of the hook's own, never
// from the agent's goroutine.
type EventObserver interface {
	OnEvent(ctx context.Context, ev protocol.RuntimeEvent) error
}

// Stage is an interception point, named as in the intercept list of the
// hooks configuration.
type Stage string

// Stages, in the order an agent meets them.
const (
	StageBeforeLLM   Stage = "before_llm"
	StageAfterLLM    Stage = "after_llm"
	StageBeforeTool  Stage = "before_tool"
	StageApproveTool Stage = "approve_tool"
	StageAfterTool   Stage = "after_tool"
)

// Stages lists every stage.
var Stages = []Stage{StageBeforeLLM, StageAfterLLM, StageBeforeTool, StageApproveTool, StageAfterTool}

// stageMethods maps each stage to its row in the protocol's method table:
// the stages are the methods a hook answers under a mode, named without
// the "hook." of their method.
var stageMethods = func() map[Stage]protocol.MethodInfo {
	m := map[Stage]protocol.MethodInfo{}
	for _, info := range protocol.Methods {
		if info.Mode != "" && !info.Notification {
			m[Stage(strings.TrimPrefix(info.Name, "hook."))] = info
		}
	}
	return m
}()

// Method is the JSON-RPC method of the stage; empty for a string that names
// no stage.
func (s Stage) Method() string { return stageMethods[s].Name }

func (s Stage) valid() bool {
	_, ok := stageMethods[s]
	return ok
}

// mode is the hello mode a hook needs to be called at the stage.
func (s Stage) mode() protocol.Mode { return stageMethods[s].Mode }

// Policy says what a failed hook call means for its stage: a crash, a
// timeout, an error reply, a reply that cannot be read or an action the
// stage does not allow.
type Policy string

const (
	// FailOpen skips the failed hook: the chain goes on as if it had
	// answered continue. The default for every interceptor stage.
	FailOpen Policy = "open"
	// FailClosed stops the chain: approve_tool and before_tool deny the
	// tool, the other stages abort the turn. The default for approve_tool.
	FailClosed Policy = "closed"
)

// DefaultPolicy is the policy of a stage when none is configured.
func DefaultPolicy(s Stage) Policy {
	if s == StageApproveTool {
		return FailClosed
	}
	return FailOpen
}

// Default deadlines of hook calls, as in the hooks configuration's defaults.
const (
	DefaultObserverTimeout    = 500 * time.Millisecond
	DefaultInterceptorTimeout = 5 * time.Second
	DefaultApprovalTimeout    = 60 * time.Second
)

// InProcess is a hook written in Go that runs inside the runtime.
type InProcess struct {
	// Name names the hook in logs and transcripts, and orders it among
	// hooks of the same priority.
	Name string
	// Priority orders the hook: lower runs first. In-process hooks run
	// before process hooks.
	Priority int
	// Hook implements one or more of LLMInterceptor, ToolInterceptor,
	// ToolApprover and EventObserver; it receives the methods of the
	// interfaces it implements.
	Hook any
	// Observe lists what an EventObserver receives: event kinds, legacy
	// names such as "tool_exec_end", globs such as "agent.tool.*", or "*".
	// Empty means every kind.
	Observe []string
	// ObserveOverflow says what happens to an event that finds the hook's
	// queue full: OverflowDrop (the default when empty) or OverflowWait.
	ObserveOverflow Overflow
	// Timeout, when set, replaces the default deadline of every call.
	Timeout time.Duration
	// FailurePolicy overrides the default policy of a stage.
	FailurePolicy map[Stage]Policy
}

// RestartPolicy says how a crashed hook process is restarted. The zero
// value restarts it up to 5 times in a row, waiting 100 ms before the first
// restart and twice as long before each next one, up to 5 s. A restarted
// hook that answers a call successfully resets the count.
type RestartPolicy struct {
	// Never disables restarts: a crashed hook stays down and its calls fail
	// under their stage's policy, as in PicoClaw.
	Never bool
	// MaxRestarts is how many restarts in a row are tried before giving up.
	MaxRestarts int
	// Backoff is the wait before the first restart.
	Backoff time.Duration
	// MaxBackoff caps the wait.
	MaxBackoff time.Duration
}

func (p RestartPolicy) max() int {
	if p.MaxRestarts > 0 {
		return p.MaxRestarts
	}
	return 5
}

func (p RestartPolicy) delay(attempt int) time.Duration {
	d, limit := p.Backoff, p.MaxBackoff
	if d <= 0 {
		d = 100 * time.Millisecond
	}
	if limit <= 0 {
		limit = 5 * time.Second
	}
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}
