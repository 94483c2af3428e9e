package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// hostWarnings says what the host of Options.Host would discard of the
// hook's replies: tools or system messages changed in before_llm, the
// extensions of an approver's results, reply lines longer than it reads.
// A hook may do all of this under hookwire's runtime, so these are
// warnings, not failures.
func (s *suite) hostWarnings() []string {
	if s.opts.Host != runtime.HostPicoClaw {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	warn := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, p := range s.procs {
		p.mu.Lock()
		msgs, sent := p.msgs, p.sent
		p.mu.Unlock()
		for _, m := range msgs {
			if m.id == nil || m.method != "" {
				continue
			}
			method := sent[*m.id]
			if len(m.raw) > runtime.PicoClawMaxLineSize {
				warn(fmt.Sprintf("the reply to %s is a line of %d bytes: PicoClaw reads lines of up to 1 MiB, and a longer one stops its reader of the hook for good", method, len(m.raw)))
			}
			for _, d := range discards(method, m.result) {
				warn(fmt.Sprintf("%s: %s", method, d))
			}
		}
	}
	return out
}

// discards is what PicoClaw would discard of one result to the suite's
// sample params of method.
func discards(method string, result json.RawMessage) []string {
	info, ok := protocol.Lookup(method)
	if !ok || info.Notification || method == protocol.MethodHello || result == nil {
		return nil
	}
	res, err := protocol.DecodeResult(method, result)
	if err != nil {
		return nil // replies-valid says why
	}
	params := reflect.New(info.Params)
	if err := protocol.Unmarshal(samples()[method], params.Interface()); err != nil {
		panic("conformance: samples.json: " + err.Error())
	}
	return runtime.HostPicoClaw.Discards(runtime.Stage(strings.TrimPrefix(method, "hook.")), params.Elem().Interface(), res)
}
