package conformance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/hookwire/hookwire/core/config"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
)

// hostWarnings says, for this hook, each behaviour of the host of
// Options.Host its replies would meet: tools or system messages changed in
// before_llm (a changed system message restores the whole message list),
// an after_llm modify (id-only tool calls lose their names), respond
// without a result and unknown actions (taken as continue), reasons of
// abort_turn and hard_abort (dropped; hard_abort rolls back), the
// extensions of an approver's results, reply lines longer than it reads,
// and the stages the host sends in pairs with what the hook answers
// there. A hook may do all of this under hookwire's runtime, so these are
// warnings, not failures.
func (s *suite) hostWarnings() []string {
	h := s.opts.Host
	if h == nil || h == host.Reference {
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
	if s.helloTaken != "" {
		warn(s.helloTaken)
	}
	answers := map[string]protocol.Action{} // the first answer to each method
	for _, p := range s.procs {
		p.mu.Lock()
		msgs, sent := p.msgs, p.sent
		p.mu.Unlock()
		for _, m := range msgs {
			if m.id == nil || m.method != "" || (p == s.procs[0] && s.minimal[*m.id]) {
				continue
			}
			method := sent[*m.id]
			if h.StopsReadingAfterLongLine && len(m.raw) > h.MaxLineSize {
				warn(fmt.Sprintf("the reply to %s is a line of %d bytes: %s reads lines of up to %d bytes, and a longer one stops its reader of the hook for good", method, len(m.raw), h.Title, h.MaxLineSize))
			}
			for _, d := range discards(h, method, m.result) {
				warn(fmt.Sprintf("%s: %s", method, d))
			}
			if a := answered(method, m.result); a != "" && answers[method] == "" {
				answers[method] = a
			}
		}
	}
	// The stages the host never calls: what the hook answers there never counts.
	for _, stage := range config.Stages {
		if a := answers["hook."+stage]; a != "" && len(h.Granted([]string{stage})) == 0 {
			warn(fmt.Sprintf("hook.%s: %s never calls it, so this hook's answer there (%s) never counts", stage, h.Title, a))
		}
	}
	// The stages the host grants beside the one a config names.
	for i, first := range config.Stages {
		for _, second := range h.Granted([]string{first}) {
			if slices.Index(config.Stages, second) <= i { // each pair once, in the agent's order
				continue
			}
			a, b := answers["hook."+first], answers["hook."+second]
			if (a != "" && a != protocol.ActionContinue) || (b != "" && b != protocol.ActionContinue) {
				warn(fmt.Sprintf("hook.%s and hook.%s come in a pair: %s sends both to a hook whose config names either; this hook answers %s with %s and %s with %s",
					first, second, h.Title, first, cmp.Or(a, "no valid answer"), second, cmp.Or(b, "no valid answer")))
			}
		}
	}
	return out
}

// discards is what the host would discard of one result to the suite's
// sample params of method.
func discards(h *host.Host, method string, result json.RawMessage) []string {
	info, ok := protocol.Lookup(method)
	if !ok || info.Notification || method == protocol.MethodHello || result == nil {
		return nil
	}
	params := reflect.New(info.Params)
	if err := protocol.Unmarshal(samples()[method], params.Interface()); err != nil {
		panic("conformance: samples.json: " + err.Error())
	}
	return h.Discards(method, params.Elem().Interface(), result)
}

// answered is the action of a hook's answer to method, or "" when it has
// none (replies-valid says why).
func answered(method string, result json.RawMessage) protocol.Action {
	if result == nil {
		return ""
	}
	res, err := protocol.DecodeResult(method, result)
	if err != nil {
		return ""
	}
	if v, ok := res.(protocol.Variant); ok {
		return cmp.Or(v.ResultAction(), protocol.ActionContinue)
	}
	return ""
}
