package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// Action is what an interceptor decides.
type Action string

// Actions. An empty action means continue.
const (
	ActionContinue  Action = "continue"   // pass through unchanged
	ActionModify    Action = "modify"     // replace the object with the one returned
	ActionRespond   Action = "respond"    // before_tool: answer the call without running the tool
	ActionDenyTool  Action = "deny_tool"  // before_tool: do not run the tool
	ActionAbortTurn Action = "abort_turn" // end the turn with an error
	ActionHardAbort Action = "hard_abort" // stop the whole agent loop
)

// Variant is one alternative of a result union; its action selects it.
type Variant interface {
	// ResultAction is the action that selects this variant.
	ResultAction() Action
}

// The result unions. Each is a sealed set of variants; DecodeResult reads
// the action first and decodes the variant it selects.
type (
	// BeforeLLMResult answers hook.before_llm.
	BeforeLLMResult interface {
		Variant
		beforeLLM()
	}
	// AfterLLMResult answers hook.after_llm.
	AfterLLMResult interface {
		Variant
		afterLLM()
	}
	// BeforeToolResult answers hook.before_tool.
	BeforeToolResult interface {
		Variant
		beforeTool()
	}
	// AfterToolResult answers hook.after_tool.
	AfterToolResult interface {
		Variant
		afterTool()
	}
)

// Continue passes the object through unchanged. Its action may be omitted or empty.
type Continue struct {
	// Action is "continue", "" or absent: all three mean continue.
	Action *Action `json:"action,omitempty"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// AbortTurn ends the current turn with an error.
type AbortTurn struct {
	// Action is "abort_turn".
	Action Action `json:"action"`
	// Reason says why the turn ends.
	Reason *string `json:"reason,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// HardAbort stops the whole agent loop.
type HardAbort struct {
	// Action is "hard_abort".
	Action Action `json:"action"`
	// Reason says why the loop stops.
	Reason *string `json:"reason,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// DenyTool refuses to run the tool; the LLM is told the reason.
type DenyTool struct {
	// Action is "deny_tool".
	Action Action `json:"action"`
	// Reason says why the tool may not run.
	Reason string `json:"reason"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// Respond answers the tool call itself: the tool, its approval and
// hook.after_tool are skipped, and Result goes to the LLM.
type Respond struct {
	// Action is "respond".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Call is the whole call as answered, when the hook changed it.
	Call *BeforeToolParams `json:"call,omitempty"`
	// Result is the tool result to return.
	Result ToolResult `json:"result"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// BeforeLLMModify replaces the LLM request with Request.
type BeforeLLMModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Request is the whole modified request.
	Request BeforeLLMParams `json:"request"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// AfterLLMModify replaces the LLM's answer with Response.
type AfterLLMModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Response is the whole modified params object: meta, model and response.
	Response AfterLLMParams `json:"response"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// BeforeToolModify replaces the tool call with Call.
type BeforeToolModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Call is the whole modified call; its tool must be set.
	Call BeforeToolParams `json:"call"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

// AfterToolModify replaces the tool's outcome with Result.
type AfterToolModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Result is the whole modified params object; the tool result is Result.Result.
	Result AfterToolParams `json:"result"`
	// Extra holds members this version does not know.
	Extra Extra `json:"-"`
}

func (Continue) ResultAction() Action         { return ActionContinue }
func (AbortTurn) ResultAction() Action        { return ActionAbortTurn }
func (HardAbort) ResultAction() Action        { return ActionHardAbort }
func (DenyTool) ResultAction() Action         { return ActionDenyTool }
func (Respond) ResultAction() Action          { return ActionRespond }
func (BeforeLLMModify) ResultAction() Action  { return ActionModify }
func (AfterLLMModify) ResultAction() Action   { return ActionModify }
func (BeforeToolModify) ResultAction() Action { return ActionModify }
func (AfterToolModify) ResultAction() Action  { return ActionModify }

func (Continue) beforeLLM()          {}
func (Continue) afterLLM()           {}
func (Continue) beforeTool()         {}
func (Continue) afterTool()          {}
func (AbortTurn) beforeLLM()         {}
func (AbortTurn) afterLLM()          {}
func (AbortTurn) beforeTool()        {}
func (AbortTurn) afterTool()         {}
func (HardAbort) beforeLLM()         {}
func (HardAbort) afterLLM()          {}
func (HardAbort) beforeTool()        {}
func (HardAbort) afterTool()         {}
func (DenyTool) beforeTool()         {}
func (Respond) beforeTool()          {}
func (BeforeLLMModify) beforeLLM()   {}
func (AfterLLMModify) afterLLM()     {}
func (BeforeToolModify) beforeTool() {}
func (AfterToolModify) afterTool()   {}

// JSONSchemaExtend pins the action of each variant, so that a union can
// tell its variants apart by action alone.
func (Continue) JSONSchemaExtend(s *jsonschema.Schema) {
	p := prop(s, "action")
	s.Properties.Set("action", &jsonschema.Schema{Type: "string", Enum: []any{string(ActionContinue), ""}, Description: p.Description})
}
func (AbortTurn) JSONSchemaExtend(s *jsonschema.Schema)        { pinAction(s, ActionAbortTurn) }
func (HardAbort) JSONSchemaExtend(s *jsonschema.Schema)        { pinAction(s, ActionHardAbort) }
func (DenyTool) JSONSchemaExtend(s *jsonschema.Schema)         { pinAction(s, ActionDenyTool) }
func (Respond) JSONSchemaExtend(s *jsonschema.Schema)          { pinAction(s, ActionRespond) }
func (BeforeLLMModify) JSONSchemaExtend(s *jsonschema.Schema)  { pinAction(s, ActionModify) }
func (AfterLLMModify) JSONSchemaExtend(s *jsonschema.Schema)   { pinAction(s, ActionModify) }
func (BeforeToolModify) JSONSchemaExtend(s *jsonschema.Schema) { pinAction(s, ActionModify) }
func (AfterToolModify) JSONSchemaExtend(s *jsonschema.Schema)  { pinAction(s, ActionModify) }

func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties.Get(name)
	if !ok {
		panic("protocol: no property " + name)
	}
	return p
}

func pinAction(s *jsonschema.Schema, a Action) {
	p := prop(s, "action")
	s.Properties.Set("action", &jsonschema.Schema{Type: "string", Const: string(a), Description: p.Description})
}

// Actions lists the actions a method's result allows, in table order; nil
// for a method whose result is not a union on action.
func (m MethodInfo) Actions() []Action {
	var out []Action
	for _, v := range m.Variants {
		out = append(out, v.ResultAction())
	}
	return out
}

// DecodeResult decodes the result of a call to method. For a union it reads
// the action first and decodes the variant it selects, so an error names
// that variant; an action the method does not allow is an error.
func DecodeResult(method string, data []byte) (any, error) {
	m, ok := Lookup(method)
	if !ok {
		return nil, fmt.Errorf("unknown method %q", method)
	}
	if m.Notification {
		return nil, fmt.Errorf("%s is a notification and has no result", method)
	}
	var t reflect.Type
	if m.Variants == nil {
		t = m.Result
	} else {
		action := ActionContinue
		err := eachMember(data, func(name string, raw []byte) error {
			if name != "action" {
				return nil
			}
			var a *Action
			if err := json.Unmarshal(raw, &a); err != nil {
				return fmt.Errorf("action: %w", err)
			}
			if a != nil && *a != "" {
				action = *a
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s result: %w", method, err)
		}
		i := slices.IndexFunc(m.Variants, func(v Variant) bool { return v.ResultAction() == action })
		if i < 0 {
			return nil, fmt.Errorf("%s result: action %q is not allowed (allowed: %s)", method, action, joinActions(m.Actions()))
		}
		t = reflect.TypeOf(m.Variants[i])
	}
	// Straight to the type's UnmarshalJSON: through json.Unmarshal, a long
	// result would be read twice more, to check it and to find its end.
	v := reflect.New(t)
	var err error
	if u, ok := v.Interface().(json.Unmarshaler); ok {
		err = u.UnmarshalJSON(data)
	} else {
		err = json.Unmarshal(data, v.Interface())
	}
	if err != nil {
		return nil, fmt.Errorf("%s result: %w", method, err)
	}
	return v.Elem().Interface(), nil
}

func joinActions(actions []Action) string {
	s := make([]string, len(actions))
	for i, a := range actions {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}
