package main

import (
	"fmt"
	"strings"
	"text/template"
)

func docFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"docType": docType,
		// modeMethod names the first request of a hello mode, as the
		// method table orders them: "approve" gives its one method.
		"modeMethod": func(mode string) string {
			for _, meth := range m.Methods {
				if meth.Mode == mode && !meth.Notification {
					return meth.Name
				}
			}
			return ""
		},
		"cell": cell,
		"docTemplate": func(t Template, placeholder string) string {
			return strings.ReplaceAll(t.Before, "\n", `\n`) + placeholder + strings.ReplaceAll(t.After, "\n", `\n`)
		},
		"docOtherwise": docOtherwise,
		"link":         link,
		"code": func(s string) string {
			return "`" + s + "`"
		},
		"tagList": func(v *Variant) string {
			var tags []string
			for _, t := range v.Tags {
				if t != "" {
					tags = append(tags, "`"+quote(t)+"`")
				}
			}
			if v.Absent {
				tags = append(tags, "absent")
			}
			return strings.Join(tags, ", ")
		},
		"required": func(f *Field) string {
			if f.Required {
				return "required"
			}
			return "optional"
		},
		"paragraphs": func(s string) string {
			// A single line break in a Go doc comment is a wrapped line, not
			// a new paragraph.
			var out []string
			for _, p := range strings.Split(s, "\n\n") {
				out = append(out, oneLine(p))
			}
			return strings.Join(out, "\n\n")
		},
	}
}

// link points to a type's section; GitHub's anchor is the lower-cased name.
func link(t *Type) string {
	return "[`" + t.Name + "`](#" + strings.ToLower(t.Name) + ")"
}

// docType is a value's type as the reference shows it.
func docType(r *Ref) string {
	var t string
	switch {
	case len(r.Consts) > 0:
		var lits []string
		for _, c := range shown(r.Consts) {
			lits = append(lits, "`"+c+"`")
		}
		t = strings.Join(lits, " or ")
	case r.Kind == String:
		t = "string"
	case r.Kind == Integer:
		t = "integer"
	case r.Kind == Number:
		t = "number"
	case r.Kind == Boolean:
		t = "boolean"
	case r.Kind == Any:
		t = "any JSON"
	case r.Kind == Array:
		t = "array of " + docType(r.Elem)
	case r.Kind == Map:
		if r.Elem.Kind == Any {
			t = "object"
		} else {
			t = "object of " + docType(r.Elem)
		}
	case r.Kind == Named:
		t = link(r.Type)
	}
	if r.Nullable {
		t += " or `null`"
	}
	return t
}

// cell is text that fits in one table cell.
func cell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

// docOtherwise is what goes instead of a reply that no other rule of an
// over-limit answer sends: the error, or the result with the reason (R).
func docOtherwise(o *OverLimit) string {
	if o.Error != nil {
		return fmt.Sprintf("the error %d (`%s`), with R as its message", o.Error.Code, o.Error.Name)
	}
	members := joinEach(o.Result, func(m Member) string {
		return quote(m.Name) + ":" + scalar(m.Value, "true", "false")
	})
	return "`{" + members + `,"` + reasonMember + `":R}` + "`"
}
