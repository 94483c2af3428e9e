package bridge

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/bridge/session"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/telemetry/otlpenv"
)

// DefaultIdle is how long a session's server waits for the next event
// before it stops, for an agent that sets none (agents.DefaultIdle).
const DefaultIdle = agents.DefaultIdle

// ServeOptions say how a session's server runs.
type ServeOptions struct {
	Agent *Agent
	// Name names the hook in the runtime, its log and the messages the
	// user sees; empty: NameOf the command.
	Name string
	// Socket is the Unix socket the server listens on.
	Socket string
	// Log is the session's log, which messages about a failure name;
	// empty: the socket's path with .log for .sock.
	Log string
	// Process is the hook: command, dir, env, deadline, restart.
	Process runtime.ProcessConfig
	// Intercept, when set, are the stages asked of a hook that declares
	// no modes in hook.hello; a hook that declares modes is asked the stages
	// of those modes.
	Intercept []Stage
	// Idle is how long the server waits for an event; zero means the
	// agent's (Agent.Idle, else DefaultIdle).
	Idle time.Duration
	// Logger receives the server's log and the hook's stderr.
	Logger *slog.Logger
	// FailOpen gives the events that guard a tool no decision when a call
	// to the hook fails (the agent's own permission rules decide); by
	// default they are blocked.
	FailOpen bool
	// Deadline is the invocations' deadline: no approval waits longer.
	// Zero means the agent's Deadline.
	Deadline time.Duration
	// Observe, when set, attaches what else watches the session's hook
	// calls (`hookwire bridge` exports them over OTLP); it returns what
	// stops it, which runs after the runtime's Close.
	Observe Observer
}

// Observer attaches to a session's runtime an observer of its hook calls,
// such as the OpenTelemetry exporter that `hookwire bridge` links and
// hookwire-bridge, which must start fast, does not; src names the session.
type Observer func(opts *runtime.Options, src audit.Source) (stop func())

// server is a session's server: one hook, asked for every event.
type server struct {
	opts    ServeOptions
	rt      *runtime.Runtime
	log     *slog.Logger
	tail    *stderrTail
	pub     *feed.Session // the inspector's, while one listens
	started chan struct{}
	err     error // why the hook did not start, set before started closes
	events  chan struct{}
	end     chan struct{}
	endOnce sync.Once

	mu       sync.Mutex
	modes    []protocol.Mode        // as the hook last declared them
	told     map[string]bool        // what the user has been told this session
	later    []string               // context that waits for the end of the turn (Step.ContextLater)
	aborted  *abort                 // the turn a hook aborted, until the next (abort.go)
	turns    bool                   // an event that ends a turn (Step.NewTurn) came
	asking   map[chan struct{}]bool // the guard events being asked, each closed when decided
	deadline time.Duration          // the invocations' deadline
}

// Serve runs a session's server until the session ends, the idle time
// passes with no event, the hook is down for good, or ctx ends. It stops
// the hook before it returns.
func Serve(ctx context.Context, opts ServeOptions) error {
	if opts.Idle <= 0 {
		opts.Idle = opts.Agent.IdleTime()
	}
	opts.Log = cmp.Or(opts.Log, strings.TrimSuffix(opts.Socket, ".sock")+".log")
	s, closeRuntime, err := open(ctx, opts)
	if err != nil {
		return err
	}
	defer closeRuntime()
	ln, err := session.Listen(opts.Socket, s.log)
	if err != nil {
		return err
	}
	go ln.Accept(s.serve)
	defer func() {
		ln.Close()
		if ctx.Err() == nil {
			// The events being answered get their answers, the hook's
			// failure named, rather than a connection cut by our exit:
			// each ends within the invocations' deadline.
			ln.Finish(s.deadline)
		}
	}()
	idle := time.NewTimer(opts.Idle)
	down := time.NewTicker(500 * time.Millisecond)
	defer down.Stop()
	for {
		select {
		case <-s.events:
			idle.Reset(opts.Idle)
		case <-idle.C:
			s.log.Info("no event for the idle time: stopping", "idle", opts.Idle)
			return nil
		case <-s.end:
			return nil
		case <-down.C:
			if err := s.down(); err != nil {
				return err
			}
		case <-ctx.Done():
			return nil
		}
	}
}

// open starts the session's hook, through the runtime, behind a server
// that answers its events; close stops the hook and what observes it.
func open(ctx context.Context, opts ServeOptions) (s *server, close func(), err error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	opts.Name = cmp.Or(opts.Name, NameOf(opts.Process.Command))
	var closers []func() // run last to first
	close = func() {
		for _, c := range slices.Backward(closers) {
			c()
		}
	}
	defer func() {
		if err != nil {
			close()
		}
	}()
	// The hook's last words on stderr explain a failure best: they go into
	// the message the user sees, as well as into the log.
	tail := &stderrTail{}
	pub := feed.Open(feed.Info{Kind: "bridge", Host: opts.Agent.Name, Command: strings.Join(opts.Process.Command, " "), Log: opts.Log})
	closers = append(closers, pub.Close)
	log = slog.New(pub.Logger(tail.wrap(log.Handler())))
	proc := opts.Process
	proc.Enabled = true
	// The hello grants the modes of the stages this agent's events call, and
	// no other: a hook is not told to expect calls that never come.
	for _, st := range Stages {
		if opts.Agent.Calls(st) {
			proc.Intercept = append(proc.Intercept, string(st))
		}
	}
	proc.Observe = []string{"*"}
	// A guard fails closed: a failed before_tool call blocks the tool as a
	// failed approval does, instead of letting it run.
	policy := string(runtime.FailClosed)
	if opts.FailOpen {
		policy = string(runtime.FailOpen)
	}
	proc.FailurePolicy = map[string]string{string(BeforeTool): policy, string(Approval): policy}
	deadline := cmp.Or(opts.Deadline, opts.Agent.EventDeadline())
	// An approval ends before the invocation that waits for it.
	defaults := runtime.DefaultsConfig{ApprovalTimeoutMS: int(min(runtime.DefaultApprovalTimeout, deadline*9/10).Milliseconds())}
	rtOpts := runtime.Options{Logger: log, NoSessionEvents: false, OnCall: pub.Call, Trace: pub.Wire}
	decisions := audit.FromEnv(log)
	closers = append(closers, func() { decisions.Close() }) // after the runtime's Close
	// The session is named as its log file is.
	src := audit.Source{Host: "hookwire-bridge", Agent: opts.Agent.Name, Session: strings.TrimSuffix(filepath.Base(opts.Log), ".log")}
	decisions.Attach(&rtOpts, src)
	switch {
	case opts.Observe != nil:
		closers = append(closers, opts.Observe(&rtOpts, src)) // stopped after the runtime's Close
	case otlpenv.Set():
		log.Warn("the OTEL_EXPORTER_OTLP_* variables are set, but this program exports no telemetry: install hookwire in the folder of hookwire-bridge, whose sessions then run as hookwire bridge, which does (docs/telemetry.md)")
	}
	rt, err := runtime.New(runtime.Config{Hooks: runtime.HooksConfig{Enabled: true, Defaults: defaults, Processes: map[string]runtime.ProcessConfig{opts.Name: proc}}}, rtOpts)
	if err != nil {
		return nil, close, err
	}
	closers = append(closers, func() { rt.Close() })
	s = &server{opts: opts, rt: rt, log: log, tail: tail, pub: pub, started: make(chan struct{}), events: make(chan struct{}, 1), end: make(chan struct{}), deadline: deadline}
	go s.start(ctx)
	return s, close, nil
}

// down says why the hook is down for good, if it is.
func (s *server) down() error {
	if err := s.rt.Down(s.opts.Name); err != nil {
		return fmt.Errorf("the hook is down for good: %w", err)
	}
	return nil
}

func (s *server) start(ctx context.Context) {
	defer close(s.started)
	if err := s.rt.Start(ctx); err != nil {
		s.err = err
		// Answer the event that started us, then stop.
		time.AfterFunc(time.Second, s.stop)
		return
	}
	if modes, ok := s.rt.Declared(s.opts.Name); ok && len(modes) == 0 && len(s.opts.Intercept) == 0 {
		s.log.Warn("the hook declares no modes in hook.hello: its interceptors are asked, its approver is not (name the stages with --intercept)")
	}
}

// firstTime reports whether the session's user has not been told of key
// yet, and notes that they now are.
func (s *server) firstTime(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.told[key] {
		return false
	}
	if s.told == nil {
		s.told = map[string]bool{}
	}
	s.told[key] = true
	return true
}

func (s *server) stop() { s.endOnce.Do(func() { close(s.end) }) }

// serve answers one invocation: one request line, one reply line.
func (s *server) serve(conn net.Conn) {
	defer conn.Close()
	select {
	case s.events <- struct{}{}:
	default:
	}
	var ev Event
	var reply Reply
	err := session.Answer(conn, func(event json.RawMessage, err error) Reply {
		if err == nil {
			ev, err = s.opts.Agent.Parse(event)
		}
		if err != nil {
			reply = Reply{Exit: 1, Stderr: "hookwire bridge: " + err.Error()}
		} else {
			reply = s.handle(context.Background(), ev)
		}
		return reply
	})
	if err != nil {
		s.log.Warn("a request that cannot be read", "error", err)
		return
	}
	s.pub.Event(ev.Name, map[string]any{"event": ev.Fields, "reply": reply})
	if step := s.opts.Agent.Events[ev.Name]; step.EndsSession {
		s.stop()
	}
}

// handle asks the hook about an event and writes its decision as the agent
// reads it.
func (s *server) handle(ctx context.Context, ev Event) Reply {
	step, ok := s.opts.Agent.Events[ev.Name]
	if !ok || step.NotMapped != "" {
		return Reply{} // an event of a newer agent, or one the protocol has no word for
	}
	<-s.started
	o := outcome{step: step, failOpen: s.opts.FailOpen, firstTime: s.firstTime}
	if s.err != nil {
		o.failure = "hook " + s.opts.Name + " did not start: " + s.err.Error()
		return s.decide(ev, &o)
	}
	if step.NewTurn {
		s.newTurn(ev, step)
	}
	if step.Kind != "" {
		s.rt.Emit(runtimeEvent(s.opts.Agent.Name, step.Kind, ev))
		if len(step.Calls) == 0 {
			return s.decide(ev, &o)
		}
	}
	if a := s.abortOf(ev); a != nil && step.Guard {
		o = s.blockAfter(a, o)
		return s.decide(ev, &o)
	}
	decided := func() {}
	if step.Guard {
		decided = s.asked()
		defer decided()
	}
	stages, up := s.stages()
	if !up && step.Guard {
		o.failure = "hook " + s.opts.Name + " is down"
		if err := s.rt.Down(s.opts.Name); err != nil {
			o.failure += ": " + err.Error()
		}
		return s.decide(ev, &o)
	}
	for _, stage := range step.Calls {
		if !stages[stage] {
			continue
		}
		if s.ask(ctx, ev, stage, &o); o.ended != nil || o.failure != "" {
			break
		}
	}
	if o.aborts() && !step.NewTurn {
		s.remember(ev, o.ended)
	}
	decided()
	if step.Guard && o.ended == nil && o.failure == "" {
		// The agent may ask about the calls of one answer at once (Gemini
		// CLI and others do): a call the hook let go waits for those asked
		// with it, so that an abort of one of them blocks it too.
		s.awaitOthers()
		if a := s.abortOf(ev); a != nil {
			o = s.blockAfter(a, o)
		}
	}
	return s.decide(ev, &o)
}

// decide writes the outcome as the agent reads it. A failure, and a call
// skipped for one, come with a message to the user that quotes the hook's
// stderr and names the session's log, where the rest is.
func (s *server) decide(ev Event, o *outcome) Reply {
	if o.failure == "" && len(o.skipped) == 0 {
		return s.remarks(ev, o, s.opts.Agent.decide(ev, *o))
	}
	s.tail.settle()
	o.stderr = s.tail.last()
	o.log = s.opts.Log
	r := s.opts.Agent.decide(ev, *o)
	if o.failure == "" {
		r = s.remarks(ev, o, withMessage(r, s.opts.Agent.messageKey(), o.problem()))
	}
	return r
}

// remarks adds to a reply what the hooks said besides their decision:
// their messages for the user, and their context for the model where the
// agent reads context at the event (or at the end of the turn, where it
// keeps the turn going); elsewhere the user is told, once an event, that
// the model does not read it.
func (s *server) remarks(ev Event, o *outcome, r Reply) Reply {
	messages, context := o.messages, o.context
	s.mu.Lock()
	switch {
	case o.step.ContextLater != "":
		s.later, context = append(s.later, context...), nil
	case o.step.KeepGoing != "":
		context, s.later = append(s.later, context...), nil
	}
	s.mu.Unlock()
	context = unique(context) // a hook that says the same at each chunk says it once
	active, _ := ev.Fields["stop_hook_active"].(bool)
	switch {
	case len(context) == 0:
	case o.step.KeepGoing != "" && !active:
		r = edited(r, func(out map[string]any) {
			out["decision"], out["reason"] = o.step.KeepGoing, strings.Join(context, "\n\n")
		})
	case o.step.KeepGoing != "":
		if o.once("going on at " + ev.Name) {
			messages = append(messages, fmt.Sprintf("hookwire: hook %s asked %s to go on again after it went on once this turn for a hook: the turn ends here, so that no hook keeps it going forever", s.opts.Name, s.opts.Agent.Title))
		}
	case o.step.Context:
		r = s.opts.Agent.withContext(r, ev, strings.Join(context, "\n\n"))
	case o.once("context at " + ev.Name):
		messages = append(messages, fmt.Sprintf("hookwire: %s reads no context from a hook at %s: the model does not read what hook %s added", s.opts.Agent.Title, ev.Name, s.opts.Name))
	}
	if len(messages) == 0 {
		return r
	}
	return withMessage(r, s.opts.Agent.messageKey(), strings.Join(messages, "\n"))
}

func fromDecision(d runtime.Decision) *decision {
	out := &decision{action: d.Action, hook: d.Hook, reason: d.Reason, byDefault: d.ByDefault}
	if d.Result != nil {
		out.forLLM = d.Result.ForLLM
	}
	return out
}

// runtimeEvent is an observed agent event as a runtime event, with the
// agent's event as its payload.
func runtimeEvent(agent, kind string, ev Event) protocol.RuntimeEvent {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	component := "agent"
	payload, _ := json.Marshal(ev.Fields)
	return protocol.RuntimeEvent{
		Kind:    kind,
		Time:    &now,
		Source:  protocol.EventSource{Component: &component, Name: &agent},
		Scope:   protocol.EventScope{AgentID: &agent, SessionKey: &ev.Session},
		Payload: payload,
	}
}

// unique is texts without repeats, in their order.
func unique(texts []string) []string {
	var out []string
	for _, t := range texts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
