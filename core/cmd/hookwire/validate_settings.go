// validate's check of an agent's settings file: its hooks section, as the
// agent reads it.

package main

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/internal/cli"
)

// allEvents are the event names of every agent.
func allEvents() []string {
	var out []string
	for _, a := range agents.All {
		out = append(out, slices.Collect(maps.Keys(a.Events))...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// settings checks the hooks section of an agent's settings file: its
// events, and the shape of each (Claude Code's groups of entries, or the
// flat lists of a "version" file), each entry's command and timeout. The
// rest of the file is the agent's business.
func (c *checker) settings(data []byte, root *hujson.Value) []fault {
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return []fault{{root.StartOffset, "want a JSON object"}}
	}
	a := c.agent
	if a == nil {
		a = guessAgent(obj)
	}
	if !a.Comments && !root.IsStandard() {
		return []fault{syntaxFault(data)}
	}
	hooks := member(obj, "hooks")
	if hooks == nil {
		return nil
	}
	section, ok := hooks.Value.(*hujson.Object)
	if !ok {
		return []fault{{nameOffset(obj, "hooks"), "hooks: want an object of " + agents.ByName(a.Name).Title + "'s events"}}
	}
	var faults []fault
	add := func(v *hujson.Value, format string, args ...any) {
		faults = append(faults, fault{v.StartOffset, fmt.Sprintf(format, args...)})
	}
	events := slices.Sorted(maps.Keys(agents.ByName(a.Name).Events))
	for i := range section.Members {
		m := &section.Members[i]
		ev := strValue(&m.Name)
		at := "hooks." + ev
		if !slices.Contains(events, ev) {
			add(&m.Name, "%s: unknown event of %s%s", at, agents.ByName(a.Name).Title, cli.DidYouMean(ev, events))
		}
		list, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			add(&m.Name, "%s: want a list", at)
			continue
		}
		for j := range list.Elements {
			el := &list.Elements[j]
			at := fmt.Sprintf("%s[%d]", at, j)
			if a.Layout.Lists() {
				faults = append(faults, entryFaults(a, el, at)...)
				continue
			}
			group, ok := el.Value.(*hujson.Object)
			if !ok {
				add(el, `%s: want an object: {"matcher": ..., "hooks": [...]}`, at)
				continue
			}
			known := []string{"matcher", "hooks"}
			for k := range group.Members {
				g := &group.Members[k]
				if name := strValue(&g.Name); !slices.Contains(known, name) {
					add(&g.Name, "%s.%s: unknown key%s", at, name, cli.DidYouMean(name, known))
				}
			}
			if v := member(group, "matcher"); v != nil && v.Value.Kind() != '"' {
				faults = append(faults, fault{nameOffset(group, "matcher"), at + ".matcher: want a string"})
			}
			entries := member(group, "hooks")
			if entries == nil {
				add(el, "%s.hooks: required: the list of the group's hooks", at)
				continue
			}
			inner, ok := entries.Value.(*hujson.Array)
			if !ok {
				faults = append(faults, fault{nameOffset(group, "hooks"), at + ".hooks: want a list"})
				continue
			}
			for k := range inner.Elements {
				faults = append(faults, entryFaults(a, &inner.Elements[k], fmt.Sprintf("%s.hooks[%d]", at, k))...)
			}
		}
	}
	return faults
}

// entryFaults checks one hook entry of an agent's settings: a command
// hook names its command, and its timeout is a number.
func entryFaults(a *install.Agent, v *hujson.Value, at string) []fault {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return []fault{{v.StartOffset, at + ": want an object"}}
	}
	var faults []fault
	typ := member(obj, "type")
	if typ != nil && typ.Value.Kind() != '"' {
		faults = append(faults, fault{nameOffset(obj, "type"), at + `.type: want a string, such as "command"`})
	}
	if typ == nil && a.Typed {
		faults = append(faults, fault{v.StartOffset, at + `.type: required: "command" for a command hook`})
	}
	if typ == nil || strValue(typ) == "command" {
		cmd := member(obj, a.Command)
		switch {
		case cmd == nil:
			faults = append(faults, fault{v.StartOffset, fmt.Sprintf("%s.%s: required: the command to run", at, a.Command)})
		case strValue(cmd) == "":
			faults = append(faults, fault{nameOffset(obj, a.Command), fmt.Sprintf("%s.%s: want the command to run, a string", at, a.Command)})
		}
	}
	if a.Timeout.Field != "" {
		if t := member(obj, a.Timeout.Field); t != nil {
			if lit, ok := t.Value.(hujson.Literal); !ok || lit.Kind() != '0' || lit.Float() < 0 {
				faults = append(faults, fault{nameOffset(obj, a.Timeout.Field), fmt.Sprintf("%s.%s: want a number of %s, not negative", at, a.Timeout.Field, unitName(a.Timeout.Unit))})
			}
		}
	}
	return faults
}

func unitName(d time.Duration) string {
	if d == time.Millisecond {
		return "milliseconds"
	}
	return "seconds"
}

// guessAgent is the agent whose settings file this seems to be: of those
// with the file's layout (a "version" member: the flat lists; none: the
// groups, or the lists without a version), the one that knows most of its
// events; the first by name on a tie.
func guessAgent(obj *hujson.Object) *install.Agent {
	versioned := member(obj, "version") != nil
	var events []string
	if hooks := member(obj, "hooks"); hooks == nil {
		return install.Agents["claude-code"] // nothing to tell it by
	} else if section, ok := hooks.Value.(*hujson.Object); ok {
		for i := range section.Members {
			events = append(events, strValue(&section.Members[i].Name))
		}
	}
	var best *install.Agent
	bestKnown := -1
	for _, name := range slices.Sorted(maps.Keys(install.Agents)) {
		a := install.Agents[name]
		if (a.Layout == install.Flat) != versioned || !a.Layout.Entries() { // an agent of hook programs or of a plugin has no hooks settings file
			continue
		}
		known := 0
		for _, ev := range events {
			if _, ok := agents.ByName(name).Events[ev]; ok {
				known++
			}
		}
		if known > bestKnown {
			best, bestKnown = a, known
		}
	}
	return best
}
