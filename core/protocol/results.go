package protocol

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
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

// ReasonOf is the reason a variant gives for its action: a denial's, an
// abort's or a respond's; "" for the others.
func ReasonOf(v Variant) string {
	var reason *string
	switch v := v.(type) {
	case Respond:
		reason = v.Reason
	case DenyTool:
		return v.Reason
	case AbortTurn:
		reason = v.Reason
	case HardAbort:
		reason = v.Reason
	}
	if reason == nil {
		return ""
	}
	return *reason
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

// Remarks are what a hook may say besides its action, to hosts that can
// pass it on: text for the model to read and a message for the person at
// the agent's prompt. Hosts that do not know them ignore them.
type Remarks struct {
	// Context is text for the model: the host adds it to what the model
	// reads next. At the end of a turn (after_llm on a response without
	// tool calls) the turn goes on so that the model reads it.
	Context *string `json:"context,omitempty" jsonschema_extras:"x-hookwire-extension=Text a hook adds to the model's context; hosts that list result.context in hello's extensions pass it on and others ignore it."`
	// Message is shown to the user, not to the model.
	Message *string `json:"message,omitempty" jsonschema_extras:"x-hookwire-extension=A message a hook shows to the user; hosts that list result.message in hello's extensions show it and others ignore it."`
}

// HookRemarks returns the remarks of a result.
func (r Remarks) HookRemarks() Remarks { return r }

// Continue passes the object through unchanged. Its action may be omitted or empty.
type Continue struct {
	// Action is "continue", or absent; an empty action means continue too.
	Action *Action `json:"action,omitempty"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// AbortTurn ends the current turn with an error.
type AbortTurn struct {
	// Action is "abort_turn".
	Action Action `json:"action"`
	// Reason says why the turn ends.
	Reason *string `json:"reason,omitempty"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// HardAbort stops the whole agent loop.
type HardAbort struct {
	// Action is "hard_abort".
	Action Action `json:"action"`
	// Reason says why the loop stops.
	Reason *string `json:"reason,omitempty"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// DenyTool refuses to run the tool; the LLM is told the reason.
type DenyTool struct {
	// Action is "deny_tool".
	Action Action `json:"action"`
	// Reason says why the tool may not run.
	Reason string `json:"reason"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
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
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// BeforeLLMModify replaces the LLM request with Request.
type BeforeLLMModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Request is the whole modified request.
	Request BeforeLLMParams `json:"request"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// AfterLLMModify replaces the LLM's answer with Response.
type AfterLLMModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Response is the whole modified params object: meta, model and response.
	Response AfterLLMParams `json:"response"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// BeforeToolModify replaces the tool call with Call.
type BeforeToolModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Call is the whole modified call; its tool must be set.
	Call BeforeToolParams `json:"call"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// AfterToolModify replaces the tool's outcome with Result.
type AfterToolModify struct {
	// Action is "modify".
	Action Action `json:"action"`
	// Reason is an optional note for logs.
	Reason *string `json:"reason,omitempty"`
	// Result is the whole modified params object; the tool result is Result.Result.
	Result AfterToolParams `json:"result"`
	// Remarks are what the hook says besides its action.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
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
	t := m.Result
	if m.Variants != nil {
		if bytes.Equal(data, bareContinue) {
			// The most common answer by far, as every SDK writes it: the
			// value the decoder would make, without the decoder.
			a := ActionContinue
			return Continue{Action: &a}, nil
		}
		action, err := actionOf(data)
		if err != nil {
			return nil, fmt.Errorf("%s result: %w", method, err)
		}
		i := slices.IndexFunc(m.Variants, func(v Variant) bool { return v.ResultAction() == action })
		if i < 0 {
			return nil, fmt.Errorf("%s result: action %q is not allowed (allowed: %s)", method, action, joinActions(m.Actions()))
		}
		t = reflect.TypeOf(m.Variants[i])
	}
	v := reflect.New(t)
	if err := Unmarshal(data, v.Interface()); err != nil {
		return nil, fmt.Errorf("%s result: %w", method, err)
	}
	return v.Elem().Interface(), nil
}

// bareContinue is a continue with nothing else, as hooks write it. Every
// method whose result is a union on action allows it.
var bareContinue = []byte(`{"action":"continue"}`)

// actionOf reads the action of a result: absent, null and "" are continue.
// It reads no further than the action, which hooks write first: decoding
// the variant reads, and checks, the whole result.
func actionOf(data []byte) (Action, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), decodeOptions)
	tok, err := dec.ReadToken()
	switch {
	case err != nil:
		return "", pointed(err)
	case tok.Kind() == 'n':
		return ActionContinue, nil // decodes as an empty continue
	case tok.Kind() != '{':
		return "", &PointerError{Err: fmt.Errorf("want an object, got %s", tok.Kind())}
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return "", pointed(err)
		}
		if name.String() != "action" {
			if err := dec.SkipValue(); err != nil {
				return "", pointed(err)
			}
			continue
		}
		// Read as a token: unmarshaling a string would set up a cache of
		// strings that costs more than the rest of the call.
		a, err := dec.ReadToken()
		switch {
		case err != nil:
			return "", pointed(err)
		case a.Kind() == 'n', a.Kind() == '"' && a.String() == "":
			return ActionContinue, nil
		case a.Kind() != '"':
			return "", &PointerError{Pointer: "/action", Err: fmt.Errorf("want a string, got %s", a.Kind())}
		}
		return Action(a.String()), nil
	}
	return ActionContinue, nil
}

func joinActions(actions []Action) string {
	s := make([]string, len(actions))
	for i, a := range actions {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}
