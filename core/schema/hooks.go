package schema

import (
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/hookwire/hookwire/core/protocol"
)

// What Go types cannot say, added to the reflected schema here rather than
// by methods of the protocol types, so that a program that speaks the
// protocol does not link the reflector.

// enums are the string types with a closed set of values; each has a
// definition of its own.
var enums = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[protocol.Mode](): {
		Type:        "string",
		Enum:        []any{string(protocol.ModeObserve), string(protocol.ModeLLM), string(protocol.ModeTool), string(protocol.ModeApprove)},
		Description: "Mode is a capability a hook declares in hook.hello.",
	},
	reflect.TypeFor[protocol.Action](): {
		Type: "string",
		Enum: []any{string(protocol.ActionContinue), string(protocol.ActionModify), string(protocol.ActionRespond),
			string(protocol.ActionDenyTool), string(protocol.ActionAbortTurn), string(protocol.ActionHardAbort)},
		Description: "Action is what an interceptor decides. An empty action means continue.",
	},
	reflect.TypeFor[protocol.ToolKind](): {
		Type:        "string",
		Enum:        []any{string(protocol.ToolReadOnly), string(protocol.ToolWrite), string(protocol.ToolExecute)},
		Description: "ToolKind says what a tool does to the world.",
	},
}

// refEnum makes every use of an enum type a reference to its definition.
func refEnum(t reflect.Type) *jsonschema.Schema {
	if enums[t] == nil {
		return nil
	}
	return &jsonschema.Schema{Ref: "#/$defs/" + t.Name()}
}

// extensions add to the definitions of struct types, by name.
var extensions = map[string]func(*jsonschema.Schema){
	"Request": func(s *jsonschema.Schema) {
		pinJSONRPC(s)
		prop(s, "id").Minimum = "1"
	},
	"Notification": func(s *jsonschema.Schema) {
		pinJSONRPC(s)
		id := prop(s, "id")
		id.Type = ""
		id.Const = 0
	},
	"Response": func(s *jsonschema.Schema) {
		pinJSONRPC(s)
		id := prop(s, "id")
		id.Type = ""
		id.AnyOf = []*jsonschema.Schema{{Type: "integer", Minimum: "0"}, {Type: "null"}}
		s.OneOf = []*jsonschema.Schema{{Required: []string{"result"}}, {Required: []string{"error"}}}
	},
	// The action of each variant of a result union is pinned, so that a
	// union can tell its variants apart by action alone.
	"Continue": func(s *jsonschema.Schema) {
		p := prop(s, "action")
		s.Properties.Set("action", &jsonschema.Schema{Type: "string", Enum: []any{string(protocol.ActionContinue), ""}, Description: p.Description})
	},
	// A host may send a tool without parameters as null (PicoClaw's Go
	// types do), so null is a value of its own besides an object.
	"FunctionDefinition": func(s *jsonschema.Schema) {
		p := prop(s, "parameters")
		s.Properties.Set("parameters", &jsonschema.Schema{
			AnyOf:       []*jsonschema.Schema{{Type: "object"}, {Type: "null"}},
			Description: p.Description,
		})
	},
	"AbortTurn":        pinAction(protocol.ActionAbortTurn),
	"HardAbort":        pinAction(protocol.ActionHardAbort),
	"DenyTool":         pinAction(protocol.ActionDenyTool),
	"Respond":          pinAction(protocol.ActionRespond),
	"BeforeLLMModify":  pinAction(protocol.ActionModify),
	"AfterLLMModify":   pinAction(protocol.ActionModify),
	"BeforeToolModify": pinAction(protocol.ActionModify),
	"AfterToolModify":  pinAction(protocol.ActionModify),
}

func pinJSONRPC(s *jsonschema.Schema) { prop(s, "jsonrpc").Const = protocol.JSONRPCVersion }

func pinAction(a protocol.Action) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p := prop(s, "action")
		s.Properties.Set("action", &jsonschema.Schema{Type: "string", Const: string(a), Description: p.Description})
	}
}

func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties.Get(name)
	if !ok {
		panic("schema: no property " + name)
	}
	return p
}
