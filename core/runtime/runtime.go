// Package runtime is the host side of the hookwire protocol: it runs hooks,
// hook processes and in-process Go hooks alike, and asks them, in order,
// what to do at each stage of an agent turn.
//
// A Runtime is made from a hooks configuration (New), given in-process
// hooks (Use), started (Start), asked at each stage (one method each, such
// as BeforeTool; see Stages), told about events (Emit) and closed (Close).
// A single hook process can also be run on its own with Spawn.
//
// Where things are: runtime.go is the Runtime's life and the mounting of
// its hooks; stages.go the stages, each a row of named functions, and
// their Runtime methods; chain.go the chain engine that runs a row
// (runChain, invoke, callHook); decision.go the outcome rules, how each
// answer folds into a Decision; replies.go how a process hook's replies
// are read under the host; supervise.go the hook process kept running;
// observe.go the event queues.
package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/config"

	"github.com/hookwire/hookwire/core/host"

	"github.com/hookwire/hookwire/core/protocol"
)

// Options tune a Runtime. The zero value is ready to use.
type Options struct {
	// Logger receives the runtime's log and every hook's stderr, one record
	// per line with a "hook" attribute. Nil means slog.Default().
	Logger *slog.Logger
	// MaxLineSize is the longest reply line read from a hook process; a
	// longer one fails its call. Zero means DefaultMaxLineSize (64 MiB).
	MaxLineSize int
	// HelloTimeout bounds each handshake. Zero means DefaultHelloTimeout.
	HelloTimeout time.Duration
	// StopTimeout is each step of a hook's shutdown, and the time Close
	// gives queued events to be delivered. Zero means DefaultStopTimeout.
	StopTimeout time.Duration
	// ObserveQueue is how many events may wait for one observer. Zero
	// means DefaultObserveQueue.
	ObserveQueue int
	// Builtins are the in-process hooks that the configuration's builtins
	// block may enable, by name. The hookwire command provides skill_hooks
	// (package skillhooks); a program that embeds the runtime provides its own.
	Builtins map[string]Builtin
	// OnCall, when set, is told about every interceptor and approver call,
	// once it is over, on the goroutine that asked the runtime.
	OnCall func(CallRecord)
	// OnEvent, when set, is told about every event the runtime is asked to
	// Emit and its host raises, on the goroutine that emits it, whether or
	// not a hook observes it: an exporter of traces reads turns and
	// sessions from them.
	OnEvent func(protocol.RuntimeEvent)
	// Trace, when set, sees every line exchanged with every hook process.
	Trace func(hook string, out bool, line []byte)
	// OnHookDown, when set, is told each time a hook process goes down
	// while the runtime runs, and why: it crashed, or it is broken (its
	// output can no longer be read) and is being stopped. A restart, if its
	// policy allows one, follows.
	OnHookDown func(hook string, why error)
	// NoSessionEvents, when set, keeps runtime_event.session out of the
	// extensions announced in hook.hello. The agent package raises
	// agent.session.start and agent.session.end; a program that drives the
	// runtime with a loop of its own that does not should set it.
	NoSessionEvents bool
	// Host is the host whose behaviour the runtime reproduces (see package
	// host); nil means host.Reference.
	Host *host.Host
}

// CallRecord describes one call to one hook.
type CallRecord struct {
	// Hook is the hook's name.
	Hook string
	// Method is the method called, such as "hook.before_tool".
	Method string
	// Params is what the hook was sent.
	Params any
	// Result is what the hook answered: a variant of the method's result
	// union, or the approver's result. Nil when the call failed.
	Result any
	// Err says why the call failed.
	Err error
	// Policy is the failure policy applied when Err is set.
	Policy Policy
	// Duration is how long the call took.
	Duration time.Duration
	// Discarded says what the host (Options.Host) discarded of the reply,
	// or does besides, and why, one phrase each, in the host's words (see
	// host.Host.Acts).
	Discarded []string
}

// HookInfo describes a hook the runtime runs.
type HookInfo struct {
	Name      string
	Priority  int
	InProcess bool
	Stages    []Stage
	// NotCalled are the stages its configuration names that the host never
	// calls (an agent without model events).
	NotCalled []Stage
	Observes  bool
}

// Runtime runs hooks and dispatches the stages of agent turns to them. Its
// methods are safe for concurrent use once Start has returned. A Runtime
// with no hooks lets everything through; the zero Runtime is one, to which
// in-process hooks may be added with Use.
type Runtime struct {
	opts     Options
	defaults DefaultsConfig

	mu      sync.Mutex
	hooks   []*hook
	started bool
	closed  bool
	chains  map[Stage][]*hook
	queues  []*observeQueue

	// injected lists, per hook, the tools it added to LLM requests in
	// before_llm: those it may answer with respond when
	// hooks.defaults.respond is own_tools.
	injectedMu sync.Mutex
	injected   map[string]map[string]bool
}

// hook is one hook of either kind, as the dispatcher sees it.
type hook struct {
	name      string
	priority  int
	inProcess bool
	stages    map[Stage]bool
	notCalled []Stage // stages configured that the host never calls
	impl      any     // the in-process hook; nil for a hook process
	observer  EventObserver
	observe   pattern // nil when the hook observes nothing
	timeout   time.Duration
	policy    map[Stage]Policy
	proc      *processHook  // nil for an in-process hook
	caller    processCaller // how proc's replies are read (callerFor); nil for an in-process hook
	queue     *observeQueue
	overflow  Overflow
}

// New makes a runtime for the hooks a configuration enables. Nothing runs
// until Start.
func New(cfg Config, opts Options) (*Runtime, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	r := &Runtime{opts: opts, defaults: cfg.Hooks.Defaults}
	if !cfg.Hooks.Enabled {
		if len(cfg.Hooks.Processes)+len(cfg.Hooks.Builtins) > 0 {
			r.logger().Info("hooks.enabled is not true: no configured hook runs")
		}
		return r, nil
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Hooks.Builtins)) {
		b := cfg.Hooks.Builtins[name]
		if !b.Enabled {
			continue
		}
		factory := opts.Builtins[name]
		if factory == nil {
			has := "none"
			if names := builtinNames(opts); len(names) > 0 {
				has = strings.Join(names, ", ")
			}
			return nil, fmt.Errorf("hooks.builtins.%s: this program has no built-in hook of that name (it has: %s)", name, has)
		}
		impl, err := factory(b.Config, cfg.Dir)
		if err != nil {
			return nil, fmt.Errorf("hooks.builtins.%s.config: %w", name, err)
		}
		if err := r.Use(InProcess{Name: name, Priority: b.Priority, Hook: impl}); err != nil {
			return nil, fmt.Errorf("hooks.builtins.%s: %w", name, err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Hooks.Processes)) {
		p := cfg.Hooks.Processes[name]
		if !p.Enabled {
			r.logger().Info("hook is not enabled", "hook", name)
			continue
		}
		if err := r.addProcess(name, p); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// host is the host the runtime behaves as.
func (r *Runtime) host() *host.Host { return cmp.Or(r.opts.Host, host.Reference) }

func (r *Runtime) logger() *slog.Logger {
	if r.opts.Logger != nil {
		return r.opts.Logger
	}
	return slog.Default()
}

func (r *Runtime) addProcess(name string, p ProcessConfig) error {
	h := &hook{name: name, priority: p.Priority, stages: map[Stage]bool{}, timeout: ms(p.TimeoutMS), policy: policies(p), overflow: p.ObserveOverflow}
	var modes []protocol.Mode
	granted := r.host().Granted(p.Intercept)
	for _, s := range granted {
		h.stages[Stage(s)] = true
	}
	for _, s := range p.Intercept {
		if !slices.Contains(granted, s) {
			h.notCalled = append(h.notCalled, Stage(s))
		}
	}
	if len(p.Observe) > 0 {
		h.observe, _ = config.CompilePatterns(p.Observe) // checked with the config
		modes = append(modes, protocol.ModeObserve)
	}
	for _, s := range Stages {
		if h.stages[s] && !slices.Contains(modes, s.Mode()) {
			modes = append(modes, s.Mode())
		}
	}
	slices.SortFunc(modes, func(a, b protocol.Mode) int { return modeOrder(a) - modeOrder(b) })
	popts := ProcessOptions{
		Conn:         ConnOptions{MaxLineSize: r.maxLineSize(), Logger: r.logger()},
		HelloTimeout: r.opts.HelloTimeout,
		StopTimeout:  r.opts.StopTimeout,
	}
	if r.opts.Trace != nil {
		popts.Conn.Trace = func(out bool, line []byte) { r.opts.Trace(name, out, line) }
	}
	cmd := Command{Name: name, Argv: p.Command, Dir: p.Dir, Env: p.Env, EnvPassthrough: p.EnvPassthrough, EnvClear: p.EnvClear, Modes: modes, Extensions: r.Extensions()}
	restart := restartPolicy(p.Restart)
	hst := r.host()
	cmd.ReadHello = hst.ReadHello
	popts.HelloTimeout = cmp.Or(r.opts.HelloTimeout, hst.HelloWait)
	if hst.NeverRestarts {
		restart = RestartPolicy{Never: true}
	}
	if !hst.NoExtensions {
		cmd.MaxLineBytes = int64(r.maxLineSize())
	}
	h.proc = newProcessHook(cmd, popts, restart, r.logger())
	h.caller = r.callerFor(name, h.proc)
	if r.opts.OnHookDown != nil {
		h.proc.onDown = func(why error) { r.opts.OnHookDown(name, why) }
	}
	h.observer = h.proc
	return r.add(h)
}

// Extensions lists the protocol extensions the runtime applies, as it
// announces them to every hook process in hook.hello: every one of
// protocol.HostExtensions (an approver may abstain or approve with new
// arguments, observers are sent session events), but session events when
// Options.NoSessionEvents is set.
func (r *Runtime) Extensions() []string {
	if r.host().NoExtensions {
		return nil
	}
	var ext []string
	for _, e := range protocol.HostExtensions {
		if e.Name != protocol.ExtRuntimeEventSession || !r.opts.NoSessionEvents {
			ext = append(ext, e.Name)
		}
	}
	return ext
}

// maxLineSize is the longest reply line read from a hook process.
func (r *Runtime) maxLineSize() int {
	switch {
	case r.opts.MaxLineSize > 0:
		return r.opts.MaxLineSize
	case r.host().MaxLineSize > 0:
		return r.host().MaxLineSize
	}
	return DefaultMaxLineSize
}

// modeOrder puts hello modes in the order the documents list them.
func modeOrder(m protocol.Mode) int {
	return slices.Index([]protocol.Mode{protocol.ModeObserve, protocol.ModeLLM, protocol.ModeTool, protocol.ModeApprove}, m)
}

// Use adds an in-process hook. It must be called before Start.
func (r *Runtime) Use(h InProcess) error {
	if h.Name == "" {
		return errors.New("an in-process hook needs a name")
	}
	x := &hook{name: h.Name, priority: h.Priority, inProcess: true, stages: map[Stage]bool{}, impl: h.Hook, timeout: h.Timeout, policy: h.FailurePolicy, overflow: h.ObserveOverflow}
	if !x.overflow.Valid() {
		return fmt.Errorf("hook %s: observe overflow %q is not %q or %q", h.Name, x.overflow, OverflowDrop, OverflowWait)
	}
	for s, st := range stageChains {
		if st.servedBy(h.Hook) {
			x.stages[s] = true
		}
	}
	if _, ok := h.Hook.(EventObserver); ok {
		var err error
		if x.observe, err = config.CompilePatterns(h.Observe); err != nil {
			return fmt.Errorf("hook %s: observe: %w", h.Name, err)
		}
		x.observer = guard{h.Hook}
	}
	if len(x.stages) == 0 && x.observer == nil {
		return fmt.Errorf("hook %s: %T implements none of LLMInterceptor, ToolInterceptor, ToolApprover, EventObserver", h.Name, h.Hook)
	}
	for s, p := range h.FailurePolicy {
		if !s.Valid() || (p != FailOpen && p != FailClosed) {
			return fmt.Errorf("hook %s: bad failure policy %q: %q", h.Name, s, p)
		}
	}
	return r.add(x)
}

func (r *Runtime) add(h *hook) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return fmt.Errorf("hook %s: the runtime has started; add hooks before Start", h.name)
	}
	if slices.ContainsFunc(r.hooks, func(o *hook) bool { return o.name == h.name }) {
		return fmt.Errorf("hook %s: two hooks have that name", h.name)
	}
	r.hooks = append(r.hooks, h)
	return nil
}

// Start starts every hook process and completes its handshake. If one
// fails, those started are stopped and the error names the hook.
func (r *Runtime) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return errors.New("runtime already started")
	}
	r.started = true
	// In-process hooks first, then lower priority first, then by name.
	slices.SortFunc(r.hooks, func(a, b *hook) int {
		if a.inProcess != b.inProcess {
			if a.inProcess {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.priority, b.priority), strings.Compare(a.name, b.name))
	})
	for i, h := range r.hooks {
		if h.proc == nil {
			continue
		}
		if err := h.proc.start(ctx); err != nil {
			if f := r.host().FailedStart; f != nil {
				err = f(h.name, err)
			}
			for _, started := range r.hooks[:i] {
				if started.proc != nil {
					started.proc.close()
				}
			}
			r.closed = true
			return err
		}
	}
	r.chains = map[Stage][]*hook{}
	size := cmp.Or(r.opts.ObserveQueue, DefaultObserveQueue)
	for _, h := range r.hooks {
		for _, s := range Stages {
			if h.stages[s] {
				r.chains[s] = append(r.chains[s], h)
			}
		}
		if h.observe != nil {
			timeout := cmp.Or(h.timeout, ms(r.defaults.ObserverTimeoutMS), DefaultObserverTimeout)
			h.queue = newObserveQueue(h.name, h.observer, size, timeout, h.overflow, r.logger())
			r.queues = append(r.queues, h.queue)
		}
	}
	return nil
}

// Close delivers the events still queued, for at most the stop timeout,
// then stops every hook process (see Process.Close). It is safe to call
// more than once.
func (r *Runtime) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	hooks, queues := r.hooks, r.queues
	r.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(r.opts.StopTimeout, DefaultStopTimeout))
	defer cancel()
	var wg sync.WaitGroup
	for _, q := range queues {
		wg.Go(func() { q.close(ctx) })
	}
	wg.Wait()
	for _, h := range hooks {
		if h.proc != nil {
			wg.Go(h.proc.close)
		}
	}
	wg.Wait()
	return nil
}

// Hooks describes the hooks the runtime runs, in the order they are asked.
func (r *Runtime) Hooks() []HookInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []HookInfo
	for _, h := range r.hooks {
		info := HookInfo{Name: h.name, Priority: h.priority, InProcess: h.inProcess, Observes: h.observe != nil, NotCalled: h.notCalled}
		for _, s := range Stages {
			if h.stages[s] {
				info.Stages = append(info.Stages, s)
			}
		}
		out = append(out, info)
	}
	return out
}

// ObserveStats says, per observing hook, how many events were dropped and
// how often and how long the agent waited for room in its queue.
func (r *Runtime) ObserveStats() map[string]ObserveStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]ObserveStats{}
	for _, h := range r.hooks {
		if h.queue != nil {
			out[h.name] = h.queue.stats()
		}
	}
	return out
}

// Dropped counts, per observing hook, the events dropped because its queue
// was full or the runtime closed before they could be delivered.
func (r *Runtime) Dropped() map[string]uint64 {
	out := map[string]uint64{}
	for name, st := range r.ObserveStats() {
		out[name] = st.Dropped
	}
	return out
}

// Emit hands an event to every hook that observes its kind. Each hook has
// a queue of its own, and an event that finds a queue full is dropped for
// that hook, counted and logged; Emit never blocks, unless a hook's
// overflow is OverflowWait: then it waits for room in that hook's queue,
// for at most the hook's observer deadline (see ObserveStats).
func (r *Runtime) Emit(ev protocol.RuntimeEvent) {
	if r == nil || (r.host().Emits != nil && !r.host().Emits(ev.Kind)) {
		return
	}
	if r.opts.OnEvent != nil {
		r.opts.OnEvent(ev)
	}
	for _, h := range r.hooks {
		if h.queue != nil && h.observe(ev.Kind) {
			h.queue.push(ev)
		}
	}
}
