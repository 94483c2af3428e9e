package agents

import (
	"slices"
	"strings"
)

// All are the agents, in the order of their names: the one list of them.
// Each agent's file adds its value (add), so that a new agent is its file.
var All []*Agent

// add puts a into All, in the order of the names, and returns it.
func add(a *Agent) *Agent {
	i, _ := slices.BinarySearchFunc(All, a.Name, func(b *Agent, name string) int { return strings.Compare(b.Name, name) })
	All = slices.Insert(All, i, a)
	return a
}

// ByName finds an agent by its name; nil when there is none.
func ByName(name string) *Agent {
	i := slices.IndexFunc(All, func(a *Agent) bool { return a.Name == name })
	if i < 0 {
		return nil
	}
	return All[i]
}

// Names are the agents' names, in the order of All.
func Names() []string {
	out := make([]string, len(All))
	for i, a := range All {
		out[i] = a.Name
	}
	return out
}
