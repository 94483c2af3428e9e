package telemetry

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/protocol"
)

// A session's trace: a span for the session, one for each turn in it
// (invoke_agent), one for each tool call of a turn (execute_tool, from the
// first hook call about it to the end of the last, its after_tool, or the
// call that kept it from running), and one for each hook call, under its
// tool's span, or its turn's, or the session's. The spans are made when
// what they cover is over, with the times it began and ended: a turn ends
// at the runtime's agent.turn.end, or else when the next turn begins.

type sessionKey struct{ host, session string }

type span struct {
	ctx  context.Context
	span trace.Span
	last time.Time // when the latest call under it ended
}

func (s *span) end(at time.Time) { s.span.End(trace.WithTimestamp(at)) }

type sessionSpans struct {
	span
	agent  string
	turn   *span
	turnID string
	tools  map[string]*span // the turn's tool calls still open, by call id or tool name
}

// facts are what the spans, metrics and log records of a call say of it.
type facts struct {
	host, agent, session, turn string
	tool, toolCallID, toolKind string
}

// session is the session's spans, begun at start if new.
func (e *Exporter) session(f facts, start time.Time) *sessionSpans {
	key := sessionKey{f.host, f.session}
	if s := e.sessions[key]; s != nil {
		return s
	}
	attrs := []attribute.KeyValue{attrHost.String(f.host)}
	attrs = appendSet(attrs, semconv.GenAIAgentNameKey, f.agent)
	attrs = appendSet(attrs, semconv.GenAIConversationIDKey, f.session)
	ctx, sp := e.tracer.Start(context.Background(), "session", trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithNewRoot())
	s := &sessionSpans{span: span{ctx: ctx, span: sp, last: start}, agent: f.agent, tools: map[string]*span{}}
	e.sessions[key] = s
	return s
}

// beginTurn ends the turn under way, if any, and begins one at start.
func (s *sessionSpans) beginTurn(e *Exporter, id string, start time.Time) {
	s.endTurn()
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent}
	attrs = appendSet(attrs, semconv.GenAIAgentNameKey, s.agent)
	attrs = appendSet(attrs, attrTurn, id)
	ctx, sp := e.tracer.Start(s.ctx, spanName("invoke_agent", s.agent), trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	s.turn = &span{ctx: ctx, span: sp, last: start}
	s.turnID = id
}

// endTurn ends the turn under way and its tool calls still open, when its
// last call ended.
func (s *sessionSpans) endTurn() {
	for id, t := range s.tools {
		t.end(t.last)
		delete(s.tools, id)
	}
	if s.turn != nil {
		s.turn.end(s.turn.last)
		s.turn, s.turnID = nil, ""
	}
}

// end ends the session's spans, the session's own at the given time.
func (s *sessionSpans) end(at time.Time) {
	s.endTurn()
	s.span.end(at)
}

// scope is the span a call or tool belongs under: the turn under way, or
// the session.
func (s *sessionSpans) scope() *span {
	if s.turn != nil {
		return s.turn
	}
	return &s.span
}

// call makes the spans, metrics and log record of one hook call.
func (e *Exporter) call(it item) {
	c := it.call
	r := audit.RecordOf(it.src, c)
	r.Clip()
	f := factsOf(it.src, c.Params)
	start := it.at.Add(-c.Duration)

	s := e.session(f, start)
	if f.turn != "" && f.turn != s.turnID {
		s.beginTurn(e, f.turn, start)
	}
	parent := s.scope()
	var tool *span
	if f.tool != "" {
		key := cmp.Or(f.toolCallID, f.tool)
		if tool = s.tools[key]; tool == nil {
			attrs := []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolNameKey.String(f.tool)}
			attrs = appendSet(attrs, semconv.GenAIToolCallIDKey, f.toolCallID)
			attrs = appendSet(attrs, attrToolKind, f.toolKind)
			ctx, sp := e.tracer.Start(parent.ctx, spanName("execute_tool", f.tool), trace.WithTimestamp(start), trace.WithAttributes(attrs...))
			tool = &span{ctx: ctx, span: sp}
			s.tools[key] = tool
		}
		parent = tool
		if ends(c.Method, r) {
			defer func() { tool.end(it.at); delete(s.tools, key) }()
		}
	}

	attrs := callAttrs(f, r)
	ctx, sp := e.tracer.Start(parent.ctx, c.Method+" "+c.Hook, trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithSpanKind(trace.SpanKindClient))
	if r.Error != "" {
		sp.SetStatus(codes.Error, r.Error)
	}
	if len(c.Discarded) > 0 {
		sp.SetAttributes(attrDiscarded.StringSlice(c.Discarded))
	}
	sp.End(trace.WithTimestamp(it.at))
	for _, up := range []*span{tool, s.turn, &s.span} {
		if up != nil {
			up.last = it.at
		}
	}

	e.measure(ctx, f, r, c.Duration)
	e.record(ctx, it.at, r, attrs)
}

// ends is true when the call is the last about its tool call: after_tool,
// or an answer that keeps the tool from running.
func ends(method string, r audit.Record) bool {
	if method == protocol.MethodAfterTool || r.Error != "" && r.Policy != "open" {
		return true
	}
	switch protocol.Action(r.Action) {
	case protocol.ActionDenyTool, protocol.ActionAbortTurn, protocol.ActionHardAbort, protocol.ActionRespond:
		return true
	}
	return r.Action == "denied"
}

// callAttrs are a call's span's attributes, and its log record's.
func callAttrs(f facts, r audit.Record) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 14)
	attrs = append(attrs, attrHost.String(f.host), attrHook.String(r.Hook), attrMethod.String(r.Method))
	attrs = appendSet(attrs, semconv.GenAIAgentNameKey, f.agent)
	attrs = appendSet(attrs, semconv.GenAIConversationIDKey, f.session)
	attrs = appendSet(attrs, attrTurn, f.turn)
	attrs = appendSet(attrs, semconv.GenAIToolNameKey, f.tool)
	attrs = appendSet(attrs, semconv.GenAIToolCallIDKey, f.toolCallID)
	attrs = appendSet(attrs, attrToolKind, f.toolKind)
	attrs = appendSet(attrs, attrAction, r.Action)
	attrs = appendSet(attrs, attrReason, r.Reason)
	attrs = appendSet(attrs, attrFailure, r.Error)
	return appendSet(attrs, attrFailurePolicy, r.Policy)
}

func (e *Exporter) measure(ctx context.Context, f facts, r audit.Record, took time.Duration) {
	base := []attribute.KeyValue{attrHook.String(r.Hook), attrMethod.String(r.Method), semconv.GenAIAgentNameKey.String(f.agent)}
	by := metric.WithAttributes(base...)
	e.meters.calls.Add(ctx, 1, by)
	e.meters.duration.Record(ctx, took.Seconds(), by)
	switch {
	case r.Error != "":
		e.meters.failures.Add(ctx, 1, metric.WithAttributes(append(base, attrFailurePolicy.String(r.Policy))...))
	case r.Action != "":
		e.meters.decisions.Add(ctx, 1, metric.WithAttributes(append(base, attrAction.String(r.Action))...))
	}
}

// record sends the call's audit record as a log record, an event named
// hookwire.decision in the call's span.
func (e *Exporter) record(ctx context.Context, at time.Time, r audit.Record, attrs []attribute.KeyValue) {
	var l log.Record
	l.SetEventName("hookwire.decision")
	l.SetTimestamp(at)
	l.SetObservedTimestamp(at)
	l.SetSeverity(log.SeverityInfo)
	body := fmt.Sprintf("%s answered %s with %s", r.Hook, r.Method, r.Action)
	switch {
	case r.Error != "":
		l.SetSeverity(log.SeverityWarn)
		body = fmt.Sprintf("%s failed %s (fail %s): %s", r.Hook, r.Method, r.Policy, r.Error)
	case r.Reason != "":
		body += ": " + r.Reason
	}
	l.SetSeverityText(l.Severity().String())
	l.SetBody(attribute.StringValue(body))
	l.AddAttributes(attrs...)
	l.AddAttributes(attribute.Float64("hookwire.duration_ms", r.MS))
	e.logger.Emit(ctx, l)
}

// event reads a session's and a turn's bounds from the runtime's events.
func (e *Exporter) event(it item) {
	ev := it.event
	f := facts{host: it.src.Host, agent: cmp.Or(it.src.Agent, deref(ev.Scope.AgentID)), session: cmp.Or(deref(ev.Scope.SessionKey), it.src.Session)}
	key := sessionKey{f.host, f.session}
	switch ev.Kind {
	case protocol.KindSessionStart:
		e.session(f, it.at)
	case protocol.KindSessionEnd:
		if s := e.sessions[key]; s != nil {
			s.end(it.at)
			delete(e.sessions, key)
		}
	case protocol.KindTurnStart:
		e.session(f, it.at).beginTurn(e, deref(ev.Scope.TurnID), it.at)
	case protocol.KindTurnEnd:
		if s := e.sessions[key]; s != nil && s.turn != nil {
			s.turn.last = it.at
			s.endTurn()
		}
	}
}

// factsOf reads who and what a call is about from its params.
func factsOf(src audit.Source, params any) facts {
	f := facts{host: src.Host, agent: src.Agent, session: src.Session}
	var meta *protocol.Meta
	var canonical *protocol.CanonicalTool
	var callID *string
	switch p := params.(type) {
	case protocol.BeforeLLMParams:
		meta = p.Meta
	case protocol.AfterLLMParams:
		meta = p.Meta
	case protocol.BeforeToolParams:
		meta, f.tool, callID, canonical = p.Meta, p.Tool, p.ToolCallID, p.Canonical
	case protocol.AfterToolParams:
		meta, f.tool, callID, canonical = p.Meta, p.Tool, p.ToolCallID, p.Canonical
	case protocol.ApproveToolParams:
		meta, f.tool, callID, canonical = p.Meta, p.Tool, p.ToolCallID, p.Canonical
	}
	f.toolCallID = deref(callID)
	if canonical != nil {
		f.toolKind = canonical.Kind
	}
	if meta != nil {
		f.agent = cmp.Or(f.agent, deref(meta.AgentID))
		f.session = cmp.Or(deref(meta.SessionKey), f.session)
		f.turn = deref(meta.TurnID)
	}
	return f
}

// appendSet appends key=value unless value is empty: an attribute that
// says nothing is left out.
func appendSet(attrs []attribute.KeyValue, key attribute.Key, value string) []attribute.KeyValue {
	if value == "" {
		return attrs
	}
	return append(attrs, key.String(value))
}

// spanName is "operation name", or the operation alone without a name, as
// the GenAI conventions name their spans.
func spanName(operation, name string) string {
	if name == "" {
		return operation
	}
	return operation + " " + name
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
