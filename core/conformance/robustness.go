package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// The checks of how a hook copes with what a host may do besides asking
// its methods: an unknown method, many requests at once, its stdin closed,
// lines that are not JSON.

func (s *suite) unknownMethod(ctx context.Context, p *proc) {
	m, err := p.call(ctx, noSuchMethod, json.RawMessage(`{}`))
	switch {
	case err != nil:
		s.fail(UnknownMethod, "%s got no answer: %v", noSuchMethod, err)
		return
	case m.err == nil:
		s.fail(UnknownMethod, "%s was answered with a result, not error -32601: %s", noSuchMethod, m)
		return
	case m.err.Code != protocol.CodeMethodNotFound:
		s.fail(UnknownMethod, "%s was answered with error %d, not -32601: %s", noSuchMethod, m.err.Code, m.err.Message)
		return
	}
	if _, err := p.call(ctx, protocol.MethodHello, s.hello()); err != nil {
		s.fail(UnknownMethod, "after an unknown method, hook.hello got no answer: %v", err)
		return
	}
	s.pass(UnknownMethod, "error -32601 (%s), then the next request was answered", m.err.Message)
}

func (s *suite) concurrent(ctx context.Context, p *proc) {
	const n = 50
	methods := s.requestMethods()
	if len(methods) == 0 {
		methods = []string{protocol.MethodHello}
	}
	var lines []byte
	ids := map[uint64]int{} // replies per id sent
	for i := range n {
		method := methods[i%len(methods)]
		line, id := p.request(method, s.params(method))
		lines = append(lines, line...)
		ids[id] = 0
	}
	mark := p.mark()
	if err := p.write(lines); err != nil {
		s.fail(Concurrent50, "sending %d requests: %v", n, err)
		return
	}
	answered := 0
	var foreign []string
	count := func(m message) {
		if m.method != "" {
			return
		}
		if m.id != nil {
			if c, ok := ids[*m.id]; ok {
				if c == 0 {
					answered++
				}
				ids[*m.id] = c + 1
				return
			}
		}
		foreign = append(foreign, idString(m))
	}
	deadline := time.Now().Add(s.opts.Timeout)
	seen := mark
	var waitErr error
	for answered < n && waitErr == nil {
		_, waitErr = p.await(ctx, seen, deadline, func(message) bool { return true })
		for _, m := range p.since(seen) {
			count(m)
			seen++
		}
	}
	// Duplicates may trail the last new id.
	time.Sleep(quiet)
	for _, m := range p.since(seen) {
		count(m)
	}

	var missing, twice []string
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		switch c := ids[id]; {
		case c == 0:
			missing = append(missing, strconv.FormatUint(id, 10))
		case c > 1:
			twice = append(twice, fmt.Sprintf("%d (%d times)", id, c))
		}
	}
	var faults []string
	if len(missing) > 0 {
		fault := fmt.Sprintf("%d of %d requests got no reply (ids %s)", len(missing), n, list(missing))
		if waitErr != nil {
			fault += ": " + waitErr.Error()
		}
		faults = append(faults, fault)
	}
	if len(twice) > 0 {
		faults = append(faults, "ids answered more than once: "+list(twice))
	}
	if len(foreign) > 0 {
		faults = append(faults, "replies with ids that were not sent: "+list(foreign))
	}
	if len(faults) > 0 {
		s.fail(Concurrent50, "%s", strings.Join(faults, "; "))
		return
	}
	s.pass(Concurrent50, "%d requests (%s) sent at once, each answered once with its own id", n, strings.Join(methods, ", "))
}

func (s *suite) exitOnEOF(p *proc) {
	select {
	case <-p.Exited():
		s.fail(ExitOnEOF, "the hook had stopped before its stdin was closed: %s", p.describeExit())
		return
	default:
	}
	exited, took := p.closeStdin(ExitTimeout)
	switch {
	case !exited:
		s.fail(ExitOnEOF, "the hook was still running %v after its stdin was closed", ExitTimeout)
	case !p.Success():
		s.fail(ExitOnEOF, "%s, %d ms after its stdin was closed; a clean end is status 0", p.describeExit(), took.Milliseconds())
	default:
		s.pass(ExitOnEOF, "status 0, %d ms after its stdin was closed", took.Milliseconds())
	}
}

// malformedLines are lines that are not JSON: plain text, and a request cut short.
var malformedLines = []string{
	"this line is not JSON",
	`{"jsonrpc":"2.0","id":99,"method":"hook.before_tool","params":{"tool":"exec","argu`,
}

// malformed runs in a process of its own: a hook that dies of a bad line
// must fail this check and no other.
func (s *suite) malformed(ctx context.Context) {
	p, err := s.start()
	if err != nil {
		s.fail(MalformedLine, "a second run of the hook did not start: %v", err)
		return
	}
	defer p.stop()
	s.during(p, 0, MalformedLine, func() { s.malformedLines(ctx, p) })
}

func (s *suite) malformedLines(ctx context.Context, p *proc) {
	if _, err := p.call(ctx, protocol.MethodHello, s.hello()); err != nil {
		s.fail(MalformedLine, "a second run of the hook did not answer hook.hello: %v", err)
		return
	}
	mark := p.mark()
	for _, line := range malformedLines {
		if err := p.write([]byte(line + "\n")); err != nil {
			s.fail(MalformedLine, "after the line %q: %v", line, err)
			return
		}
	}
	next, err := p.call(ctx, protocol.MethodHello, s.hello())
	if err != nil {
		s.fail(MalformedLine, "after %d lines that are not JSON, hook.hello got no answer: %v", len(malformedLines), err)
		return
	}
	var codes []string
	for _, m := range p.since(mark) {
		if m.id != nil && *m.id == *next.id {
			continue
		}
		if m.err == nil || m.err.Code != protocol.CodeParseError {
			s.fail(MalformedLine, "a line that is not JSON must get error -32700 or no reply, not %s", m)
			return
		}
		codes = append(codes, "-32700")
	}
	how := "no reply"
	if len(codes) > 0 {
		how = "error " + list(codes)
	}
	s.pass(MalformedLine, "%d lines that are not JSON got %s, then the next request was answered", len(malformedLines), how)
}
