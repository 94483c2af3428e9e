package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/template"
)

func goFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"goDoc": func(indent string, text, extension string) string {
			return comment(indent+"// ", text, extension)
		},
		"goFieldName": goFieldName,
		"goFieldType": goFieldType,
		"goTag":       goTag,
		"goEncode":    goEncode,
		"goDecode":    goDecode,
		"goQuote":     goQuote,
		"goCase":      goCase,
		"goNames": func(ts []*Variant) string {
			var names []string
			for _, v := range ts {
				names = append(names, v.Type.Name)
			}
			return strings.Join(names, ", ")
		},
	}
}

// goFieldName is the Go name of a member; Extra is taken by the unknown
// members.
func goFieldName(f *Field) (string, error) {
	name := pascal(f.Name)
	if name == "" || name == "Extra" {
		return "", fmt.Errorf("member %q has no usable Go name", f.Name)
	}
	return name, nil
}

// goFieldType follows core/protocol: an optional scalar or object is a
// pointer (nil is absent), so is a nullable one (nil is null); a list or
// map is nil when absent; any JSON value is json.RawMessage, which keeps
// null apart from absent.
func goFieldType(f *Field) (string, error) {
	r := f.Type
	if !f.Required && r.Nullable && r.Kind != Any {
		return "", fmt.Errorf("member %q is optional and nullable: Go has no type that keeps absent, null and a value apart; make it one or the other", f.Name)
	}
	base := goType(r, false)
	switch {
	case r.Kind == Any || r.Kind == Array || r.Kind == Map:
		return base, nil
	case !f.Required || r.Nullable:
		return "*" + base, nil
	}
	return base, nil
}

// goType is the Go type of a value. Inside a list or map, any JSON value
// is `any`, which is easier to use there and needs no absent state.
func goType(r *Ref, elem bool) string {
	var t string
	switch r.Kind {
	case String:
		t = "string"
	case Integer:
		t = "int64"
	case Number:
		t = "float64"
	case Boolean:
		t = "bool"
	case Any:
		if elem {
			return "any"
		}
		return "json.RawMessage"
	case Array:
		return "[]" + goType(r.Elem, true)
	case Map:
		return "map[string]" + goType(r.Elem, true)
	case Named:
		t = r.Type.Name
	}
	if elem && r.Nullable {
		return "*" + t
	}
	return t
}

// goTag documents the member for readers and for encoding/json users;
// MarshalJSON and UnmarshalJSON below do the work.
func goTag(f *Field) string {
	opt := ""
	if !f.Required {
		opt = ",omitempty"
		if f.Type.Kind == Array || f.Type.Kind == Map || f.Type.Kind == Any {
			opt = ",omitzero"
		}
	}
	return "`json:" + strconv.Quote(f.Name+opt) + "`"
}

// goEncode is the statement of MarshalJSON that writes the member.
func goEncode(f *Field) (string, error) {
	name, err := goFieldName(f)
	if err != nil {
		return "", err
	}
	v := "v." + name
	r := f.Type
	switch {
	case !f.Required && r.Kind == Any:
		return fmt.Sprintf("w.optional(%q, %s, len(%s) > 0)", f.Name, v, v), nil
	case !f.Required:
		return fmt.Sprintf("w.optional(%q, %s, %s != nil)", f.Name, v, v), nil
	case len(r.Consts) == 1:
		// A required const left at its zero value is written as the
		// const: DenyTool{Reason: "..."} needs no Action.
		return fmt.Sprintf("w.member(%q, orConst(%s, %s))", f.Name, v, r.Consts[0]), nil
	case (r.Kind == Array || r.Kind == Map) && !r.Nullable:
		// A required list is [] when nil, never null.
		return fmt.Sprintf("w.member(%q, orEmpty%s(%s))", f.Name, map[RefKind]string{Array: "Slice", Map: "Map"}[r.Kind], v), nil
	}
	return fmt.Sprintf("w.member(%q, %s)", f.Name, v), nil
}

// goDecode is the statement of UnmarshalJSON that reads the member.
func goDecode(f *Field) (string, error) {
	name, err := goFieldName(f)
	if err != nil {
		return "", err
	}
	flags := "optional"
	if f.Required {
		flags = "required"
	}
	if f.Type.Nullable || f.Type.Kind == Any {
		flags += "|nullable"
	}
	s := fmt.Sprintf("r.member(%q, %s, &v.%s)", f.Name, flags, name)
	if len(f.Type.Consts) > 0 {
		ptr := "&v." + name
		if !f.Required {
			ptr = "v." + name
		}
		s += fmt.Sprintf("\ncheckConst(r, %q, %s, %s)", f.Name, ptr, strings.Join(f.Type.Consts, ", "))
	}
	return s, nil
}

// goCase is the switch case of a union decoder that selects the variant.
func goCase(u *Type, v *Variant) string {
	var conds []string
	if v.Absent {
		conds = append(conds, "!present")
	}
	for _, tag := range v.Tags {
		conds = append(conds, "tag == "+strconv.Quote(tag))
	}
	return strings.Join(conds, " || ")
}

// goQuote is a Go string literal, raw when that reads better.
func goQuote(s string) string {
	if strings.Contains(s, `"`) && !strings.ContainsAny(s, "`\n") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
