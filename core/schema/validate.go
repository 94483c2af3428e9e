package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/protocol"
)

// ValidationError says where a message breaks the schema and which rule it breaks.
type ValidationError struct {
	// Path is the JSON Pointer of the fault within the message ("" is the whole message).
	Path string
	// Rule is the schema keyword broken, such as "required", "type" or "const",
	// or "json", "method" or "action" for faults found before the schema applies.
	Rule string
	// Message says what is wrong, in one line.
	Message string
}

func (e *ValidationError) Error() string {
	path := e.Path
	if path == "" {
		path = "(message)"
	}
	return fmt.Sprintf("%s: %s (rule %s)", path, e.Message, e.Rule)
}

// Validator checks messages against the schema, by method.
type Validator struct {
	defs map[string]*jsonschema.Schema
}

// NewValidator compiles the schema.
func NewValidator() (*Validator, error) {
	doc, err := JSON()
	if err != nil {
		return nil, err
	}
	var names struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(doc, &names); err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(ID, bytes.NewReader(doc)); err != nil {
		return nil, err
	}
	v := &Validator{defs: map[string]*jsonschema.Schema{}}
	for name := range names.Defs {
		s, err := c.Compile(ID + "#/$defs/" + name)
		if err != nil {
			return nil, fmt.Errorf("schema: compile %s: %w", name, err)
		}
		v.defs[name] = s
	}
	return v, nil
}

// Validate checks one whole JSON-RPC message. A request or notification
// names its method; a response does not, so method must say what it answers.
// It gives the first of Faults.
func (v *Validator) Validate(message []byte, method string) error {
	return first(v.Faults(message, method))
}

// Faults checks one whole JSON-RPC message as Validate does, but goes on
// past a fault: every rule the message breaks, each once, in the order
// Validate meets them (the envelope, the method, then the params or the
// result). None means the message is valid.
func (v *Validator) Faults(message []byte, method string) []*ValidationError {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(message, &msg); err != nil {
		return []*ValidationError{{Rule: "json", Message: "not a JSON object: " + err.Error()}}
	}
	rawMethod, isCall := msg["method"]
	if !isCall {
		if faults := v.DefFaults("Response", message); len(faults) > 0 {
			return faults
		}
		if _, failed := msg["error"]; failed {
			return nil
		}
		if method == "" {
			return []*ValidationError{{Rule: "method", Message: "a response names no method: say which method it answers"}}
		}
		return within("/result", v.ResultFaults(method, msg["result"]))
	}
	id, hasID := msg["id"]
	notification := !hasID || string(bytes.TrimSpace(id)) == "0"
	envelope := "Request"
	if notification {
		envelope = "Notification"
	}
	faults := v.DefFaults(envelope, message)
	var name string
	if err := json.Unmarshal(rawMethod, &name); err != nil {
		return append(faults, &ValidationError{Path: "/method", Rule: "type", Message: "method is not a string"})
	}
	if method != "" && method != name {
		return append(faults, &ValidationError{Path: "/method", Rule: "method", Message: fmt.Sprintf("method is %q, expected %q", name, method)})
	}
	m, ok := protocol.Lookup(name)
	switch {
	case !ok:
		return append(faults, unknownMethod("/method", name))
	case m.Notification && !notification:
		faults = append(faults, &ValidationError{Path: "/id", Rule: "method", Message: name + " is a notification and must not carry an id"})
	case !m.Notification && notification:
		faults = append(faults, &ValidationError{Path: "/id", Rule: "method", Message: name + " is a request and needs an id"})
	}
	params, ok := msg["params"]
	if !ok {
		return append(faults, &ValidationError{Path: "/params", Rule: "required", Message: "params are missing"})
	}
	return append(faults, within("/params", v.DefFaults(m.Params.Name(), params))...)
}

// unknownMethod is the fault of a method name the protocol does not have,
// with the nearest that it has.
func unknownMethod(path, name string) *ValidationError {
	names := make([]string, len(protocol.Methods))
	for i, m := range protocol.Methods {
		names[i] = m.Name
	}
	return &ValidationError{Path: path, Rule: "method", Message: fmt.Sprintf("unknown method %q%s", name, cli.DidYouMean(name, names))}
}

// ValidateParams checks the params of a call to method.
func (v *Validator) ValidateParams(method string, params []byte) error {
	return first(v.ParamsFaults(method, params))
}

// ParamsFaults is ValidateParams that gives every rule the params break,
// each once.
func (v *Validator) ParamsFaults(method string, params []byte) []*ValidationError {
	m, ok := protocol.Lookup(method)
	if !ok {
		return []*ValidationError{unknownMethod("", method)}
	}
	return v.DefFaults(m.Params.Name(), params)
}

// ValidateResult checks the result of a call to method. A result that is a
// union on action is checked against the variant its action selects, so the
// error names that variant's rule and not every branch of the union.
func (v *Validator) ValidateResult(method string, result []byte) error {
	return first(v.ResultFaults(method, result))
}

// ResultFaults is ValidateResult that gives every rule the result breaks,
// each once.
func (v *Validator) ResultFaults(method string, result []byte) []*ValidationError {
	m, ok := protocol.Lookup(method)
	if !ok {
		return []*ValidationError{unknownMethod("", method)}
	}
	if m.Notification {
		return []*ValidationError{{Rule: "method", Message: method + " is a notification and has no result"}}
	}
	if m.Variants == nil {
		return v.DefFaults(m.Result.Name(), result)
	}
	var head map[string]json.RawMessage
	if err := json.Unmarshal(result, &head); err != nil || head == nil {
		return []*ValidationError{{Rule: "type", Message: "result is not a JSON object"}}
	}
	action := protocol.ActionContinue
	if raw, ok := head["action"]; ok {
		var a string
		if err := json.Unmarshal(raw, &a); err != nil {
			return []*ValidationError{{Path: "/action", Rule: "type", Message: "action is not a string"}}
		}
		if a != "" {
			action = protocol.Action(a)
		}
	}
	for _, variant := range m.Variants {
		if variant.ResultAction() == action {
			return v.DefFaults(reflect.TypeOf(variant).Name(), result)
		}
	}
	allowed := make([]string, 0, len(m.Variants))
	for _, a := range m.Actions() {
		allowed = append(allowed, string(a))
	}
	return []*ValidationError{{Path: "/action", Rule: "action",
		Message: fmt.Sprintf("action %q is not allowed in %s (allowed: %s)", action, method, strings.Join(allowed, ", "))}}
}

// ValidateDef checks a value against one type of the schema's $defs.
func (v *Validator) ValidateDef(name string, value []byte) error {
	return first(v.DefFaults(name, value))
}

// DefFaults is ValidateDef that gives every rule the value breaks, each
// once, by path: the library's tree lists the members of an object in no
// fixed order. The first is what ValidateDef says.
func (v *Validator) DefFaults(name string, value []byte) []*ValidationError {
	s, ok := v.defs[name]
	if !ok {
		return []*ValidationError{{Rule: "def", Message: fmt.Sprintf("no type %q in the schema", name)}}
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return []*ValidationError{{Rule: "json", Message: "not JSON: " + err.Error()}}
	}
	err := s.Validate(doc)
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		var out []*ValidationError
		for _, f := range leaves(ve) {
			if !slices.ContainsFunc(out, func(g *ValidationError) bool { return *g == *f }) {
				out = append(out, f)
			}
		}
		slices.SortStableFunc(out, func(a, b *ValidationError) int { return strings.Compare(a.Path, b.Path) })
		return out
	}
	if err != nil {
		return []*ValidationError{{Rule: "schema", Message: err.Error()}}
	}
	return nil
}

// leaves are the rules broken under ve: each branch where the library's
// tree forks, down to its leaf, except where one of several alternatives
// had to match, which is one fault (simplify).
func leaves(ve *jsonschema.ValidationError) []*ValidationError {
	if len(ve.Causes) == 0 || len(ve.Causes) > 1 && isCombinator(ve.KeywordLocation) {
		return []*ValidationError{simplify(ve)}
	}
	var out []*ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// first is the first fault as an error, or nil.
func first(faults []*ValidationError) error {
	if len(faults) == 0 {
		return nil
	}
	return faults[0]
}

var missing = regexp.MustCompile(`missing propert(?:y|ies): '([^']+)'`)

// simplify reduces the library's error tree to the one rule broken: the
// first leaf, or a oneOf/anyOf node itself when several branches failed.
func simplify(ve *jsonschema.ValidationError) *ValidationError {
	for len(ve.Causes) == 1 || (len(ve.Causes) > 1 && !isCombinator(ve.KeywordLocation)) {
		ve = ve.Causes[0]
	}
	rule := ve.KeywordLocation[strings.LastIndexByte(ve.KeywordLocation, '/')+1:]
	out := &ValidationError{Path: ve.InstanceLocation, Rule: rule, Message: ve.Message}
	if m := missing.FindStringSubmatch(ve.Message); m != nil {
		out.Path += "/" + m[1]
		out.Message = "required member " + m[1] + " is missing"
	}
	if strings.HasSuffix(ve.KeywordLocation, "/oneOf") && len(ve.Causes) == 0 {
		out.Message = "matches more than one alternative where exactly one is allowed (" + ve.Message + ")"
	}
	if isCombinator(ve.KeywordLocation) && len(ve.Causes) > 1 {
		var alts []string
		for _, c := range ve.Causes {
			alts = append(alts, simplify(c).Message)
		}
		out.Message = "must match one of: " + strings.Join(alts, "; or ")
	}
	return out
}

func isCombinator(keywordLocation string) bool {
	return strings.HasSuffix(keywordLocation, "/oneOf") || strings.HasSuffix(keywordLocation, "/anyOf")
}

// within moves each fault's path under prefix.
func within(prefix string, faults []*ValidationError) []*ValidationError {
	out := make([]*ValidationError, len(faults))
	for i, f := range faults {
		out[i] = &ValidationError{Path: prefix + f.Path, Rule: f.Rule, Message: f.Message}
	}
	return out
}
