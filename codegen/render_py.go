package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"unicode"
)

func pyFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"pyType":        pyType,
		"pyCheckFields": pyCheckFields,
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

// pyCheckFields is the body of an object type's checker, after the check
// that value is a dict: for each member in schema order, the checks of its
// value written out in line, so that a valid message costs a few
// isinstance calls a member and no call of a helper, and a member's path is
// only formatted when a check fails or a nested object needs it.
func pyCheckFields(t *Type) string {
	var b strings.Builder
	for _, f := range t.Fields {
		key, path := quote(f.Name), "{at}."+pyFStringText(f.Name)
		anything := f.Type.Kind == Any
		if f.Required {
			fmt.Fprintf(&b, "    if %s not in value:\n        raise _missing(at, %s)\n", key, key)
			if anything {
				continue
			}
			fmt.Fprintf(&b, "    v = value[%s]\n", key)
			pyCheckValue(&b, f.Type, "v", path, 0, "    ")
			continue
		}
		if anything {
			continue // any value fits, null too
		}
		fmt.Fprintf(&b, "    if %s in value:\n        v = value[%s]\n", key, key)
		pyCheckValue(&b, f.Type, "v", path, 0, "        ")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// pyFStringText is s as the text of a Python f-string between double
// quotes: braces doubled, backslashes and quotes escaped.
var pyFStringText = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "{", "{{", "}", "}}").Replace

// pyCheckValue writes the statements that check the value v, whose path is
// the f-string body path, at the indent; depth numbers the variables of
// nested arrays and maps. It writes nothing for a value of any type.
func pyCheckValue(b *strings.Builder, r *Ref, v, path string, depth int, indent string) {
	if r.Nullable && r.Kind != Any {
		fmt.Fprintf(b, "%sif %s is not None:\n", indent, v)
		indent += "    "
	}
	at := `f"` + path + `"`
	want := func(cond, what string) {
		fmt.Fprintf(b, "%sif %s:\n%s    raise _want(%s, %q, %s)\n", indent, cond, indent, at, what, v)
	}
	switch {
	case len(r.Consts) > 0:
		// bool is an int in Python, but true is not 1 in JSON.
		allowed := "(" + strings.Join(r.Consts, ", ") + ",)"
		fmt.Fprintf(b, "%sif isinstance(%s, bool) or %s not in %s:\n%s    raise _not_one_of(%s, %s, %s)\n",
			indent, v, v, allowed, indent, at, v, allowed)
	case r.Kind == String, r.Kind == Named && r.Type.Kind == Enum:
		// Enums grow: a value this version does not know is still a string.
		want("not isinstance("+v+", str)", "a string")
	case r.Kind == Integer:
		want("isinstance("+v+", bool) or not isinstance("+v+", int)", "an integer")
	case r.Kind == Number:
		want("isinstance("+v+", bool) or not isinstance("+v+", (int, float))", "a number")
	case r.Kind == Boolean:
		want("not isinstance("+v+", bool)", "a boolean")
	case r.Kind == Any:
	case r.Kind == Array, r.Kind == Map:
		// Each element checked in a loop: for i0, v1 in enumerate(v), or
		// for k0, v1 in v.items() with the key in the element's path.
		key, what, container, items, elem := "i", "an array", "list", "enumerate(%s)", "[{%s}]"
		if r.Kind == Map {
			key, what, container, items, elem = "k", "an object", "dict", "%s.items()", ".{%s}"
		}
		want("not isinstance("+v+", "+container+")", what)
		if r.Elem.Kind == Any {
			return
		}
		key, item := fmt.Sprintf("%s%d", key, depth), fmt.Sprintf("v%d", depth+1)
		fmt.Fprintf(b, "%sfor %s, %s in "+items+":\n", indent, key, item, v)
		pyCheckValue(b, r.Elem, item, path+fmt.Sprintf(elem, key), depth+1, indent+"    ")
	case r.Kind == Named:
		fmt.Fprintf(b, "%s_check_%s(%s, %s)\n", indent, snake(r.Type.Name), v, at)
	}
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
