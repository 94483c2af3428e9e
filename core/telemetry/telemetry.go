// Package telemetry exports what a host's hooks do over OTLP, with the
// official OpenTelemetry Go SDK, when the standard OTEL_EXPORTER_OTLP_*
// variables say where: a trace of each session (its turns, the tools
// called in them and each hook call), metrics of the calls (counts,
// decisions, failures, latency by hook, method and agent) and each call's
// audit record as a log record. With no endpoint set, FromEnv returns nil
// and nothing is attached: the runtime runs as it would without.
//
// An Exporter is attached to the runtime's options (Attach) as the audit
// log and the inspector's feed are: a call costs its caller a copy into a
// queue; one goroutine makes the spans, metrics and log records from it,
// and the SDK's batching exporters send them.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/log"
	lognoop "go.opentelemetry.io/otel/log/noop"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/telemetry/otlpenv"
)

// scope names this package as the instrumentation scope of what it exports.
const scope = "github.com/hookwire/hookwire/core/telemetry"

// CloseTimeout bounds Close: what the exporters have not sent by then is
// dropped, so that a receiver that is down never holds a host up.
const CloseTimeout = 5 * time.Second

// maxQueue bounds the items waiting for the exporter's goroutine: past it,
// an item is dropped and counted, and the hook call goes on.
const maxQueue = 8192

// Exporter sends the traces, metrics and log records of the runtimes it
// is attached to. Close it after the runtimes' Close, so that their last
// calls are sent too.
type Exporter struct {
	log       *slog.Logger
	providers []provider // the SDK's, each shut down by Close
	tracer    trace.Tracer
	logger    log.Logger
	meters    instruments

	mu      sync.Mutex
	queue   []item
	closed  bool
	dropped uint64
	wake    chan struct{}
	done    chan struct{}

	sessions map[sessionKey]*sessionSpans // the worker's alone
}

type provider interface {
	ForceFlush(context.Context) error
	Shutdown(context.Context) error
}

// item is one thing a runtime told the exporter: a hook call or an event,
// when it ended, and who the runtime serves.
type item struct {
	src   audit.Source
	at    time.Time
	call  runtime.CallRecord
	event *protocol.RuntimeEvent
}

// FromEnv is the exporter the environment asks for (see package otlpenv):
// nil when no OTLP endpoint is set, when OTEL_SDK_DISABLED is true, or
// when the exporter cannot be made, which is logged. A host runs its hooks
// either way: telemetry watches decisions, it does not make them.
func FromEnv(log *slog.Logger) *Exporter {
	if log == nil {
		log = slog.Default()
	}
	signals := otlpenv.Wanted()
	if len(signals) == 0 {
		return nil
	}
	e, err := New(context.Background(), log, signals)
	if err != nil {
		log.Warn("no OpenTelemetry export: "+err.Error(), "fix", "unset OTEL_EXPORTER_OTLP_ENDPOINT, or correct the OTEL_* variables (docs/telemetry.md)")
		return nil
	}
	return e
}

// New makes an exporter of the signals given, configured by the standard
// OTEL_* variables (endpoint, headers, timeout, compression, certificates,
// the batching and the metrics' interval, the service's name and the
// resource's attributes). Only http/protobuf is spoken: a signal whose
// protocol is set to another is an error.
func New(ctx context.Context, logger *slog.Logger, signals []otlpenv.Signal) (*Exporter, error) {
	for _, s := range signals {
		if p := s.Protocol(); p != otlpenv.HTTPProtobuf {
			return nil, fmt.Errorf("the OTLP protocol of %s is %q, and hookwire exports with %s only: set OTEL_EXPORTER_OTLP_PROTOCOL=%s and the receiver's OTLP/HTTP endpoint (port 4318, not gRPC's 4317)", s, p, otlpenv.HTTPProtobuf, otlpenv.HTTPProtobuf)
		}
		if x := s.Exporter(); x != "otlp" {
			return nil, fmt.Errorf("OTEL_%s_EXPORTER is %q: hookwire exports with otlp only (or none)", strings.ToUpper(string(s)), x)
		}
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceNameKey.String("hookwire")),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
		resource.WithTelemetrySDK())
	if err != nil {
		return nil, err
	}
	e := &Exporter{log: logger, wake: make(chan struct{}, 1), done: make(chan struct{}), sessions: map[sessionKey]*sessionSpans{},
		tracer: tracenoop.NewTracerProvider().Tracer(scope), logger: lognoop.NewLoggerProvider().Logger(scope)}
	meter := metricnoop.NewMeterProvider().Meter(scope)
	otel.SetErrorHandler(errorsTo(logger))
	for _, s := range signals {
		switch s {
		case otlpenv.Traces:
			exp, err := otlptracehttp.New(ctx)
			if err != nil {
				return nil, e.undo(err)
			}
			tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
			e.providers, e.tracer = append(e.providers, tp), tp.Tracer(scope)
		case otlpenv.Metrics:
			exp, err := otlpmetrichttp.New(ctx)
			if err != nil {
				return nil, e.undo(err)
			}
			mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
			e.providers, meter = append(e.providers, mp), mp.Meter(scope)
		case otlpenv.Logs:
			exp, err := otlploghttp.New(ctx)
			if err != nil {
				return nil, e.undo(err)
			}
			lp := sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewBatchProcessor(exp)), sdklog.WithResource(res))
			e.providers, e.logger = append(e.providers, lp), lp.Logger(scope)
		}
	}
	if e.meters, err = newInstruments(meter); err != nil {
		return nil, e.undo(err)
	}
	go e.run()
	return e, nil
}

// undo shuts down the providers made so far, for an error of New.
func (e *Exporter) undo(err error) error {
	for _, p := range e.providers {
		p.Shutdown(context.Background())
	}
	return err
}

// Attach makes a runtime tell the exporter of each hook call (OnCall) and
// each event (OnEvent) it raises; src names the host, and the agent and
// session where the host serves one.
func (e *Exporter) Attach(opts *runtime.Options, src audit.Source) {
	if e == nil {
		return
	}
	call := func(c runtime.CallRecord) { e.push(item{src: src, at: time.Now(), call: c}) }
	if prev := opts.OnCall; prev != nil {
		opts.OnCall = func(c runtime.CallRecord) { prev(c); call(c) }
	} else {
		opts.OnCall = call
	}
	event := func(ev protocol.RuntimeEvent) { e.push(item{src: src, at: time.Now(), event: &ev}) }
	if prev := opts.OnEvent; prev != nil {
		opts.OnEvent = func(ev protocol.RuntimeEvent) { prev(ev); event(ev) }
	} else {
		opts.OnEvent = event
	}
}

// drainEvery is how often the worker takes what is queued. A wake for
// each call would cost each call a switch to the worker, on the cores the
// hooks run on; the items keep their own times, and the SDK batches what
// it sends anyway.
const drainEvery = 50 * time.Millisecond

// push queues it for the worker, waking it early only when the queue is
// half full; a full queue drops it.
func (e *Exporter) push(it item) {
	e.mu.Lock()
	if e.closed || len(e.queue) >= maxQueue {
		if !e.closed {
			e.dropped++
		}
		e.mu.Unlock()
		return
	}
	e.queue = append(e.queue, it)
	halfFull := len(e.queue) >= maxQueue/2
	e.mu.Unlock()
	if halfFull {
		select {
		case e.wake <- struct{}{}:
		default:
		}
	}
}

// Close ends the spans still open, sends what is queued and stops, within
// CloseTimeout. It returns what kept the exporters from sending, if
// anything did.
func (e *Exporter) Close() error {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		close(e.wake)
	}
	dropped := e.dropped
	e.mu.Unlock()
	<-e.done
	if dropped > 0 {
		e.log.Warn("telemetry: items dropped while the exporter fell behind", "dropped", dropped)
	}
	ctx, cancel := context.WithTimeout(context.Background(), CloseTimeout)
	defer cancel()
	var errs []error
	for _, p := range e.providers {
		errs = append(errs, p.ForceFlush(ctx), p.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

func (e *Exporter) run() {
	defer close(e.done)
	tick := time.NewTicker(drainEvery)
	defer tick.Stop()
	for open := true; open; {
		select {
		case _, open = <-e.wake:
		case <-tick.C:
		}
		e.drain()
	}
	for key, s := range e.sessions {
		s.end(s.last)
		delete(e.sessions, key)
	}
}

// drain handles every item queued, in order.
func (e *Exporter) drain() {
	e.mu.Lock()
	batch := e.queue
	e.queue = nil
	e.mu.Unlock()
	for i := range batch {
		if batch[i].event != nil {
			e.event(batch[i])
		} else {
			e.call(batch[i])
		}
	}
}

// errorsTo logs the SDK's errors (a receiver that refuses or cannot be
// reached): the first, then at most one a minute, so that a receiver down
// for a long session does not fill its log.
func errorsTo(logger *slog.Logger) otel.ErrorHandler {
	var mu sync.Mutex
	var last time.Time
	var skipped int
	return otel.ErrorHandlerFunc(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if !last.IsZero() && time.Since(last) < time.Minute {
			skipped++
			return
		}
		logger.Warn("telemetry not delivered: "+err.Error(), "errors since the last one logged", skipped)
		last, skipped = time.Now(), 0
	})
}

// instruments are the metrics of hook calls.
type instruments struct {
	calls, decisions, failures metric.Int64Counter
	duration                   metric.Float64Histogram
}

// durationBuckets span a hook call's latency, from an in-process hook's
// tens of microseconds to an approval's minute, in seconds.
var durationBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

func newInstruments(m metric.Meter) (instruments, error) {
	calls, err1 := m.Int64Counter("hookwire.hook.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Hook calls, by hook, method and agent."))
	decisions, err2 := m.Int64Counter("hookwire.hook.decisions", metric.WithUnit("{call}"),
		metric.WithDescription("Hook calls answered, by hook, method, agent and the action answered."))
	failures, err3 := m.Int64Counter("hookwire.hook.failures", metric.WithUnit("{call}"),
		metric.WithDescription("Hook calls that failed (crash, deadline, bad reply), by hook, method, agent and the failure policy applied."))
	duration, err4 := m.Float64Histogram("hookwire.hook.duration", metric.WithUnit("s"),
		metric.WithDescription("How long a hook call took, by hook, method and agent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	return instruments{calls, decisions, failures, duration}, errors.Join(err1, err2, err3, err4)
}

// attrs are the attribute keys hookwire sets, where no semantic
// convention names the thing; the GenAI conventions name the agent
// (gen_ai.agent.name), the session (gen_ai.conversation.id) and the tool
// (gen_ai.tool.name, gen_ai.tool.call.id).
const (
	attrHost          = attribute.Key("hookwire.host")
	attrHook          = attribute.Key("hookwire.hook")
	attrMethod        = attribute.Key("hookwire.method")
	attrTurn          = attribute.Key("hookwire.turn.id")
	attrToolKind      = attribute.Key("hookwire.tool.kind")
	attrAction        = attribute.Key("hookwire.action")
	attrReason        = attribute.Key("hookwire.reason")
	attrFailure       = attribute.Key("hookwire.failure")
	attrFailurePolicy = attribute.Key("hookwire.failure.policy")
	attrDiscarded     = attribute.Key("hookwire.host.discarded")
)
