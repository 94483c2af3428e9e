package protocol

import "github.com/invopop/jsonschema"

// The hooks below add to the reflected schema what Go types cannot say.

func (Mode) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "string",
		Enum:        []any{string(ModeObserve), string(ModeLLM), string(ModeTool), string(ModeApprove)},
		Description: "Mode is a capability a hook declares in hook.hello.",
	}
}

func (Action) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "string",
		Enum: []any{string(ActionContinue), string(ActionModify), string(ActionRespond),
			string(ActionDenyTool), string(ActionAbortTurn), string(ActionHardAbort)},
		Description: "Action is what an interceptor decides. An empty action means continue.",
	}
}

func pinJSONRPC(s *jsonschema.Schema) { prop(s, "jsonrpc").Const = JSONRPCVersion }

func (Request) JSONSchemaExtend(s *jsonschema.Schema) {
	pinJSONRPC(s)
	prop(s, "id").Minimum = "1"
}

func (Notification) JSONSchemaExtend(s *jsonschema.Schema) {
	pinJSONRPC(s)
	id := prop(s, "id")
	id.Type = ""
	id.Const = 0
}

func (Response) JSONSchemaExtend(s *jsonschema.Schema) {
	pinJSONRPC(s)
	id := prop(s, "id")
	id.Type = ""
	id.AnyOf = []*jsonschema.Schema{{Type: "integer", Minimum: "0"}, {Type: "null"}}
	s.OneOf = []*jsonschema.Schema{{Required: []string{"result"}}, {Required: []string{"error"}}}
}

func (ToolKind) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "string",
		Enum:        []any{string(ToolReadOnly), string(ToolWrite), string(ToolExecute)},
		Description: "ToolKind says what a tool does to the world.",
	}
}
