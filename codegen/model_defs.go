package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Reading the schema's $defs into the model's types: each entry classified,
// then its members and variants resolved.

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
