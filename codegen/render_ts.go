package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"
)

func tsFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"tsType":         tsType,
		"tsCheck":        tsCheck,
		"tsDoc":          tsDoc,
		"tsKey":          tsKey,
		"tsCamel":        tsCamel,
		"tsUnhandled":    tsUnhandled,
		"tsHandlerDoc":   tsHandlerDoc,
		"tsOverLimit":    tsOverLimit,
		"tsTemplate":     tsTemplate,
		"tsHandled":      func() []*Method { return tsHandled(m) },
		"tsHandledTypes": func() []string { return tsHandledTypes(m) },
		"tsPerMethod":    func() []string { return tsPerMethod(m) },
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
		t = strings.Join(shown(r.Consts), " | ")
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

// tsHandled are the methods a hook registers handlers for: the requests
// that a hello mode receives. A request without a mode (hook.hello) is the
// SDK's own, and notifications go to observers.
func tsHandled(m *Model) []*Method {
	var out []*Method
	for _, meth := range m.Methods {
		if !meth.Notification && meth.Mode != "" {
			out = append(out, meth)
		}
	}
	return out
}

// tsCamel is the name of a method's registration and test client call:
// hook.before_llm is beforeLLM, a leading initialism in lower case
// (llm_call would be llmCall).
func tsCamel(method string) string {
	ws := words(methodName(method))
	if len(ws) == 0 {
		return ""
	}
	return strings.ToLower(ws[0]) + pascal(strings.Join(ws[1:], "_"))
}

// tsUnhandled is what a request gets from a hook with no handler for it,
// as a TypeScript object literal: the variant of its result union that a
// value without the tag selects, with its first tag value
// ({ action: "continue" }), which lets the call through as if the hook
// were not there. "" for a result without such a variant: the request
// then gets an error.
func tsUnhandled(meth *Method) string {
	if meth.Result == nil || meth.Result.Kind != Union {
		return ""
	}
	v := meth.Result.AbsentVariant()
	if v == nil {
		return ""
	}
	for _, tag := range v.Tags {
		if tag != "" {
			return "{ " + tsKey(meth.Result.Tag) + ": " + quote(tag) + " }"
		}
	}
	return "{}"
}

// tsPerMethod are the types named by the method table, which the package
// exports: each method's params and result, and the result's variants, in
// table order, each once.
func tsPerMethod(m *Model) []string {
	var out []string
	add := func(t *Type) {
		if t != nil && !slices.Contains(out, t.Name) {
			out = append(out, t.Name)
		}
	}
	for _, meth := range m.Methods {
		add(meth.Params)
		add(meth.Result)
		if meth.Result != nil {
			for _, v := range meth.Result.Variants {
				add(v.Type)
			}
		}
	}
	return out
}

// tsHandledTypes are the params and result types of the handled methods,
// each once, for the generated file's imports.
func tsHandledTypes(m *Model) []string {
	var out []string
	for _, meth := range tsHandled(m) {
		for _, t := range []*Type{meth.Params, meth.Result} {
			if !slices.Contains(out, t.Name) {
				out = append(out, t.Name)
			}
		}
	}
	return out
}

// tsHandlerDoc is the doc comment text of a method's registration: what
// its params are (the first sentence of their description), what the
// handler returns, the mode it declares and what the method gets without it.
func tsHandlerDoc(meth *Method) string {
	lines := []string{"Handles " + meth.Name + "."}
	if s := firstSentence(meth.Params.Doc); s != "" {
		lines = append(lines, s)
	}
	result := "The handler returns " + article(meth.Result.Name) + " " + meth.Result.Name
	if len(meth.Actions) > 0 {
		result += ", with action " + orList(meth.Actions)
	}
	lines = append(lines, result+".",
		"Registering it declares mode "+meth.Mode+" in hook.hello; a second handler of the method throws.")
	if u := tsUnhandled(meth); u != "" {
		lines = append(lines, "Without a handler, or when the handler returns nothing (undefined), the hook answers "+u+".")
	} else {
		lines = append(lines, "Without a handler, the hook answers the error method not found.")
	}
	return strings.Join(lines, "\n")
}

// firstSentence is the first sentence of a description, on one line.
func firstSentence(doc string) string {
	para, _, _ := strings.Cut(doc, "\n\n")
	para = oneLine(para)
	if i := strings.Index(para, ". "); i >= 0 {
		return para[:i+1]
	}
	return para
}
