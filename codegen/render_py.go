package main

import (
	"cmp"
	"slices"
	"strings"
	"text/template"
	"unicode"
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
		"pyAll":    func() []string { return pyAll(m) },
	}
}

// pyAll lists the module's public names for __all__, so that the package
// can re-export them without a hand-kept list. The names follow the
// template's; a test holds the two together. The order is ruff's (RUF022):
// constants, then classes and aliases, then functions, each sorted.
func pyAll(m *Model) []string {
	out := []string{"DecodeError", "JSON", "PROTOCOL_VERSION", "Method", "EventKind", "EVENT_KINDS",
		"LEGACY_EVENT_KINDS", "HOST_EXTENSIONS", "ERROR_CODES", "MethodInfo", "METHODS", "DECODERS"}
	for _, t := range m.Types {
		out = append(out, t.Name, "decode_"+snake(t.Name))
		if t.Kind == Enum {
			out = append(out, screaming(plural(t.Name)))
			for _, v := range t.Values {
				out = append(out, screaming(t.Name)+"_"+screaming(v))
			}
		}
	}
	for _, meth := range m.Methods {
		out = append(out, "METHOD_"+screaming(methodName(meth.Name)))
	}
	for _, k := range m.EventKinds {
		out = append(out, "KIND_"+screaming(k))
	}
	for _, e := range m.HostExtensions {
		out = append(out, "EXT_"+screaming(e.Name))
	}
	for _, c := range m.ErrorCodes {
		out = append(out, "CODE_"+screaming(c.Name))
	}
	group := func(name string) int {
		switch {
		case strings.ToUpper(name) == name:
			return 0
		case unicode.IsUpper([]rune(name)[0]):
			return 1
		}
		return 2
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(group(a), group(b)), cmp.Compare(a, b))
	})
	return out
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
