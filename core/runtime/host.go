package runtime

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
)

// Host is the agent host whose behaviour the runtime reproduces: what it
// does with hooks' replies, how it reads their lines, and which
// configuration it accepts.
type Host string

const (
	// HostReference follows the protocol documents: what a hook returns is
	// applied as the documents say (tools added in before_llm reach the
	// LLM), with hookwire's extensions. It is the default.
	HostReference Host = "reference"
	// HostPicoClaw behaves as PicoClaw's host does (its code as of
	// 2026-06): tools and system messages changed in before_llm are
	// reverted, reply lines over 1 MiB stop the hook's reader for good,
	// reasons are dropped except on deny_tool and approval denials,
	// approvals are read as {approved, reason} only, the hello
	// reply is not read, a crashed hook is never restarted, a partial modify
	// leaves the next hook an empty meta, no session events are sent, and
	// hookwire's extensions are neither announced nor accepted in the
	// configuration.
	HostPicoClaw Host = "picoclaw"
)

// Hosts are the hosts the runtime can reproduce.
var Hosts = []Host{HostReference, HostPicoClaw}

// PicoClawMaxLineSize is the longest reply line PicoClaw reads.
const PicoClawMaxLineSize = 1 << 20

// ParseHost reads a host name; empty means HostReference.
func ParseHost(s string) (Host, error) {
	if s == "" {
		return HostReference, nil
	}
	if h := Host(s); slices.Contains(Hosts, h) {
		return h, nil
	}
	return "", fmt.Errorf("unknown host %q (known: %s, %s)", s, HostReference, HostPicoClaw)
}

func (h Host) picoClaw() bool { return h == HostPicoClaw }

// emits says whether the host sends events of a kind: PicoClaw sends no
// session events (a hookwire extension).
func (h Host) emits(kind string) bool {
	return !h.picoClaw() || (kind != protocol.KindSessionStart && kind != protocol.KindSessionEnd)
}

// reason is the reason of an ended chain as the host passes it on:
// PicoClaw keeps it only on deny_tool (approval denials included) and on
// hard_abort.
func (h Host) reason(a protocol.Action, reason string) string {
	if h.picoClaw() && a != protocol.ActionDenyTool && a != protocol.ActionHardAbort {
		return ""
	}
	return reason
}

// revertToolsAndSystem puts back the tools and the system messages of the
// request a before_llm hook was sent, as PicoClaw does: a hook may change
// the conversation, not what the LLM is told it can do or who it is.
func revertToolsAndSystem(next, prev protocol.BeforeLLMParams) (protocol.BeforeLLMParams, []string) {
	var notes []string
	if !reflect.DeepEqual(toolMap(next.Tools), toolMap(prev.Tools)) {
		notes = append(notes, "tools change"+toolChanges(next.Tools, prev.Tools)+" reverted: PicoClaw lets no hook change the tools offered to the LLM")
		next.Tools = prev.Tools
	}
	if !reflect.DeepEqual(systemMessages(next.Messages), systemMessages(prev.Messages)) {
		notes = append(notes, "system messages change reverted: PicoClaw lets no hook change them")
		next.Messages = withSystemOf(next.Messages, prev.Messages)
	}
	return next, notes
}

// toolMap keys each tool by its name; a second tool of the same name, as a
// hook may add beside one the host offers, is "name (2nd)", and so on.
func toolMap(tools []protocol.ToolDefinition) map[string]string {
	m := map[string]string{}
	seen := map[string]int{}
	for _, t := range tools {
		b, _ := protocol.Marshal(t)
		key := t.Function.Name
		if seen[key]++; seen[key] > 1 {
			key = fmt.Sprintf("%s (%s)", key, ordinal(seen[key]))
		}
		m[key] = string(b)
	}
	return m
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// toolChanges names the tools added, removed and changed: " (added get_weather)".
func toolChanges(next, prev []protocol.ToolDefinition) string {
	a, b := toolMap(next), toolMap(prev)
	var parts []string
	for _, what := range []struct {
		verb string
		keep func(name string) bool
	}{
		{"added", func(n string) bool { _, ok := b[n]; return !ok }},
		{"removed", func(n string) bool { _, ok := a[n]; return !ok }},
		{"changed", func(n string) bool { v, ok := b[n]; return ok && a[n] != "" && v != a[n] }},
	} {
		var names []string
		for _, n := range slices.Sorted(maps.Keys(mergeKeys(a, b))) {
			if what.keep(n) {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			parts = append(parts, what.verb+" "+strings.Join(names, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func mergeKeys(a, b map[string]string) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

func systemMessages(msgs []protocol.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == "system" {
			b, _ := protocol.Marshal(m)
			out = append(out, string(b))
		}
	}
	return out
}

// withSystemOf is msgs with its system messages replaced by those of
// prev, each at the place it had in prev.
func withSystemOf(msgs, prev []protocol.Message) []protocol.Message {
	out := slices.DeleteFunc(slices.Clone(msgs), func(m protocol.Message) bool { return m.Role == "system" })
	for i, m := range prev {
		if m.Role == "system" {
			out = slices.Insert(out, min(i, len(out)), m)
		}
	}
	return out
}

// Discards says what the host would discard of a hook's reply to a stage,
// sent params (CallRecord.Discarded says the same of a call made); nothing
// under HostReference.
func (h Host) Discards(s Stage, params, result any) []string {
	st := stageChains[s]
	if !h.picoClaw() || st == nil {
		return nil
	}
	_, notes := st.readAsPicoClaw(params, result)
	return notes
}

// Writes lists the members of a stage's request that the host writes, in
// its order, "!" marking those it writes even when they are empty; it
// leaves out the others when they are empty. Nil when the host writes
// every member of the params (HostReference).
func (h Host) Writes(s Stage) []string {
	st := stageChains[s]
	if !h.picoClaw() || st == nil {
		return nil
	}
	return st.writesAsPicoClaw()
}
