package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Model is the protocol as the renderers see it: every named type of the
// schema, classified, with references resolved, plus the method table.
type Model struct {
	Title       string
	Description string
	Version     int
	// Sources are the input files, as the generated headers name them.
	Sources []string
	// Types are the $defs, by name.
	Types []*Type
	// Methods are the rows of the method table, in its order.
	Methods []*Method
	// EventKinds are the runtime event kinds, in table order.
	EventKinds []string
	// LegacyEventKinds map each legacy kind to its runtime kind, by legacy kind.
	LegacyEventKinds []LegacyKind
	// Extensions are the types and fields that hookwire adds to the documents.
	Extensions []Extension
	// HostExtensions are what a host may list in hook.hello, in table order.
	HostExtensions []HostExtension
	// ErrorCodes are the JSON-RPC error codes, in table order.
	ErrorCodes []ErrorCode
	// Examples are each method's messages, from the valid test vectors
	// next to the schema; none when there are none.
	Examples []Example
}

// Kind is what a named type is.
type Kind int

const (
	// Object is a JSON object with known members; others are kept.
	Object Kind = iota
	// Enum is a string with a known set of values.
	Enum
	// Union is one of several object types, told apart by a tag member.
	Union
)

// Type is a $defs entry.
type Type struct {
	Name      string
	Doc       string
	Kind      Kind
	Extension string
	// Fields are an Object's members, in schema order.
	Fields []*Field
	// Values are an Enum's values.
	Values []string
	// Tag is the member whose value selects a Union's variant.
	Tag string
	// Variants are a Union's alternatives, in schema order.
	Variants []*Variant
	// Unions are the unions an Object is a variant of, by name.
	Unions []*Type
}

// Variant is one alternative of a union.
type Variant struct {
	Type *Type
	// Tags are the tag values that select it; "" may be one.
	Tags []string
	// Absent is true when the variant's tag member is optional, so that a
	// value without the tag is this variant.
	Absent bool
}

// Field is a member of an object.
type Field struct {
	Name      string
	Doc       string
	Type      *Ref
	Required  bool
	Extension string
}

// RefKind is the shape of a field's value.
type RefKind int

const (
	String RefKind = iota
	Integer
	Number
	Boolean
	// Any is any JSON value, null included.
	Any
	Array
	// Map is an object with arbitrary keys, all of one value type.
	Map
	// Named is a $defs type.
	Named
)

// Ref is the type of a value.
type Ref struct {
	Kind RefKind
	// Elem is the element type of an Array or Map.
	Elem *Ref
	// Type is the referenced type of Named.
	Type *Type
	// Nullable is true when null is allowed besides the type.
	Nullable bool
	// Consts, when set, are the only values allowed, as JSON literals of
	// a String or Integer: `"abort_turn"`, `0`.
	Consts []string
}

// Method is a row of the method table.
type Method struct {
	Name         string
	Notification bool
	// Mode is the hello mode that receives the method; "" for none.
	Mode    string
	Params  *Type
	Result  *Type // nil for a notification
	Actions []string
}

// LegacyKind pairs an old observe kind with its runtime event kind.
type LegacyKind struct{ Legacy, Kind string }

// Extension is a type, or a field of a type, that hookwire adds to the
// protocol of the source documents.
type Extension struct {
	Type, Field, Why string
}

// HostExtension is a behaviour a host announces in hook.hello.
type HostExtension struct{ Name, Doc string }

// ErrorCode is a JSON-RPC error code of the protocol.
type ErrorCode struct {
	Name string
	Code int64
	Doc  string
}

// The method table's modes and actions are values of these enums.
const (
	modeEnum   = "Mode"
	actionEnum = "Action"
)

// Load reads the schema and the method table into a model. It fails on any
// shape it cannot render faithfully in every language, naming where.
func Load(schemaJSON, methodsJSON []byte, sources ...string) (*Model, error) {
	var root schema
	if err := json.Unmarshal(schemaJSON, &root); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	var table methodTable
	if err := json.Unmarshal(methodsJSON, &table); err != nil {
		return nil, fmt.Errorf("method table: %w", err)
	}
	m := &Model{Title: root.Title, Description: root.Description, Version: table.Version, Sources: sources}
	byName := map[string]*Type{}
	for _, name := range slices.Sorted(maps.Keys(root.Defs)) {
		t, err := newType(name, root.Defs[name])
		if err != nil {
			return nil, fmt.Errorf("$defs/%s: %w", name, err)
		}
		m.Types = append(m.Types, t)
		byName[name] = t
	}
	var errs []error
	// Objects first: a union reads its variants' fields.
	for _, kind := range []Kind{Object, Union} {
		for _, t := range m.ofKind(kind) {
			if err := resolve(t, root.Defs[t.Name], byName); err != nil {
				errs = append(errs, fmt.Errorf("$defs/%s: %w", t.Name, err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := m.loadMethods(&table, byName); err != nil {
		return nil, fmt.Errorf("method table: %w", err)
	}
	if err := m.loadConstants(&table); err != nil {
		return nil, fmt.Errorf("method table: %w", err)
	}
	for _, t := range m.Types {
		if t.Extension != "" {
			m.Extensions = append(m.Extensions, Extension{Type: t.Name, Why: t.Extension})
		}
		for _, f := range t.Fields {
			if f.Extension != "" {
				m.Extensions = append(m.Extensions, Extension{Type: t.Name, Field: f.Name, Why: f.Extension})
			}
		}
	}
	return m, nil
}

// newType classifies a $defs entry; references are resolved later.
func newType(name string, s *schema) (*Type, error) {
	t := &Type{Name: name, Doc: s.Description, Extension: s.Extension}
	switch {
	case s.Discriminator != nil:
		t.Kind = Union
		t.Tag = s.Discriminator.PropertyName
		if t.Tag == "" || len(s.OneOf) == 0 || s.Type != "" || s.Properties != nil {
			return nil, errors.New("a union is a oneOf of $refs with a discriminator propertyName, and nothing else")
		}
	case len(s.OneOf) > 0 && s.Type != "object":
		return nil, errors.New("a oneOf needs a discriminator: variants are told apart by a tag, never by trying each in turn")
	case s.Type == "object":
		t.Kind = Object
		for _, alt := range s.OneOf {
			// An object's oneOf of required sets (Response: result or
			// error) only validates; it does not change the type.
			if alt.Ref != "" || alt.Type != "" || alt.Properties != nil {
				return nil, errors.New("an object's oneOf may only list required members")
			}
		}
		if s.AdditionalProperties != nil && s.Properties == nil {
			return nil, errors.New("a map must be a property's type, not a named type")
		}
	case s.Type == "string" && len(s.Enum) > 0:
		t.Kind = Enum
		for _, v := range s.Enum {
			var str string
			if err := json.Unmarshal(v, &str); err != nil {
				return nil, fmt.Errorf("enum value %s is not a string", v)
			}
			t.Values = append(t.Values, str)
		}
	default:
		return nil, errors.New("a named type must be an object, a string enum or a discriminated union")
	}
	if len(s.AllOf) > 0 || len(s.AnyOf) > 0 {
		return nil, errors.New("allOf and anyOf are only supported as {T, null} on a property")
	}
	return t, nil
}

func resolve(t *Type, s *schema, byName map[string]*Type) error {
	switch t.Kind {
	case Object:
		if s.Properties == nil {
			return nil
		}
		for _, name := range s.Properties.names {
			p := s.Properties.schemas[name]
			ref, err := newRef(p, byName)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			t.Fields = append(t.Fields, &Field{
				Name: name, Doc: p.Description, Type: ref,
				Required:  slices.Contains(s.Required, name),
				Extension: p.Extension,
			})
		}
	case Union:
		return resolveUnion(t, s, byName)
	}
	return nil
}

func resolveUnion(u *Type, s *schema, byName map[string]*Type) error {
	seen := map[string]string{}
	for _, alt := range s.OneOf {
		vt, err := named(alt.Ref, byName)
		if err != nil {
			return err
		}
		if vt.Kind != Object {
			return fmt.Errorf("variant %s is not an object", vt.Name)
		}
		i := slices.IndexFunc(vt.Fields, func(f *Field) bool { return f.Name == u.Tag })
		if i < 0 || vt.Fields[i].Type.Kind != String || len(vt.Fields[i].Type.Consts) == 0 {
			return fmt.Errorf("variant %s: its %s must be a string const or enum", vt.Name, u.Tag)
		}
		tag := vt.Fields[i]
		v := &Variant{Type: vt, Absent: !tag.Required}
		for _, c := range tag.Type.Consts {
			var value string
			_ = json.Unmarshal([]byte(c), &value)
			if other, dup := seen[value]; dup {
				return fmt.Errorf("%s %q selects both %s and %s", u.Tag, value, other, vt.Name)
			}
			seen[value] = vt.Name
			v.Tags = append(v.Tags, value)
		}
		if v.Absent {
			if other, dup := seen["\x00absent"]; dup {
				return fmt.Errorf("both %s and %s may omit %s", other, vt.Name, u.Tag)
			}
			seen["\x00absent"] = vt.Name
		}
		u.Variants = append(u.Variants, v)
		vt.Unions = append(vt.Unions, u)
	}
	for value, ref := range s.Discriminator.Mapping {
		if seen[value] != strings.TrimPrefix(ref, "#/$defs/") {
			return fmt.Errorf("discriminator maps %q to %s, but the variants say %s", value, ref, seen[value])
		}
	}
	return nil
}

func named(ref string, byName map[string]*Type) (*Type, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only #/$defs/ references are supported", ref)
	}
	t, ok := byName[name]
	if !ok {
		return nil, fmt.Errorf("$ref %q: no such type", ref)
	}
	return t, nil
}

// newRef reads a property's schema.
func newRef(s *schema, byName map[string]*Type) (*Ref, error) {
	switch {
	case s.Ref != "":
		t, err := named(s.Ref, byName)
		if err != nil {
			return nil, err
		}
		if t.Kind == Union {
			return nil, fmt.Errorf("union %s as a member type is not supported", t.Name)
		}
		return &Ref{Kind: Named, Type: t}, nil
	case len(s.AnyOf) > 0:
		// {T, null} is T or null; any other anyOf is not a type.
		if len(s.AnyOf) == 2 {
			for i, alt := range s.AnyOf {
				if alt.Type == "null" {
					r, err := newRef(s.AnyOf[1-i], byName)
					if err != nil {
						return nil, err
					}
					r.Nullable = true
					return r, nil
				}
			}
		}
		return nil, errors.New("anyOf is only supported as {T, null}")
	case len(s.OneOf) > 0 || len(s.AllOf) > 0:
		return nil, errors.New("oneOf and allOf are only supported on named types")
	case s.Const != nil:
		return literals(s.Type, []json.RawMessage{s.Const})
	case len(s.Enum) > 0:
		return literals(s.Type, s.Enum)
	}
	switch s.Type {
	case "":
		return &Ref{Kind: Any}, nil
	case "string":
		return &Ref{Kind: String}, nil
	case "integer":
		return &Ref{Kind: Integer}, nil
	case "number":
		return &Ref{Kind: Number}, nil
	case "boolean":
		return &Ref{Kind: Boolean}, nil
	case "array":
		if s.Items == nil {
			return &Ref{Kind: Array, Elem: &Ref{Kind: Any}}, nil
		}
		elem, err := newRef(s.Items, byName)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		return &Ref{Kind: Array, Elem: elem}, nil
	case "object":
		if s.Properties != nil {
			return nil, errors.New("an object with properties must be a named type in $defs")
		}
		if s.AdditionalProperties == nil {
			return &Ref{Kind: Map, Elem: &Ref{Kind: Any}}, nil
		}
		elem, err := newRef(s.AdditionalProperties, byName)
		if err != nil {
			return nil, fmt.Errorf("additionalProperties: %w", err)
		}
		return &Ref{Kind: Map, Elem: elem}, nil
	}
	return nil, fmt.Errorf("type %q is not supported", s.Type)
}

// literals is a const or an inline enum: a string or integer type that
// allows only the values listed.
func literals(typ string, values []json.RawMessage) (*Ref, error) {
	r := &Ref{}
	for _, v := range values {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return nil, err
		}
		kind := Integer
		if _, ok := x.(string); ok {
			kind = String
		} else if f, ok := x.(float64); !ok || f != float64(int64(f)) {
			return nil, fmt.Errorf("const %s: only strings and integers are supported", v)
		}
		if len(r.Consts) > 0 && kind != r.Kind {
			return nil, errors.New("consts of mixed types are not supported")
		}
		if typ != "" && typ != map[RefKind]string{String: "string", Integer: "integer"}[kind] {
			return nil, fmt.Errorf("const %s does not match type %q", v, typ)
		}
		r.Kind = kind
		lit, _ := json.Marshal(x)
		r.Consts = append(r.Consts, string(lit))
	}
	return r, nil
}

func (m *Model) loadMethods(table *methodTable, byName map[string]*Type) error {
	enumValues := func(enum string) []string {
		if t := byName[enum]; t != nil && t.Kind == Enum {
			return t.Values
		}
		return nil
	}
	for _, row := range table.Methods {
		meth := &Method{Name: row.Method, Mode: row.Mode, Actions: row.Actions}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s: %s", row.Method, fmt.Sprintf(format, args...))
		}
		switch row.Kind {
		case "request":
		case "notification":
			meth.Notification = true
		default:
			return fail("kind %q is neither request nor notification", row.Kind)
		}
		if row.Mode != "" && !slices.Contains(enumValues(modeEnum), row.Mode) {
			return fail("mode %q is not a value of $defs/%s", row.Mode, modeEnum)
		}
		var err error
		if meth.Params, err = named("#/$defs/"+row.Params, byName); err != nil {
			return fail("params: %v", err)
		}
		if meth.Params.Kind != Object {
			return fail("params %s is not an object", row.Params)
		}
		if meth.Notification != (row.Result == "") {
			return fail("a request has a result and a notification has none")
		}
		if row.Result != "" {
			if meth.Result, err = named("#/$defs/"+row.Result, byName); err != nil {
				return fail("result: %v", err)
			}
		}
		if err := checkActions(meth, enumValues(actionEnum)); err != nil {
			return fail("%v", err)
		}
		m.Methods = append(m.Methods, meth)
	}
	m.EventKinds = table.EventKinds
	for _, legacy := range slices.Sorted(maps.Keys(table.LegacyEventKinds)) {
		m.LegacyEventKinds = append(m.LegacyEventKinds, LegacyKind{legacy, table.LegacyEventKinds[legacy]})
	}
	return nil
}

// loadConstants reads the host extensions and the error codes, which
// every language renders as named constants.
func (m *Model) loadConstants(table *methodTable) error {
	ext := names{list: "hostExtensions"}
	for _, e := range table.HostExtensions {
		if err := ext.add(e.Name); err != nil {
			return err
		}
		m.HostExtensions = append(m.HostExtensions, HostExtension{e.Name, e.Doc})
	}
	codes := names{list: "errorCodes"}
	seen := map[int64]string{}
	for _, c := range table.ErrorCodes {
		if err := codes.add(c.Name); err != nil {
			return err
		}
		code, err := strconv.ParseInt(string(c.Code), 10, 64)
		if err != nil {
			return fmt.Errorf("errorCodes: %s: code %s is not an integer", c.Name, cmp.Or(string(c.Code), "(absent)"))
		}
		if other, dup := seen[code]; dup {
			return fmt.Errorf("errorCodes: %s and %s are both %d", other, c.Name, code)
		}
		seen[code] = c.Name
		m.ErrorCodes = append(m.ErrorCodes, ErrorCode{c.Name, code, c.Doc})
	}
	return nil
}

// names checks that the names of one list give distinct identifiers in
// every language: "a.b" and "a_b" are both AB in Go, "ABC" and "abc" are
// both ABC in Python.
type names struct {
	list string
	seen map[string]string
}

func (n *names) add(name string) error {
	ws := words(name)
	if len(ws) == 0 || !unicode.IsLetter([]rune(ws[0])[0]) {
		return fmt.Errorf("%s: %q does not start with a letter, so it names no constant", n.list, name)
	}
	if n.seen == nil {
		n.seen = map[string]string{}
	}
	for _, id := range []struct{ lang, name string }{{"Go", pascal(name)}, {"Python", screaming(name)}} {
		key := id.lang + " " + id.name
		if other, dup := n.seen[key]; dup {
			if other == name {
				return fmt.Errorf("%s: %q is listed twice", n.list, name)
			}
			return fmt.Errorf("%s: %q and %q are both %s in %s", n.list, other, name, id.name, id.lang)
		}
		n.seen[key] = name
	}
	return nil
}

// checkActions holds the table's actions to the result union: the same
// set, every one a value of the Action enum.
func checkActions(meth *Method, known []string) error {
	if meth.Result == nil || meth.Result.Kind != Union {
		if len(meth.Actions) > 0 {
			return errors.New("actions are listed, but the result is not a union")
		}
		return nil
	}
	var tags []string
	for _, v := range meth.Result.Variants {
		for _, tag := range v.Tags {
			if tag != "" {
				tags = append(tags, tag)
			}
		}
	}
	for _, a := range meth.Actions {
		if !slices.Contains(known, a) {
			return fmt.Errorf("action %q is not a value of $defs/%s", a, actionEnum)
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(tags)), slices.Sorted(slices.Values(meth.Actions))) {
		return fmt.Errorf("actions %v differ from the %s values of %s %v", meth.Actions, meth.Result.Tag, meth.Result.Name, tags)
	}
	return nil
}

// Type returns the named type, or nil.
func (m *Model) Type(name string) *Type {
	i := slices.IndexFunc(m.Types, func(t *Type) bool { return t.Name == name })
	if i < 0 {
		return nil
	}
	return m.Types[i]
}

// Objects, Enums and Unions list the types of one kind, by name.
func (m *Model) Objects() []*Type { return m.ofKind(Object) }
func (m *Model) Enums() []*Type   { return m.ofKind(Enum) }
func (m *Model) Unions() []*Type  { return m.ofKind(Union) }

func (m *Model) ofKind(k Kind) []*Type {
	var out []*Type
	for _, t := range m.Types {
		if t.Kind == k {
			out = append(out, t)
		}
	}
	return out
}

// Ordered lists the types so that each comes after the types its fields
// and variants refer to, alphabetically where that leaves a choice, for
// languages that must define a name before they use it (Python).
func (m *Model) Ordered() ([]*Type, error) {
	var out []*Type
	state := map[*Type]int{} // 1 visiting, 2 done
	var visit func(t *Type, path []string) error
	visit = func(t *Type, path []string) error {
		switch state[t] {
		case 1:
			return fmt.Errorf("types refer to each other in a cycle: %s", strings.Join(append(path, t.Name), " -> "))
		case 2:
			return nil
		}
		state[t] = 1
		for _, d := range t.deps() {
			if err := visit(d, append(path, t.Name)); err != nil {
				return err
			}
		}
		state[t] = 2
		out = append(out, t)
		return nil
	}
	for _, t := range m.Types {
		if err := visit(t, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (t *Type) deps() []*Type {
	var out []*Type
	for _, f := range t.Fields {
		for r := f.Type; r != nil; r = r.Elem {
			if r.Type != nil {
				out = append(out, r.Type)
			}
		}
	}
	for _, v := range t.Variants {
		out = append(out, v.Type)
	}
	return out
}

// TagValues are the tag values of a union, in variant order.
func (t *Type) TagValues() []string {
	var out []string
	for _, v := range t.Variants {
		out = append(out, v.Tags...)
	}
	return out
}

// AbsentVariant is the variant a union value without a tag is, or nil.
func (t *Type) AbsentVariant() *Variant {
	for _, v := range t.Variants {
		if v.Absent {
			return v
		}
	}
	return nil
}

// Method returns the method whose result is the type, or nil.
func (m *Model) resultOf(t *Type) *Method {
	for _, meth := range m.Methods {
		if meth.Result == t {
			return meth
		}
	}
	return nil
}
