package main

import (
	"fmt"
	"go/token"
	"slices"
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
		"goField":     goField,
		"goHandled":   goHandled(m),
		"goOwn":       goOwn(m),
		"goModes":     goModes(m),
		"goUnhandled": goUnhandled,
		"goOnDoc":     goOnDoc,
		"goIsOneOf":   goIsOneOf,
		"goOverLimit": goOverLimit,
		"goMustDecide": func() []*Method {
			return slices.DeleteFunc(goHandled(m)(), func(meth *Method) bool { return fallback(meth) != "" })
		},
		"goNotifications": func() []*Method {
			return slices.DeleteFunc(slices.Clone(m.Methods), func(meth *Method) bool { return !meth.Notification })
		},
		"fallback": fallback,
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
// null apart from absent, and so is an optional list or map that may be
// null.
func goFieldType(f *Field) (string, error) {
	r := f.Type
	if !f.Required && r.Nullable && r.Kind != Any {
		if r.Kind == Array || r.Kind == Map {
			return "json.RawMessage", nil
		}
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
	case !f.Required && (r.Kind == Any || rawInGo(f)):
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

// rawInGo reports whether Go keeps the member as its raw JSON although it
// has a type: an optional list or map that may be null.
func rawInGo(f *Field) bool {
	return !f.Required && f.Type.Nullable && (f.Type.Kind == Array || f.Type.Kind == Map)
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

// The hook's method surface (hook.tmpl) sorts the methods of the table
// three ways. A request of a mode is the user's: the hook registers a
// handler for it (On<Method>) and declares the mode in hook.hello. A
// request without a mode, hook.hello, is the SDK's own: a hand-written
// method of the hook answers it. A notification goes to the observers.

// goHandled are the requests a hook registers handlers for.
func goHandled(m *Model) func() []*Method {
	return func() []*Method {
		var out []*Method
		for _, meth := range m.Methods {
			if !meth.Notification && meth.Mode != "" {
				out = append(out, meth)
			}
		}
		return out
	}
}

// goOwn are the requests the SDK answers itself.
func goOwn(m *Model) func() []*Method {
	return func() []*Method {
		var out []*Method
		for _, meth := range m.Methods {
			if !meth.Notification && meth.Mode == "" {
				out = append(out, meth)
			}
		}
		return out
	}
}

// goMode is a hello mode and the methods a hook receives in it.
type goMode struct {
	Mode          string
	Requests      []*Method
	Notifications []*Method
}

// goModes are the modes that have methods, in the order of the Mode enum,
// which is the order of hello's modes.
func goModes(m *Model) func() []goMode {
	return func() []goMode {
		var values []string
		if t := m.Type(modeEnum); t != nil {
			values = t.Values
		}
		var out []goMode
		for _, mode := range values {
			gm := goMode{Mode: mode}
			for _, meth := range m.Methods {
				switch {
				case meth.Mode != mode:
				case meth.Notification:
					gm.Notifications = append(gm.Notifications, meth)
				default:
					gm.Requests = append(gm.Requests, meth)
				}
			}
			if gm.Requests != nil || gm.Notifications != nil {
				out = append(out, gm)
			}
		}
		return out
	}
}

// goField is the name of the handler field of a method: before_llm is
// beforeLLM.
func goField(meth *Method) (string, error) {
	ws := words(methodName(meth.Name))
	if len(ws) == 0 {
		return "", fmt.Errorf("method %q has no usable Go name", meth.Name)
	}
	name := strings.ToLower(ws[0]) + pascal(strings.Join(ws[1:], "_"))
	if token.IsKeyword(name) {
		return "", fmt.Errorf("method %q is the Go keyword %s", meth.Name, name)
	}
	return name, nil
}

// fallback is what a request without a handler is answered with: the tag
// of its result's variant that may go without one ("continue"), which
// lets the call through as if the hook were not there. "" means there is
// no such answer: the hook answers an error, because any answer would
// decide what no handler looked at.
func fallback(meth *Method) string {
	if meth.Result == nil || meth.Result.Kind != Union {
		return ""
	}
	if v := meth.Result.AbsentVariant(); v != nil {
		for _, tag := range v.Tags {
			if tag != "" {
				return tag
			}
		}
	}
	return ""
}

// goUnhandled says what the calls of a mode get from a hook with no
// handler for it, for the warning about a mode the host grants in vain.
func goUnhandled(gm goMode) string {
	var parts []string
	add := func(ms []*Method, what string) {
		if len(ms) == 0 {
			return
		}
		var names []string
		for _, meth := range ms {
			names = append(names, meth.Name)
		}
		verb := " is "
		if len(names) > 1 {
			verb = " are "
		}
		parts = append(parts, strings.Join(names, " and ")+verb+what)
	}
	if len(gm.Notifications) > 0 {
		// They go to the observers, which see them all as events.
		parts = append(parts, "events are dropped")
	}
	byAnswer := map[string][]*Method{}
	var answers []string
	for _, meth := range gm.Requests {
		a := fallback(meth)
		if _, ok := byAnswer[a]; !ok {
			answers = append(answers, a)
		}
		byAnswer[a] = append(byAnswer[a], meth)
	}
	for _, a := range answers {
		if a == "" {
			add(byAnswer[a], "answered with an error, which a host may take as a denial")
		} else {
			add(byAnswer[a], "answered with "+a)
		}
	}
	return strings.Join(parts, "; ")
}

// goIsOneOf is the condition that method is one of ms; false for none.
func goIsOneOf(ms []*Method) string {
	if len(ms) == 0 {
		return "false"
	}
	var conds []string
	for _, meth := range ms {
		conds = append(conds, "method == Method"+pascal(methodName(meth.Name)))
	}
	return strings.Join(conds, " || ")
}

// goOnDoc is the doc comment of the registration of a method's handler:
// what the method is, the mode it needs, what fn answers, and what the
// hook answers without it.
func goOnDoc(meth *Method) string {
	on := "On" + pascal(methodName(meth.Name))
	text := fmt.Sprintf("%s registers fn as the handler of %s, which the host sends to a hook that declares the %s mode in hook.hello ([Hook.Modes] has it then). fn answers with %s [%s]",
		on, meth.Name, meth.Mode, article(meth.Result.Name), meth.Result.Name)
	if len(meth.Actions) > 0 {
		text += ": " + orList(meth.Actions)
	}
	text += ". "
	if f := fallback(meth); f != "" {
		text += fmt.Sprintf("Without a handler, %s is answered with %s.", meth.Name, f)
	} else {
		text += fmt.Sprintf("Without a handler, %s is answered with an error: any answer would decide what nobody looked at.", meth.Name)
	}
	text += " " + on + " panics on a nil fn and on a second handler."
	doc := wrap(text, 76)
	if meth.Params.Doc != "" {
		doc += "\n\n" + meth.Params.Doc
	}
	return comment("// ", doc, "")
}

// wrap breaks text into lines of at most width bytes, between words.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			b.WriteString("\n")
			n = 0
		default:
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
