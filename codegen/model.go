package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
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
	// LineLimit is the host's reply line limit when hello says none, and
	// what goes instead of a longer reply.
	LineLimit LineLimit
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
	if err := m.loadLineLimit(&table); err != nil {
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
