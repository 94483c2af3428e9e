// Package runtime is the host side of the hookwire protocol: it runs hooks,
// hook processes and in-process Go hooks alike, and asks them, in order,
// what to do at each stage of an agent turn.
//
// A Runtime is made from a hooks configuration (New), given in-process
// hooks (Use), started (Start), asked at each stage (one method each, such
// as BeforeTool; see Stages), told about events (Emit) and closed (Close). A single hook process can also be run on its own with Spawn.
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
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/config"

	"github.com/hookwire/hookwire/core/host"

	"github.com/hookwire/hookwire/core/wire"

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

// Decision is what a stage's hooks decided together.
type Decision struct {
	// Action is ActionContinue when every hook let the object through,
	// changed or not. Otherwise it is the action that ended the chain:
	// respond or deny_tool (before_tool), abort_turn or hard_abort; a
	// denied approval is deny_tool.
	Action protocol.Action
	// Hook names the hook that ended the chain.
	Hook string
	// Reason is that hook's reason, or why it failed.
	Reason string
	// Result is the tool result of a respond.
	Result *protocol.ToolResult
	// Arguments, after the approval, replace the call's arguments: set when
	// an approver approved with arguments (the last one that did wins).
	Arguments map[string]any
	// ByDefault is true when no hook decided: every approver that answered
	// abstained, and hooks.defaults.approval ruled; Reason says how.
	ByDefault bool
	// Canceled is true when the caller gave up: the context of the call was
	// canceled or met its own deadline (SIGTERM, Ctrl-C, a program shutting
	// down). The action is then abort_turn, whatever the stage and its
	// failure policy: no hook was skipped as if it had failed, and nothing
	// may go on without the hooks' word.
	Canceled bool
	// NeedsApproval is set on a respond when hooks.defaults.approve_respond
	// is true: the call must still be approved before the hook's answer
	// stands for the tool.
	NeedsApproval bool
	// Failed is true when a hook's call failed (crash, deadline, a reply
	// that breaks the protocol) and its stage's policy, closed, ended the
	// chain: no hook decided, Reason says what went wrong.
	Failed bool
	// Skipped says, for each hook whose call failed under an open policy
	// and was passed over, what went wrong: the chain went on without it,
	// and whoever runs the agent should hear of it.
	Skipped []string
	// Context is the text hooks asked to add to what the model reads next
	// (the context of their results), in the order they were asked.
	Context []string
	// Messages are what hooks asked to show the user (the message of their
	// results), each led by the hook's name.
	Messages []string
}

// Continue reports whether the agent may go on.
func (d Decision) Continue() bool { return d.Action == protocol.ActionContinue }

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
	proc      *processHook // nil for an in-process hook
	queue     *observeQueue
	overflow  Overflow
	deaf      atomic.Bool // the host's reader of this hook stopped at an over-long line (host.LongLineDeafens)
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
		if h.stages[s] && !slices.Contains(modes, s.mode()) {
			modes = append(modes, s.mode())
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
		if !s.valid() || (p != FailOpen && p != FailClosed) {
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
	for _, h := range r.hooks {
		if h.queue != nil && h.observe(ev.Kind) {
			h.queue.push(ev)
		}
	}
}

func (r *Runtime) chain(s Stage) []*hook {
	if r == nil {
		return nil
	}
	return r.chains[s]
}

func (r *Runtime) deadline(h *hook, s Stage) time.Duration {
	if h.timeout > 0 {
		return h.timeout
	}
	if s.mode() == protocol.ModeApprove {
		return cmp.Or(ms(r.defaults.ApprovalTimeoutMS), DefaultApprovalTimeout)
	}
	return cmp.Or(ms(r.defaults.InterceptorTimeoutMS), DefaultInterceptorTimeout)
}

func (h *hook) policyFor(s Stage) Policy {
	if p, ok := h.policy[s]; ok {
		return p
	}
	return DefaultPolicy(s)
}

// stage is what the chain of one stage does differently from the others:
// I is the interface an in-process hook implements to be asked, P the
// params, R the result.
type stage[I, P, R any] struct {
	Stage
	// ask asks an in-process hook.
	ask func(I, context.Context, P) (R, error)
	// check, when set, refuses an answer the stage does not take from that
	// hook: the call fails, under the hook's policy.
	check func(r *Runtime, h *hook, params P, res R) error
	// origin, when set, points at the fields of P that say where a call
	// comes from, for a modify to keep them (see keep).
	origin func(*P) origin
	// take folds one hook's answer into the run; a decision it returns
	// ends the chain.
	take func(r *Runtime, h *hook, c chainRun[P], res R) (chainRun[P], *Decision)
	// finish, when set, decides once every hook has had its say;
	// otherwise the run's decision stands.
	finish func(r *Runtime, c chainRun[P]) Decision
	// failure is the action of a failed call under a closed policy; empty
	// means abort_turn.
	failure protocol.Action
}

// anyStage is a stage's chain, whatever its types.
type anyStage interface {
	name() Stage
	// servedBy reports whether an in-process hook is asked at the stage.
	servedBy(impl any) bool
}

func (st *stage[I, P, R]) name() Stage { return st.Stage }

func (st *stage[I, P, R]) servedBy(impl any) bool {
	_, ok := impl.(I)
	return ok
}

// call asks one hook, of either kind, to answer by deadline.
func (st *stage[I, P, R]) call(r *Runtime, ctx context.Context, deadline time.Time, h *hook, params P) (R, error) {
	var res R
	var err error
	if h.proc != nil {
		// By pointer: the encoder would copy a value to the heap.
		res, err = callProcess[R](ctx, deadline, h.proc, st.Method(), &params)
	} else {
		ctx, cancel := context.WithDeadline(ctx, deadline)
		res, err = guarded(ctx, func(ctx context.Context) (R, error) { return st.ask(h.impl.(I), ctx, params) })
		cancel()
	}
	if err == nil && st.check != nil {
		err = st.check(r, h, params, res)
	}
	return res, err
}

// chainRun is one run of a chain: the params as the hooks have left them,
// and what the approvers have said so far.
type chainRun[P any] struct {
	params              P
	decision            Decision // the decision when no hook ends the chain
	approved, abstained bool
	origin              func(*P) origin
	// context and messages are the remarks of the hooks asked so far.
	context, messages []string
}

// decided is the chain's outcome: its params, and d with the hooks skipped
// on the way and what the hooks remarked.
func (c chainRun[P]) decided(d Decision, skipped []string) (P, Decision) {
	d.Skipped, d.Context, d.Messages = skipped, c.context, c.messages
	return c.params, d
}

// remarked keeps what a hook's answer says besides its action.
func (c *chainRun[P]) remarked(h *hook, answer any) {
	said, ok := answer.(interface{ HookRemarks() protocol.Remarks })
	if !ok {
		return
	}
	r := said.HookRemarks()
	if r.Context != nil && *r.Context != "" {
		c.context = append(c.context, *r.Context)
	}
	if r.Message != nil && *r.Message != "" {
		c.messages = append(c.messages, h.name+": "+*r.Message)
	}
}

// modify replaces the params with those of a hook's modify (see keep).
func (c chainRun[P]) modify(r *Runtime, next P) chainRun[P] {
	c.params = keep(r, c.origin, next, c.params)
	return c
}

// runChain asks the hooks of a stage, in order, and decides.
func runChain[I, P, R any](r *Runtime, ctx context.Context, st *stage[I, P, R], params P) (P, Decision) {
	if r != nil && r.host().Calls != nil && !r.host().Calls(st.Stage.Method(), params) {
		return params, pass // a call this host never makes
	}
	params = asWritten(r, st.Stage.Method(), params)
	c := chainRun[P]{params: params, decision: pass, origin: st.origin}
	var skipped []string
	for _, h := range r.chain(st.Stage) {
		res, skip, stop := invoke(r, ctx, h, st, c.params)
		if stop != nil {
			return c.decided(*stop, skipped)
		}
		if skip != "" {
			skipped = append(skipped, skip)
			continue
		}
		if !r.host().NoExtensions { // a host without extensions ignores remarks
			c.remarked(h, res)
		}
		var end *Decision
		if c, end = st.take(r, h, c, res); end != nil {
			return c.decided(*end, skipped)
		}
	}
	if st.finish != nil {
		return c.decided(st.finish(r, c), skipped)
	}
	return c.decided(c.decision, skipped)
}

// takeModify is the take of a stage whose one answer of its own is a
// modify, which modified reads: the others continue or end the chain.
func takeModify[P any, R protocol.Variant](modified func(R) (P, bool)) func(*Runtime, *hook, chainRun[P], R) (chainRun[P], *Decision) {
	return func(r *Runtime, h *hook, c chainRun[P], res R) (chainRun[P], *Decision) {
		if next, ok := modified(res); ok {
			return c.modify(r, next), nil
		}
		return c, r.ends(h, res)
	}
}

// ends is the decision of an answer that ends the chain at any stage that
// allows it: abort_turn, hard_abort or deny_tool; nil for any other.
func (r *Runtime) ends(h *hook, res protocol.Variant) *Decision {
	switch v := res.(type) {
	case protocol.AbortTurn:
		return r.endedAt(h, v.Action, v.Reason)
	case protocol.HardAbort:
		return r.endedAt(h, v.Action, v.Reason)
	case protocol.DenyTool:
		return &Decision{Action: v.Action, Hook: h.name, Reason: v.Reason}
	}
	return nil
}

// endedAt is ended, for a chain that stops.
func (r *Runtime) endedAt(h *hook, a protocol.Action, reason *string) *Decision {
	d := r.ended(h, a, reason)
	return &d
}

// invoke makes one call to one hook under its deadline and records it. A
// failed call is logged; under a closed policy it returns the decision that
// ends the chain, under an open one skip says what went wrong and the hook
// is skipped.
func invoke[I, P, R any](r *Runtime, ctx context.Context, h *hook, st *stage[I, P, R], params P) (res R, skip string, stop *Decision) {
	s := st.Stage
	if gone := gaveUp(ctx); gone != nil {
		return res, "", gone
	}
	d := r.deadline(h, s)
	start := time.Now()
	res, notes, err := callHook(r, ctx, start.Add(d), h, st, params)
	took := time.Since(start)
	switch {
	case err == nil && any(res) == nil:
		err = errors.New("the hook returned no result")
	case err == context.DeadlineExceeded && ctx.Err() == nil:
		// Worded here, not up front, to keep the path of a call that
		// succeeds free of allocations it does not need.
		err = wire.NoReply(d)
	}
	rec := CallRecord{Hook: h.name, Method: s.Method(), Params: params, Duration: took}
	gone := gaveUp(ctx)
	switch {
	case err != nil && gone != nil:
		// The caller gave up, the hook did not fail: no policy applies, and
		// above all not an open one, which would let the agent go on
		// without this hook's word.
		rec.Err = fmt.Errorf("%s: %w", gone.Reason, err)
	case err != nil:
		rec.Err = err
		rec.Policy = h.policyFor(s)
	default:
		rec.Result = res
		if acts := r.host().Acts; acts != nil {
			read, more := acts(st.Method(), params, res)
			res, notes = read.(R), append(notes, more...)
		}
		rec.Discarded = notes
	}
	if r.opts.OnCall != nil {
		r.opts.OnCall(rec)
	}
	if err == nil {
		return res, "", nil
	}
	if gone != nil {
		return res, "", gone
	}
	r.logger().Warn("hook call failed", "hook", h.name, "method", s.Method(), "error", err, "policy", "fail "+string(rec.Policy))
	why := fmt.Sprintf("hook %s failed: %v", h.name, err)
	if rec.Policy == FailOpen {
		return res, why, nil
	}
	return res, "", &Decision{Action: cmp.Or(st.failure, protocol.ActionAbortTurn), Hook: h.name, Reason: why, Failed: true}
}

// callHook makes the call. A process hook's reply is read as the host
// reads it (host.Reads; notes say what it made of it), and, when the host
// is deaf after a long line (host.LongLineDeafens), a reply line over its
// limit stops the hook's reader for good: that call and every later one to
// the hook get no reply, until their deadlines.
func callHook[I, P, R any](r *Runtime, ctx context.Context, deadline time.Time, h *hook, st *stage[I, P, R], params P) (R, []string, error) {
	var res R
	hst := r.host()
	if h.proc == nil || (hst.Reads == nil && !hst.LongLineDeafens) {
		res, err := st.call(r, ctx, deadline, h, params)
		return res, nil, err
	}
	var long *LineTooLongError
	if !h.deaf.Load() {
		raw, err := h.proc.call(ctx, deadline, st.Method(), &params)
		if !errors.As(err, &long) || !hst.LongLineDeafens {
			var notes []string
			if err == nil && hst.Reads != nil {
				raw, notes = hst.Reads(st.Method(), raw)
			}
			if err == nil {
				if res, err = decodeAs[R](st.Method(), raw); err == nil && st.check != nil {
					err = st.check(r, h, params, res)
				}
			}
			return res, notes, err
		}
		h.deaf.Store(true)
		r.logger().Warn("a reply line is over the longest the host reads: its reader of the hook stops for good", "hook", h.name, "size", long.Size, "limit", r.maxLineSize(), "host", hst.Name)
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	<-ctx.Done()
	return res, nil, ctx.Err()
}

// gaveUp is the decision of a stage whose caller has given up (its context
// is done), or nil while the caller still waits.
func gaveUp(ctx context.Context) *Decision {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	return &Decision{Action: protocol.ActionAbortTurn, Canceled: true, Reason: "the caller gave up: " + context.Cause(ctx).Error()}
}

func (r *Runtime) ended(h *hook, a protocol.Action, reason *string) Decision {
	d := Decision{Action: a, Hook: h.name}
	if reason != nil {
		if pass := r.host().PassesReason; pass == nil || pass(a) {
			d.Reason = *reason
		}
	}
	return d
}

var pass = Decision{Action: protocol.ActionContinue}

// noteInjected records the tools a hook's before_llm modify added.
func (r *Runtime) noteInjected(hook string, before, after []protocol.ToolDefinition) {
	r.injectedMu.Lock()
	defer r.injectedMu.Unlock()
	for _, t := range after {
		name := t.Function.Name
		if slices.ContainsFunc(before, func(b protocol.ToolDefinition) bool { return b.Function.Name == name }) {
			continue
		}
		if r.injected == nil {
			r.injected = map[string]map[string]bool{}
		}
		if r.injected[hook] == nil {
			r.injected[hook] = map[string]bool{}
		}
		r.injected[hook][name] = true
	}
}

// mayRespond reports whether a hook may answer a call of the tool with
// respond: always, unless hooks.defaults.respond is own_tools; then only
// for a tool the hook itself added in before_llm.
func (r *Runtime) mayRespond(hook, tool string) bool {
	if r.defaults.Respond != RespondOwnTools {
		return true
	}
	r.injectedMu.Lock()
	defer r.injectedMu.Unlock()
	return r.injected[hook][tool]
}

// errRespondNotOwnTool is the failure of a respond that
// hooks.defaults.respond does not allow (see mayRespond).
func errRespondNotOwnTool(tool string) error {
	return fmt.Errorf("respond is not allowed for tool %s: the hook did not add it in before_llm (hooks.defaults.respond is %s)", tool, RespondOwnTools)
}

// errApprovedAndAbstained is the failure of an approver that says yes and
// "no opinion" at once: neither reading is safe to pick.
var errApprovedAndAbstained = errors.New(`the approver answered "approved": true and "abstain": true; an abstention must say "approved": false`)

func (r *Runtime) approvalDefault() Decision {
	d := Decision{Action: protocol.ActionDenyTool, ByDefault: true, Reason: "every approver abstained; hooks.defaults.approval is deny"}
	if r.defaults.Approval == ApprovalAllow {
		d.Action, d.Reason = protocol.ActionContinue, "every approver abstained; hooks.defaults.approval is allow"
	}
	return d
}

func isTrue(b *bool) bool { return b != nil && *b }

// A modify replaces the object whole, as the documents require. The fields
// that say where a call comes from (meta, context, channel, chat_id) are
// the host's, not the hook's: when a reply leaves them out, as the
// documents' own examples do, they are kept.

// origin points at the fields of a params object that say where its call
// comes from.
type origin struct {
	meta    **protocol.Meta
	context **protocol.TurnContext
	channel **string
	chatID  **string
}

// keep keeps the origin of prev in next where next leaves it out, except
// under a host that replaces the object whole (host.ReplacesWhole): a
// reply without meta leaves the next hook an empty one.
func keep[P any](r *Runtime, of func(*P) origin, next, prev P) P {
	if r.host().ReplacesWhole || of == nil {
		return next
	}
	n, p := of(&next), of(&prev)
	*n.meta = cmp.Or(*n.meta, *p.meta)
	*n.context = cmp.Or(*n.context, *p.context)
	*n.channel = cmp.Or(*n.channel, *p.channel)
	*n.chatID = cmp.Or(*n.chatID, *p.chatID)
	return next
}
