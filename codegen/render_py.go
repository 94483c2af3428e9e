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
		"pyType":           pyType,
		"pyCheckFields":    pyCheckFields,
		"pyDocstring":      pyDocstring,
		"pyTypeDef":        pyTypeDef,
		"pyConsts":         func(lits []string) string { return strings.Join(lits, ", ") },
		"pyAll":            func() ([]string, error) { return pyAll(m) },
		"pyMethodsImports": func() ([]string, error) { return pyMethodsImports(m) },
		"article":          article,
		"pyHandled":        func() ([]pyMethod, error) { return pyHandled(m) },
		"pyFilter":         pyFilter,
		"pyBound":          pyBound,
		"pyOverLimit":      pyOverLimit,
	}
}

// pyAll lists the names the package re-exports from _protocol_gen.py for
// __all__, so that it can re-export them with `from ._protocol_gen import *`
// and no hand-kept list: the types, the error codes, host extensions and
// the tables a hook reads (each handler's reply type is _methods_gen.py's). The decode functions, the method table and
// the constants of each enum value, method and event kind stay in the
// module, for the SDK. The names follow the template's; a test holds the
// two together. The order is ruff's (RUF022): constants, then classes and
// aliases, then functions, each sorted.
func pyAll(m *Model) ([]string, error) {
	out := []string{"DecodeError", "JSON", "PROTOCOL_VERSION", "Method", "EventKind", "EVENT_KINDS",
		"LEGACY_EVENT_KINDS", "HOST_EXTENSIONS", "ERROR_CODES"}
	for _, t := range m.Types {
		out = append(out, t.Name)
	}
	for _, a := range actions(m) {
		if a.Simple {
			out = append(out, a.Python())
		}
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
	return out, nil
}

// pyMethodsImports lists what _methods_gen.py takes from _protocol_gen.py: each
// request's constant, the error codes of its over-limit answer, each handled
// method's params and result types, in ruff's order
// (constants, then classes, each sorted).
func pyMethodsImports(m *Model) ([]string, error) {
	handled, err := pyHandled(m)
	if err != nil {
		return nil, err
	}
	var consts, types []string
	for _, h := range handled {
		types = append(types, h.Params.Name, h.Result.Name)
	}
	// Every request has an over-limit answer: its constant, and those of
	// the errors that go instead.
	for _, meth := range overLimits(m) {
		consts = append(consts, "METHOD_"+screaming(methodName(meth.Name)))
		if e := meth.OverLimit.Error; e != nil {
			consts = append(consts, "CODE_"+screaming(e.Name))
		}
	}
	slices.Sort(consts)
	consts = slices.Compact(consts)
	slices.Sort(types)
	return append(consts, slices.Compact(types)...), nil
}

// pyMethod is a method a hook handles (a request with a hello mode), as
// the Python SDK's method surface writes it: a decorator of Hook, a call
// of the test client, the type of what its handler returns.
type pyMethod struct {
	*Method
	// Handler names the decorator and the test client's call: before_llm.
	Handler string
	// Reply is the annotation of what a handler returns: Alias, or the
	// result type when a handler returns nothing else.
	Reply string
	// Alias is the public alias of the union of what a handler returns,
	// "" when that is the result type alone: BeforeLLMReply.
	Alias string
	// Returns are the members of Alias's union.
	Returns []string
	// ReplyDoc says what a handler returns, for Alias's docstring.
	ReplyDoc string
	// Says is what a handler's shorthand replies mean: "None means continue".
	Says string
	// Continue is true when the method allows continue, the answer of a
	// call that no handler decides.
	Continue bool
	// ModifyKey is the member of the modify variant that carries the whole
	// replacement object (request); "" when the method has no modify.
	ModifyKey string
	// Flag is the boolean member of an object result that a handler may
	// return alone, True for {"approved": true}; "" when none.
	Flag string
	// About is the first sentence of the params' description, without a
	// leading "Name is": "the request about to be sent to the LLM.".
	About string
}

// pyHandled lists the methods a hook registers handlers for, in table
// order, with what the SDK does on its own for a handler's reply: None is
// continue when the method allows continue, a Modify is rendered under the
// modify variant's member, a bool is the result's one required boolean.
func pyHandled(m *Model) ([]pyMethod, error) {
	var out []pyMethod
	for _, meth := range m.Methods {
		if meth.Notification || meth.Mode == "" {
			continue
		}
		h := pyMethod{Method: meth, Handler: methodName(meth.Name), Reply: meth.Result.Name, Returns: []string{meth.Result.Name}}
		h.About = oneLine(meth.Params.Doc)
		if i := strings.Index(h.About, ". "); i >= 0 {
			h.About = h.About[:i+1]
		}
		h.About = strings.TrimPrefix(h.About, meth.Params.Name+" is ")
		if h.About == "" {
			h.About = "takes " + meth.Params.Name + "."
		}
		if slices.Contains(meth.Actions, "modify") && meth.Result.Kind == Union {
			for _, v := range meth.Result.Variants {
				if !slices.Contains(v.Tags, "modify") {
					continue
				}
				for _, f := range v.Type.Fields {
					if f.Required && f.Name != meth.Result.Tag {
						h.ModifyKey = f.Name
						break
					}
				}
			}
		}
		if meth.Result.Kind == Object {
			for _, f := range meth.Result.Fields {
				if f.Required && f.Type.Kind == Boolean && !f.Type.Nullable {
					h.Flag = f.Name
					break
				}
			}
		}
		var says []string
		if h.ModifyKey != "" {
			h.Returns = append(h.Returns, "Modify["+meth.Params.Name+"]")
		}
		if h.Continue = slices.Contains(meth.Actions, "continue"); h.Continue {
			h.Returns = append(h.Returns, "None")
			says = append(says, "None means continue")
		}
		if h.Flag != "" {
			h.Returns = append(h.Returns, "bool")
			says = append(says, fmt.Sprintf("a bool b means {%q: b}", h.Flag))
		}
		if len(h.Returns) > 1 {
			h.Alias = pascal(h.Handler) + "Reply"
			if m.Type(h.Alias) != nil {
				return nil, fmt.Errorf("%s: the Python type of what its handler returns, %s, is also the name of a type", meth.Name, h.Alias)
			}
			h.Reply = h.Alias
			h.ReplyDoc = "What " + article(h.Handler) + " " + h.Handler + " handler returns"
			if len(says) > 0 {
				h.Says = strings.Join(says, "; ")
				h.ReplyDoc += "; " + h.Says
			}
			h.ReplyDoc += "."
		}
		out = append(out, h)
	}
	return out, nil
}

// pyTypeDef is the run-time definition of an object or union type, as ruff
// format writes it, without its last newline.
//
// An object is a TypedDict, built in as few classes as typing makes at
// import (each costs a hook's start-up): the optional members in the class
// body, total=False, over a base of the required ones, or the required
// members in the class body when there are no optional ones. Python 3.9
// and 3.10 have no NotRequired, hence the base. Members whose names a class
// body cannot hold go in TypedDict's functional form, a base of their own.
func pyTypeDef(t *Type) string {
	if t.Kind == Union {
		var b strings.Builder
		b.WriteString(t.Name + " = Union[\n")
		for _, v := range t.Variants {
			b.WriteString("    " + v.Type.Name + ",\n")
		}
		b.WriteString("]\n" + pyDocstring("", t.Doc, t.Extension))
		return strings.TrimSuffix(b.String(), "\n")
	}
	var req, opt []*Field
	for _, f := range t.Fields {
		if f.Required {
			req = append(req, f)
		} else {
			opt = append(opt, f)
		}
	}
	optInBody := len(opt) > 0 && pyIdents(opt)
	reqInBody := len(req) > 0 && len(opt) == 0 && pyIdents(req)
	var statements, bases []string
	functional := func(suffix string, fields []*Field, total string) {
		name := "_" + t.Name + suffix
		var b strings.Builder
		fmt.Fprintf(&b, "%s = TypedDict(\n    %q,\n    {\n", name, name)
		for _, f := range fields {
			b.WriteString(comment("        # ", f.Doc, f.Extension))
			fmt.Fprintf(&b, "        %s: %s,\n", quote(f.Name), pyType(f.Type))
		}
		b.WriteString("    },\n" + total + ")")
		statements = append(statements, b.String())
		bases = append(bases, name)
	}
	if len(req) > 0 && !reqInBody {
		functional("Required", req, "")
	}
	if len(opt) > 0 && !optInBody {
		functional("Optional", opt, "    total=False,\n")
	}
	if len(bases) == 0 {
		bases = append(bases, "TypedDict")
	}
	if optInBody {
		bases = append(bases, "total=False")
	}
	var b strings.Builder
	b.WriteString("class " + t.Name + "(" + strings.Join(bases, ", ") + "):\n")
	doc := pyDocstring("    ", t.Doc, t.Extension)
	b.WriteString(doc)
	var body []*Field
	if reqInBody {
		body = req
	} else if optInBody {
		body = opt
	}
	if doc != "" && len(body) > 0 {
		b.WriteString("\n")
	}
	for _, f := range body {
		b.WriteString(comment("    # ", f.Doc, f.Extension))
		b.WriteString("    " + f.Name + ": " + pyType(f.Type) + "\n")
	}
	if doc == "" && len(body) == 0 {
		b.WriteString("    pass\n")
	}
	// Between a base's statement and the class, as after any class: two blank lines.
	statements = append(statements, strings.TrimSuffix(b.String(), "\n"))
	return strings.Join(statements, "\n\n\n")
}

// pyKeywords are Python's keywords: no member of these names can be
// declared in a class body.
var pyKeywords = []string{"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
	"from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
	"raise", "return", "try", "while", "with", "yield"}

// pyIdents is true when every field's name can be declared in a TypedDict's
// class body: an ASCII identifier that is not a keyword, nor mangled (__x).
// Members of other names ("content-type", "from") go in TypedDict's
// functional form instead.
func pyIdents(fields []*Field) bool {
	for _, f := range fields {
		if f.Name == "" || slices.Contains(pyKeywords, f.Name) || unicode.IsDigit(rune(f.Name[0])) || strings.HasPrefix(f.Name, "__") {
			return false
		}
		for _, r := range f.Name {
			if r > unicode.MaxASCII || !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// pyType is the annotation of a value. Enums are Literal aliases and
// nullable values Optional. The built-in generics (list[str]) work at run
// time from 3.9 on; X | None does not before 3.10, so Optional and Union
// stay.
func pyType(r *Ref) string {
	var t string
	switch {
	case len(r.Consts) > 0:
		t = "Literal[" + strings.Join(shown(r.Consts), ", ") + "]"
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
		accepted := "(" + strings.Join(r.Consts, ", ") + ",)"
		offered := "(" + strings.Join(shown(r.Consts), ", ") + ",)"
		fmt.Fprintf(b, "%sif isinstance(%s, bool) or %s not in %s:\n%s    raise _not_one_of(%s, %s, %s)\n",
			indent, v, v, accepted, indent, at, v, offered)
	case r.Kind == String, r.Kind == Named && r.Type.Kind == Enum:
		// Enums grow: a value this version does not know is still a string.
		want(pyNotA(v, "str"), "a string")
	case r.Kind == Integer:
		want("type("+v+") is not int and (isinstance("+v+", bool) or not isinstance("+v+", int))", "an integer")
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
		want(pyNotA(v, container), what)
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

// pyNotA is the condition that v is not a t: its exact type first, which
// is what the JSON decoder makes and costs no call, then isinstance, for a
// subclass a caller passed.
func pyNotA(v, t string) string {
	return "type(" + v + ") is not " + t + " and not isinstance(" + v + ", " + t + ")"
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

// pyFilter keeps the methods that need a handler (they allow no
// continue), that have a modify result, whose handler may return a bool, or
// whose handler's reply type is an alias.
func pyFilter(handled []pyMethod, which string) []pyMethod {
	var out []pyMethod
	for _, h := range handled {
		switch {
		case which == "needs" && !h.Continue, which == "modify" && h.ModifyKey != "",
			which == "bool" && h.Flag != "", which == "alias" && h.Alias != "":
			out = append(out, h)
		}
	}
	return out
}

// pyBound is the bound of a handler's TypeVar, as ruff format writes it:
// on one line when it fits in 88 columns.
func pyBound(h pyMethod, indent string) string {
	args := "[" + h.Params.Name + "], Union[" + h.Reply + ", Awaitable[" + h.Reply + "]]"
	if line := indent + "bound=Callable[" + args + "],"; len(line) <= 88 {
		return line
	}
	return indent + "bound=Callable[\n" + indent + "    " + args + "\n" + indent + "],"
}
