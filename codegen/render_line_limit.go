package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Each language's rendering of the line limit (model_line_limit.go): a
// table of each request's over-limit answer, with the default limit and
// the texts of the replacements, for one generic function of the SDK.

// overLimits are the requests, with their over-limit answers, in table order.
func overLimits(m *Model) []*Method {
	var out []*Method
	for _, meth := range m.Methods {
		if meth.OverLimit != nil {
			out = append(out, meth)
		}
	}
	return out
}

// joinEach renders each of values with lit, joined by ", ".
func joinEach[T any](values []T, lit func(T) string) string {
	var out []string
	for _, v := range values {
		out = append(out, lit(v))
	}
	return strings.Join(out, ", ")
}

// goOverLimit is a method's over-limit answer as an overLimitAnswer
// literal (sdk-go/line_limit.go).
func goOverLimit(o *OverLimit) string {
	var fields []string
	if o.Error != nil {
		fields = append(fields, "err: Code"+pascal(o.Error.Name))
	}
	if o.Cut != nil {
		fields = append(fields, "cut: "+strconv.Quote(o.Cut.Action), "cutAt: []string{"+joinEach(o.Cut.Path, strconv.Quote)+"}")
	}
	if len(o.Keep) > 0 {
		fields = append(fields, "keep: []Action{"+joinEach(o.Keep, func(a string) string { return "Action" + pascal(a) })+"}")
	}
	if o.Result != nil {
		fields = append(fields, "result: map[string]any{"+joinEach(o.Result, func(m Member) string {
			return strconv.Quote(m.Name) + ": " + scalar(m.Value, "true", "false")
		})+"}")
	}
	return "{" + strings.Join(fields, ", ") + "}"
}

// pyOverLimit is a method's over-limit answer as an OverLimit call
// (_methods_gen.py).
func pyOverLimit(o *OverLimit) string {
	var args []string
	if o.Error != nil {
		args = append(args, "error=CODE_"+screaming(o.Error.Name))
	}
	if o.Cut != nil {
		args = append(args, "cut="+quote(o.Cut.Action), "cut_at=("+pyTuple(o.Cut.Path)+")")
	}
	if len(o.Keep) > 0 {
		args = append(args, "keep=("+pyTuple(o.Keep)+")")
	}
	if o.Result != nil {
		args = append(args, "result={"+joinEach(o.Result, func(m Member) string {
			return quote(m.Name) + ": " + scalar(m.Value, "True", "False")
		})+"}")
	}
	return "OverLimit(" + strings.Join(args, ", ") + ")"
}

// tsOverLimit is a method's over-limit answer as an OverLimit object
// literal (methods.gen.ts).
func tsOverLimit(o *OverLimit) string {
	var members []string
	if o.Error != nil {
		members = append(members, "error: ErrorCodes."+pascal(o.Error.Name))
	}
	if o.Cut != nil {
		members = append(members, "cut: "+quote(o.Cut.Action), "cutAt: ["+joinEach(o.Cut.Path, quote)+"]")
	}
	members = append(members, "keep: ["+joinEach(o.Keep, func(a string) string { return "Actions." + pascal(a) })+"]")
	if o.Result != nil {
		members = append(members, "result: { "+joinEach(o.Result, func(m Member) string {
			return tsKey(m.Name) + ": " + scalar(m.Value, "true", "false")
		})+" }")
	}
	return "{ " + strings.Join(members, ", ") + " }"
}

// scalar is a string or boolean as a literal of a language, given its
// words for true and false; a JSON string is a string literal in each.
func scalar(v any, yes, no string) string {
	switch v := v.(type) {
	case bool:
		if v {
			return yes
		}
		return no
	case string:
		return quote(v)
	}
	panic(fmt.Sprintf("no literal for %v", v))
}

// tsTemplate is a template literal of t with expr in its place.
func tsTemplate(t Template, expr string) string {
	escape := func(s string) string {
		s = strings.TrimSuffix(strings.TrimPrefix(quote(s), `"`), `"`)
		s = strings.ReplaceAll(s, `\"`, `"`)
		s = strings.ReplaceAll(s, "`", "\\`")
		return strings.ReplaceAll(s, "${", "\\${")
	}
	return "`" + escape(t.Before) + "${" + expr + "}" + escape(t.After) + "`"
}

// mebibytes says a number of bytes as the docs do: "1 MiB", "300 bytes".
func mebibytes(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
