package install

import (
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// HookCheck is what checking a started hook found: its findings, and the
// modes its hello declared (none when it did not start).
type HookCheck struct {
	Findings []Finding
	Modes    []protocol.Mode
}

// checkEvents compares the events a started hook is named for with those
// its modes need, as install would write them: a guarding event left out
// lets what it guards through unasked (a file written by an older install,
// or by hand), so it is a problem; another is a note.
func (a *Agent) checkEvents(h *Installed, modes []protocol.Mode) []Finding {
	agent := agents.ByName(a.Name)
	if agent == nil || len(modes) == 0 {
		return nil
	}
	var guards, others []string
	for _, event := range Events(agent, modes) {
		switch {
		case slices.Contains(h.Events, event):
		case agent.Events[event].Guard:
			guards = append(guards, event)
		default:
			others = append(others, event)
		}
	}
	var out []Finding
	fix := "run hookwire install " + a.Name + " again with this hook: it adds the events and keeps the rest of the file"
	if len(guards) > 0 {
		out = append(out, problem(fix, "the hook guards tools, but %s does not ask it at %s: what those events guard runs unasked",
			a.Name, strings.Join(guards, ", ")))
	}
	if len(others) > 0 {
		out = append(out, note("the hook's modes also need %s, which this file does not name for it (%s)", strings.Join(others, ", "), fix))
	}
	return out
}
