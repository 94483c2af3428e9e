package main

import (
	"strings"
	"text/template"
)

func pyFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"pyType":  pyType,
		"pyCheck": pyCheck,
		"pyComment": func(indent, text, extension string) string {
			return comment(indent+"# ", text, extension)
		},
		"pyDocstring": pyDocstring,
		"pyFields": func(t *Type, required bool) []*Field {
			var out []*Field
			for _, f := range t.Fields {
				if f.Required == required {
					out = append(out, f)
				}
			}
			return out
		},
		"pyConsts": func(lits []string) string { return strings.Join(lits, ", ") },
	}
}

// pyType is the annotation of a value. Enums are Literal aliases and
// nullable values Optional. The built-in generics (list[str]) work at run
// time from 3.9 on; X | None does not before 3.10, so Optional and Union
// stay.
func pyType(r *Ref) string {
	var t string
	switch {
	case len(r.Consts) > 0:
		t = "Literal[" + strings.Join(r.Consts, ", ") + "]"
	case r.Kind == String:
		t = "str"
	case r.Kind == Integer:
		t = "int"
	case r.Kind == Number:
		t = "float"
	case r.Kind == Boolean:
		t = "bool"
	case r.Kind == Any:
		return "JSON"
	case r.Kind == Array:
		t = "list[" + pyType(r.Elem) + "]"
	case r.Kind == Map:
		t = "dict[str, " + pyType(r.Elem) + "]"
	case r.Kind == Named:
		t = r.Type.Name
	}
	if r.Nullable {
		return "Optional[" + t + "]"
	}
	return t
}

// pyCheck is the checker of a value: a function (value, path) that raises
// DecodeError when the value does not have the type.
func pyCheck(r *Ref) string {
	var c string
	switch {
	case len(r.Consts) > 0:
		c = "_literal(" + strings.Join(r.Consts, ", ") + ")"
	case r.Kind == String:
		c = "_string"
	case r.Kind == Integer:
		c = "_integer"
	case r.Kind == Number:
		c = "_number"
	case r.Kind == Boolean:
		c = "_boolean"
	case r.Kind == Any:
		return "_any"
	case r.Kind == Array:
		c = "_array(" + pyCheck(r.Elem) + ")"
	case r.Kind == Map:
		c = "_map(" + pyCheck(r.Elem) + ")"
	case r.Kind == Named && r.Type.Kind == Enum:
		// Enums grow: a value this version does not know is still a string.
		c = "_string"
	case r.Kind == Named:
		c = "_check_" + snake(r.Type.Name)
	}
	if r.Nullable {
		return "_nullable(" + c + ")"
	}
	return c
}

func pyDocstring(indent, text, extension string) string {
	if extension != "" {
		if text != "" {
			text += "\n\n"
		}
		text += "hookwire extension: " + extension
	}
	if text == "" {
		return ""
	}
	text = strings.ReplaceAll(text, `\`, `\\`)
	text = strings.ReplaceAll(text, `"""`, `\"\"\"`)
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return indent + `"""` + text + `"""` + "\n"
	}
	var b strings.Builder
	b.WriteString(indent + `"""` + lines[0] + "\n")
	for _, l := range lines[1:] {
		b.WriteString(strings.TrimRight(indent+l, " ") + "\n")
	}
	b.WriteString(indent + `"""` + "\n")
	return b.String()
}
