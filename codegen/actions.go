package main

import (
	"slices"
	"strings"
)

// action is one action of the protocol, with the name of the helper that
// builds it in each SDK: one word per action, each language's casing, and
// the trailing underscore of a name that is a reserved word (continue_).
type action struct {
	// Name is the action on the wire: deny_tool.
	Name string
	// Type is the variant that carries it: DenyTool.
	Type *Type
	// Methods are the methods whose result allows it, in table order.
	Methods []string
	// Simple is true when the variant holds the action and a reason alone,
	// besides the remarks every result may carry: its helper is generated
	// in Python and TypeScript. Modify and respond carry an object, and
	// their helpers are written by hand.
	Simple bool
	// ReasonRequired is true when the variant needs its reason.
	ReasonRequired bool
	// About says what the action does: the variant's description without
	// its name, "refuses to run the tool ...".
	About string
}

// Python is the helper's Python name: deny_tool, continue_.
func (a action) Python() string {
	if slices.Contains(pyKeywords, a.Name) {
		return a.Name + "_"
	}
	return a.Name
}

// Go is how a Go handler builds the action: the variant's composite
// literal, or, for an action whose variant differs by method (modify:
// BeforeLLMModify, AfterToolModify), the params' method of its name.
func (a action) Go() string {
	if a.Type.Name != pascal(a.Name) {
		return "params." + pascal(a.Name) + "()"
	}
	return a.Type.Name + "{}"
}

// TypeScript is the helper's TypeScript name: denyTool, continue_.
func (a action) TypeScript() string {
	name := tsCamel(a.Name)
	if slices.Contains(tsReserved, name) {
		return name + "_"
	}
	return name
}

// tsReserved are the reserved words of JavaScript that an action's name
// could be.
var tsReserved = []string{"break", "case", "catch", "class", "const", "continue", "debugger",
	"default", "delete", "do", "else", "export", "extends", "finally", "for", "function", "if",
	"import", "in", "instanceof", "new", "return", "super", "switch", "this", "throw", "try",
	"typeof", "var", "void", "while", "with", "yield"}

// remarks are the members any result may carry besides its action: text
// for the model and a message for the user. Each helper takes them as
// optional arguments.
var remarks = []string{"context", "message"}

// actions lists the actions of the methods' result unions, in the order
// they first appear in the method table.
func actions(m *Model) []action {
	var out []action
	for _, meth := range m.Methods {
		if meth.Result == nil || meth.Result.Kind != Union {
			continue
		}
		for _, v := range meth.Result.Variants {
			name := ""
			for _, tag := range v.Tags {
				if tag != "" {
					name = tag
					break
				}
			}
			if name == "" {
				continue
			}
			i := slices.IndexFunc(out, func(a action) bool { return a.Name == name })
			if i < 0 {
				out = append(out, newAction(name, v.Type, meth.Result.Tag))
				i = len(out) - 1
			} else if out[i].Type != v.Type {
				// A variant of its own per method (modify): say what they share.
				out[i].About = "replaces the object the host sent with the one it carries, whole."
			}
			out[i].Methods = append(out[i].Methods, meth.Name)
		}
	}
	return out
}

func newAction(name string, t *Type, tag string) action {
	a := action{Name: name, Type: t, Simple: true}
	for _, f := range t.Fields {
		switch {
		case f.Name == tag:
		case f.Name == "reason" && f.Type.Kind == String:
			a.ReasonRequired = f.Required
		case slices.Contains(remarks, f.Name) && !f.Required:
		default:
			a.Simple = false
		}
	}
	about := oneLine(t.Doc)
	if i := strings.Index(about, ". "); i >= 0 {
		about = about[:i+1]
	}
	about = strings.TrimPrefix(about, t.Name+" ")
	if about == "" {
		about = "the " + name + " action."
	}
	a.About = about
	return a
}
