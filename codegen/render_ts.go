package main

import (
	"regexp"
	"strconv"
	"strings"
	"text/template"
)

func tsFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"tsType":  tsType,
		"tsCheck": tsCheck,
		"tsDoc":   tsDoc,
		"tsKey":   tsKey,
		"tsOpt": func(f *Field) string {
			if f.Required {
				return ""
			}
			return "?"
		},
	}
}

var tsIdent = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// tsKey is a property name, quoted when it is not an identifier.
func tsKey(name string) string {
	if tsIdent.MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

// tsType is the type of a value. Any JSON value is JsonValue, never `any`,
// so that strict code must narrow it before use.
func tsType(r *Ref) string {
	var t string
	switch {
	case len(r.Consts) > 0:
		t = strings.Join(r.Consts, " | ")
	case r.Kind == String:
		t = "string"
	case r.Kind == Integer, r.Kind == Number:
		t = "number"
	case r.Kind == Boolean:
		t = "boolean"
	case r.Kind == Any:
		return "JsonValue"
	case r.Kind == Array:
		elem := tsType(r.Elem)
		if strings.Contains(elem, " ") {
			elem = "(" + elem + ")"
		}
		t = elem + "[]"
	case r.Kind == Map:
		t = "{ [key: string]: " + tsType(r.Elem) + " }"
	case r.Kind == Named:
		t = r.Type.Name
	}
	if r.Nullable {
		return t + " | null"
	}
	return t
}

// tsCheck is the checker of a value, as in Python: (value, path) => void,
// throwing DecodeError.
func tsCheck(r *Ref) string {
	var c string
	switch {
	case len(r.Consts) > 0:
		c = "literal(" + strings.Join(r.Consts, ", ") + ")"
	case r.Kind == String:
		c = "string_"
	case r.Kind == Integer:
		c = "integer"
	case r.Kind == Number:
		c = "number_"
	case r.Kind == Boolean:
		c = "boolean_"
	case r.Kind == Any:
		return "any_"
	case r.Kind == Array:
		c = "array(" + tsCheck(r.Elem) + ")"
	case r.Kind == Map:
		c = "map(" + tsCheck(r.Elem) + ")"
	case r.Kind == Named && r.Type.Kind == Enum:
		c = "string_"
	case r.Kind == Named:
		c = "check" + r.Type.Name
	}
	if r.Nullable {
		return "nullable(" + c + ")"
	}
	return c
}

// tsDoc is a JSDoc comment.
func tsDoc(indent, text, extension string) string {
	if extension != "" {
		if text != "" {
			text += "\n\n"
		}
		text += "hookwire extension: " + extension
	}
	if text == "" {
		return ""
	}
	text = strings.ReplaceAll(text, "*/", "*\\/")
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return indent + "/** " + text + " */\n"
	}
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		b.WriteString(strings.TrimRight(indent+" * "+l, " ") + "\n")
	}
	b.WriteString(indent + " */\n")
	return b.String()
}
