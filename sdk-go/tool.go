package hookwire

import (
	"cmp"
	"context"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// AddTool declares a plugin tool that h implements itself. The SDK adds its
// definition to the tools of every hook.before_llm request, and answers the
// LLM's calls to it in hook.before_tool with a respond, so that the host
// never runs it. Calls to other tools go to the [Hook.OnBeforeTool] handler,
// or continue untouched.
//
// The tool's parameters are the JSON Schema of In, which must be a struct:
// one parameter per field, named as encoding/json names it; a parameter is
// required unless its json tag says omitempty or omitzero; a desc tag
// describes it to the LLM:
//
//	type forecastArgs struct {
//		City string `json:"city" desc:"City name, e.g.: Beijing"`
//		Days int    `json:"days,omitempty" desc:"How many days ahead"`
//	}
//
// Where a field has no desc tag, its jsonschema tag describes it, as the MCP
// Go SDK reads it (`jsonschema:"How many days ahead"`), or its description
// key in the key=value form of other schema libraries
// (`jsonschema:"description=How many days ahead"`).
//
// Before fn runs, the arguments are checked against that schema and decoded
// into an In. Arguments that do not fit get an is_error result naming the
// argument, and fn is not called; an error or a panic from fn becomes an
// is_error result with its message.
//
// AddTool panics when In is not a struct, when a field's type has no JSON
// form (a channel, a func, a complex number, a recursive type), or when h
// has a tool of that name already.
func AddTool[In any](h *Hook, name, description string, fn func(ctx context.Context, in In) (ToolResult, error)) {
	t := reflect.TypeFor[In]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("hookwire: AddTool(%q): the arguments type %s is not a struct", name, t))
	}
	s, err := shapeOf(t, nil)
	if err != nil {
		panic(fmt.Sprintf("hookwire: AddTool(%q): %v", name, err))
	}
	if fn == nil {
		panic(fmt.Sprintf("hookwire: AddTool(%q): nil func", name))
	}
	parameters, err := json.Marshal(s.schema())
	if err != nil {
		panic(fmt.Sprintf("hookwire: AddTool(%q): %v", name, err))
	}
	if slices.ContainsFunc(h.tools, func(t *tool) bool { return t.name == name }) {
		panic(fmt.Sprintf("hookwire: AddTool(%q): a tool of that name exists already", name))
	}
	h.sdk.beforeLLM, h.sdk.beforeTool = h.runBeforeLLM, h.runBeforeTool
	h.tools = append(h.tools, &tool{
		name: name,
		def: ToolDefinition{
			Type:     "function",
			Function: FunctionDefinition{Name: name, Description: &description, Parameters: parameters},
		},
		call: func(ctx context.Context, args map[string]any) ToolResult {
			if err := s.check(args, ""); err != nil {
				return ErrorText(fmt.Sprintf("invalid arguments for %s: %v", name, err))
			}
			var in In
			if raw, err := json.Marshal(args); err != nil {
				return ErrorText(fmt.Sprintf("invalid arguments for %s: %v", name, err))
			} else if err := json.Unmarshal(raw, &in); err != nil {
				return ErrorText(fmt.Sprintf("invalid arguments for %s: %v", name, err))
			}
			return h.runTool(ctx, name, func(ctx context.Context) (ToolResult, error) { return fn(ctx, in) })
		},
	})
}

// runBeforeLLM is the SDK's handler of hook.before_llm while the hook has
// tools: it adds their definitions to the request, after the registered
// handler.
func (h *Hook) runBeforeLLM(ctx context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
	var res BeforeLLMResult = Continue{}
	if h.user.beforeLLM != nil {
		var err error
		if res, err = h.user.beforeLLM(ctx, req); err != nil {
			return nil, err
		}
	}
	switch r := res.(type) {
	case nil, Continue:
		return BeforeLLMModify{Request: h.withTools(req)}, nil
	case BeforeLLMModify:
		r.Request = h.withTools(r.Request)
		return r, nil
	}
	return res, nil // an abort stays an abort
}

// runBeforeTool is the SDK's handler of hook.before_tool while the hook has
// tools: it answers the calls to them, and hands the others to the
// registered handler.
func (h *Hook) runBeforeTool(ctx context.Context, call BeforeToolParams) (BeforeToolResult, error) {
	for _, t := range h.tools {
		if t.name == call.Tool {
			return Respond{Result: t.call(ctx, call.Arguments)}, nil
		}
	}
	if h.user.beforeTool != nil {
		return h.user.beforeTool(ctx, call)
	}
	return Continue{}, nil
}

type tool struct {
	name string
	def  ToolDefinition
	call func(ctx context.Context, args map[string]any) ToolResult
}

// runTool runs a tool's function; whatever way it fails, the LLM gets an
// is_error result and the turn goes on.
func (h *Hook) runTool(ctx context.Context, name string, fn func(context.Context) (ToolResult, error)) (res ToolResult) {
	defer func() {
		if v := recover(); v != nil {
			h.logger().Error("tool panicked", "tool", name, "panic", v, "stack", string(debug.Stack()))
			res = ErrorText(fmt.Sprintf("%s failed: panic: %v", name, v))
		}
	}()
	res, err := fn(ctx)
	if err != nil {
		h.logger().Error("tool failed", "tool", name, "err", err)
		return ErrorText(err.Error())
	}
	return res
}

// withTools is req with the hook's tools appended to a copy of its tools,
// except those it lists already.
func (h *Hook) withTools(req BeforeLLMParams) BeforeLLMParams {
	tools := slices.Clip(req.Tools)
	for _, t := range h.tools {
		if !slices.ContainsFunc(req.Tools, func(d ToolDefinition) bool { return d.Function.Name == t.name }) {
			tools = append(tools, t.def)
		}
	}
	req.Tools = tools
	return req
}

// shape is the JSON form of a Go type: what the tool's schema says and
// what its arguments are checked against.
type shape struct {
	kind   string // a JSON Schema type; "" accepts any value
	items  *shape // of an array
	values *shape // of an object that is a Go map
	fields []shapeField
}

type shapeField struct {
	name     string
	desc     string
	required bool
	shape    *shape
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// shapeOf follows encoding/json's rules for t. open lists the structs being
// walked, to catch a recursive type, which no finite schema describes.
func shapeOf(t reflect.Type, open []reflect.Type) (*shape, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	ptr := reflect.PointerTo(t)
	switch {
	case t == rawMessageType:
		return &shape{}, nil
	case ptr.Implements(textUnmarshaler):
		return &shape{kind: "string"}, nil // time.Time, netip.Addr, ...
	case ptr.Implements(jsonUnmarshaler):
		return &shape{}, nil // its own JSON form, which reflection cannot see
	}
	switch t.Kind() {
	case reflect.String:
		return &shape{kind: "string"}, nil
	case reflect.Bool:
		return &shape{kind: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &shape{kind: "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return &shape{kind: "number"}, nil
	case reflect.Interface:
		return &shape{}, nil
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return &shape{kind: "string"}, nil // base64, as encoding/json writes []byte
		}
		items, err := shapeOf(t.Elem(), open)
		if err != nil {
			return nil, err
		}
		return &shape{kind: "array", items: items}, nil
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			return nil, fmt.Errorf("%s: a map key must be a string or an integer", t)
		}
		values, err := shapeOf(t.Elem(), open)
		if err != nil {
			return nil, err
		}
		return &shape{kind: "object", values: values}, nil
	case reflect.Struct:
		if slices.Contains(open, t) {
			return nil, fmt.Errorf("%s is recursive", t)
		}
		s := &shape{kind: "object"}
		if err := addFields(s, t, append(open, t)); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s has no JSON form", t)
}

// addFields adds the fields of struct t to s; the fields of an embedded
// struct without a json name are promoted, as encoding/json does.
func addFields(s *shape, t reflect.Type, open []reflect.Type) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if err := addFields(s, et, open); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		fs, err := shapeOf(f.Type, open)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		optional := slices.Contains(strings.Split(opts, ","), "omitempty") || slices.Contains(strings.Split(opts, ","), "omitzero")
		s.fields = append(s.fields, shapeField{
			name:     cmp.Or(name, f.Name),
			desc:     description(f.Tag),
			required: !optional,
			shape:    fs,
		})
	}
	return nil
}

// schema is the JSON Schema of s.
func (s *shape) schema() map[string]any {
	m := map[string]any{}
	if s.kind != "" {
		m["type"] = s.kind
	}
	switch {
	case s.items != nil:
		m["items"] = s.items.schema()
	case s.values != nil:
		m["additionalProperties"] = s.values.schema()
	case s.kind == "object":
		props := map[string]any{}
		var names []string
		for _, f := range s.fields {
			p := f.shape.schema()
			if f.desc != "" {
				p["description"] = f.desc
			}
			props[f.name] = p
			if f.required {
				names = append(names, f.name)
			}
		}
		m["properties"] = props
		if len(names) > 0 {
			m["required"] = names
		}
	}
	return m
}

// check says why v, decoded JSON found at the argument path at, does not
// fit s; nil if it does.
func (s *shape) check(v any, at string) error {
	if s.kind == "" {
		return nil
	}
	if v == nil {
		return mismatch(s.kind, v, at)
	}
	switch s.kind {
	case "string":
		if _, ok := v.(string); !ok {
			return mismatch(s.kind, v, at)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return mismatch(s.kind, v, at)
		}
	case "number":
		if _, ok := number(v); !ok {
			return mismatch(s.kind, v, at)
		}
	case "integer":
		if f, ok := number(v); !ok || f != math.Trunc(f) || math.IsInf(f, 0) {
			return mismatch(s.kind, v, at)
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			return mismatch(s.kind, v, at)
		}
		for i, item := range items {
			if err := s.items.check(item, at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return mismatch(s.kind, v, at)
		}
		if s.values != nil {
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				if err := s.values.check(obj[k], join(at, k)); err != nil {
					return err
				}
			}
			return nil
		}
		for _, f := range s.fields {
			fv, present := obj[f.name]
			switch {
			case !present && f.required:
				return fmt.Errorf("argument %q is missing", join(at, f.name))
			case !present, fv == nil && !f.required:
			default:
				if err := f.shape.check(fv, join(at, f.name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

func mismatch(kind string, v any, at string) error {
	if at == "" {
		return fmt.Errorf("the arguments must be an object, not %s", describe(v))
	}
	article := "a"
	if kind == "integer" || kind == "array" || kind == "object" {
		article = "an"
	}
	return fmt.Errorf("argument %q must be %s %s, not %s", at, article, kind, describe(v))
}

// describe names a decoded JSON value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	if f, ok := number(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprintf("%T", v)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint()), true
	case reflect.Float32:
		return rv.Float(), true
	}
	return 0, false
}

// description is what a field's tags say of it: the desc tag, else the
// jsonschema tag.
func description(tag reflect.StructTag) string {
	if d, ok := tag.Lookup("desc"); ok {
		return d
	}
	js := tag.Get("jsonschema")
	if !isKeyValue(js) {
		return js // the MCP Go SDK's form: the whole tag is the description
	}
	// key=value pairs split at commas, a comma in a value escaped as \,
	for _, part := range splitUnescaped(js) {
		if d, ok := strings.CutPrefix(part, "description="); ok {
			return strings.ReplaceAll(d, `\,`, ",")
		}
	}
	return ""
}

// isKeyValue is true for a jsonschema tag of key=value pairs: it starts
// with a word and "=".
func isKeyValue(tag string) bool {
	key, _, ok := strings.Cut(tag, "=")
	return ok && key != "" && strings.Trim(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_") == ""
}

// splitUnescaped splits s at the commas that no backslash escapes.
func splitUnescaped(s string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == ',' && (i == 0 || s[i-1] != '\\') {
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}
