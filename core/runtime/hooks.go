package runtime

import (
	"time"

	"github.com/hookwire/hookwire/core/config"

	"github.com/hookwire/hookwire/core/protocol"
)

// Policy says what a failed hook call means for its stage (see
// config.Policy).
type Policy = config.Policy

// The policies.
const (
	FailOpen   = config.FailOpen
	FailClosed = config.FailClosed
)

// DefaultPolicy is the policy of a stage when none is configured.
func DefaultPolicy(s Stage) Policy {
	if s.Mode() == protocol.ModeApprove {
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
	// under their stage's policy, as under a host that never restarts
	// hooks (host.Host.NeverRestarts).
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
