// Package schema reflects the protocol types into JSON Schema, writes the
// method table beside it, and validates messages against both.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"

	"github.com/hookwire/hookwire/core/protocol"
)

// ID is the schema's $id.
const ID = "https://hookwire.dev/schema/v1/hookwire.schema.json"

// Extra top-level types: reflected for their definitions even though no
// method names them directly.
var extraTypes = []reflect.Type{
	reflect.TypeFor[protocol.Request](),
	reflect.TypeFor[protocol.Notification](),
	reflect.TypeFor[protocol.Response](),
}

// Build reflects every protocol type into one JSON Schema document, with
// comments as the descriptions (keyed as invopop's CommentMap). The output
// is deterministic byte for byte.
func Build(comments map[string]string) ([]byte, error) {
	r := &jsonschema.Reflector{
		AllowAdditionalProperties: true, // a newer peer may add members
		LookupComment:             func(t reflect.Type, field string) string { return describe(comments, t, field) },
		Mapper:                    refEnum,
	}
	defs := jsonschema.Definitions{}
	for t, s := range enums {
		defs[t.Name()] = s
	}
	add := func(name string, s *jsonschema.Schema) error {
		if old, ok := defs[name]; ok {
			a, _ := json.Marshal(old)
			b, _ := json.Marshal(s)
			if !bytes.Equal(a, b) {
				return fmt.Errorf("schema: two different types are named %s", name)
			}
		}
		defs[name] = s
		return nil
	}
	reflectType := func(t reflect.Type) error {
		s := r.ReflectFromType(t)
		for name, d := range s.Definitions {
			if err := add(name, d); err != nil {
				return err
			}
		}
		return nil
	}
	types := append([]reflect.Type{}, extraTypes...)
	for _, m := range protocol.Methods {
		types = append(types, m.Params)
		if m.Variants == nil {
			if m.Result != nil {
				types = append(types, m.Result)
			}
			continue
		}
		for _, v := range m.Variants {
			types = append(types, reflect.TypeOf(v))
		}
	}
	for _, t := range types {
		if err := reflectType(t); err != nil {
			return nil, err
		}
	}
	for name, extend := range extensions {
		extend(defs[name])
	}
	for _, m := range protocol.Methods {
		if m.Variants != nil {
			if err := add(m.Result.Name(), union(m, comments)); err != nil {
				return nil, err
			}
		}
	}
	doc := &jsonschema.Schema{
		Version:     "https://json-schema.org/draft/2020-12/schema",
		ID:          ID,
		Title:       "hookwire protocol, version 1",
		Description: "Messages of the hookwire hook protocol: JSON-RPC 2.0, one message per line over stdio. Every type is in $defs; methods.json says which type each method's params and result are.",
		Definitions: defs,
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// describe is the description of a type, or of one of its fields: its Go doc
// comment, where a field's comment names the field by its JSON name rather
// than its Go name ("for_llm is what the LLM sees", not "ForLLM is ..."),
// because the descriptions become the doc comments of every language.
func describe(comments map[string]string, t reflect.Type, field string) string {
	key := t.PkgPath() + "." + t.Name()
	if field == "" {
		return comments[key]
	}
	doc := comments[key+"."+field]
	f, ok := t.FieldByName(field)
	if !ok {
		return doc
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if rest, ok := strings.CutPrefix(doc, field+" "); ok && name != "" && name != "-" {
		return name + " " + rest
	}
	return doc
}

// union is the definition of a result union: a oneOf over its variants,
// with an OpenAPI-style discriminator hint on action.
func union(m protocol.MethodInfo, comments map[string]string) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Description: comments[m.Result.PkgPath()+"."+m.Result.Name()],
	}
	mapping := map[string]string{}
	for _, v := range m.Variants {
		ref := "#/$defs/" + reflect.TypeOf(v).Name()
		s.OneOf = append(s.OneOf, &jsonschema.Schema{Ref: ref})
		mapping[string(v.ResultAction())] = ref
	}
	s.Extras = map[string]any{"discriminator": map[string]any{"propertyName": "action", "mapping": mapping}}
	return s
}

// MethodEntry is one row of the method table written beside the schema.
type MethodEntry struct {
	Method  string   `json:"method"`
	Kind    string   `json:"kind"` // "request" or "notification"
	Mode    string   `json:"mode,omitempty"`
	Params  string   `json:"params"`
	Result  string   `json:"result,omitempty"`
	Actions []string `json:"actions,omitempty"`
	// OverLimit is what a hook sends instead of a reply of the request
	// longer than the host reads.
	OverLimit *protocol.OverLimit `json:"overLimit,omitempty"`
}

// Table is the document written to methods.json.
type Table struct {
	Version          int               `json:"version"`
	Methods          []MethodEntry     `json:"methods"`
	EventKinds       []string          `json:"eventKinds"`
	LegacyEventKinds map[string]string `json:"legacyEventKinds"`
	HostExtensions   []NamedDoc        `json:"hostExtensions"`
	ErrorCodes       []ErrorCode       `json:"errorCodes"`
	LineLimit        LineLimit         `json:"lineLimit"`
}

// LineLimit is the host's reply line limit when hello says none, and the
// texts of what a hook sends instead of a longer reply.
type LineLimit struct {
	DefaultBytes int    `json:"defaultBytes"`
	Reason       string `json:"reason"`
	CutMarker    string `json:"cutMarker"`
}

// NamedDoc is a name and what it means.
type NamedDoc struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// ErrorCode is a JSON-RPC error code and what it means.
type ErrorCode struct {
	Name string `json:"name"`
	Code int    `json:"code"`
	Doc  string `json:"doc"`
}

// MethodTable is protocol.Methods as JSON, for generators and other languages.
func MethodTable() ([]byte, error) {
	t := Table{Version: protocol.Version, LegacyEventKinds: protocol.LegacyKinds, LineLimit: LineLimit{
		DefaultBytes: protocol.DefaultMaxLineBytes, Reason: protocol.TooLongReason, CutMarker: protocol.CutMarker,
	}}
	for _, m := range protocol.Methods {
		e := MethodEntry{Method: m.Name, Kind: "request", Mode: string(m.Mode), Params: m.Params.Name()}
		if m.Notification {
			e.Kind = "notification"
		}
		if m.Result != nil {
			e.Result = m.Result.Name()
		}
		for _, a := range m.Actions() {
			e.Actions = append(e.Actions, string(a))
		}
		if o, ok := protocol.OverLimits[m.Name]; ok {
			e.OverLimit = &o
		}
		t.Methods = append(t.Methods, e)
	}
	t.EventKinds = protocol.EventKinds
	for _, e := range protocol.HostExtensions {
		t.HostExtensions = append(t.HostExtensions, NamedDoc{e.Name, e.Doc})
	}
	for _, c := range protocol.ErrorCodes {
		t.ErrorCodes = append(t.ErrorCodes, ErrorCode{c.Name, c.Code, c.Doc})
	}
	out, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

var (
	builtOnce sync.Once
	built     []byte
	buildErr  error
)

// JSON is the schema as committed in schema/hookwire.schema.json.
func JSON() ([]byte, error) {
	builtOnce.Do(func() { built, buildErr = Build(comments) })
	return built, buildErr
}
