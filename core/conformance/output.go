package conformance

import (
	"fmt"
	"slices"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/schema"
)

// The checks of what a hook writes: every reply valid under the schema,
// nothing on stdout but messages; and how a failure names the messages
// that answered nothing.

func (s *suite) repliesValid(v *schema.Validator) {
	n := 0
	var faults []string
	for _, p := range s.procs {
		p.mu.Lock()
		msgs, sent := slices.Clone(p.msgs), p.sent
		p.mu.Unlock()
		replies := map[uint64]int{}
		for _, m := range msgs {
			if m.method == "" && m.id != nil {
				replies[*m.id]++
			}
		}
		for _, m := range msgs {
			if m.method != "" {
				faults = append(faults, fmt.Sprintf("the hook sent %s, but hooks have no methods to call on their host", m.method))
				continue
			}
			n++
			method := ""
			if m.id != nil && replies[*m.id] == 1 {
				// An id answered twice is concurrent-50's fault: which
				// request each of those replies answers cannot be known.
				method = sent[*m.id]
			}
			var err error
			if method == protocol.MethodHello && m.err == nil && s.helloTaken != "" && s.hostTakesHello(m.result) {
				// Its result is judged by the host that takes it
				// (handshake, and its warning), its envelope here.
				err = v.ValidateDef("Response", m.raw)
			} else if _, known := protocol.Lookup(method); known || m.err != nil {
				err = v.Validate(m.raw, method)
			} else {
				// A reply to a method the protocol does not define, or to no
				// request at all: only its envelope can be judged.
				err = v.ValidateDef("Response", m.raw)
			}
			if err != nil {
				what := "a reply with id " + idString(m)
				if method != "" {
					what = fmt.Sprintf("the reply to %s (id %d)", method, *m.id)
				}
				faults = append(faults, fmt.Sprintf("%s: %v", what, err))
			}
		}
	}
	if len(faults) > 0 {
		more := ""
		if len(faults) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(faults)-1)
		}
		s.fail(RepliesValid, "%s%s", faults[0], more)
		return
	}
	s.pass(RepliesValid, "%d replies, every one valid", n)
}

func (s *suite) stdoutClean() {
	var junk [][]byte
	lines := 0
	for _, p := range s.procs {
		p.mu.Lock()
		junk = append(junk, p.junk...)
		lines += len(p.msgs) + len(p.junk)
		p.mu.Unlock()
	}
	if len(junk) > 0 {
		s.fail(StdoutClean, "%d of %d lines on stdout are not JSON-RPC messages, the first: %q", len(junk), lines, wirefmt.Clip(string(junk[0]), 120))
		return
	}
	s.pass(StdoutClean, "%d lines on stdout, every one a JSON-RPC message", lines)
}

// strays describes the messages that answered nothing, to explain a missing reply.
func strays(p *proc, mark int) string {
	var ids []string
	for _, m := range p.since(mark) {
		ids = append(ids, idString(m))
	}
	if len(ids) == 0 {
		return ""
	}
	return "; it sent replies with ids " + list(ids)
}

func idString(m message) string {
	if m.rawID == "" {
		return "(none)"
	}
	return m.rawID
}
