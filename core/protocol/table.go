package protocol

import "reflect"

// MethodInfo describes one method of the protocol.
type MethodInfo struct {
	// Name is the JSON-RPC method name.
	Name string
	// Notification is true for methods that get no reply.
	Notification bool
	// Mode is the hello mode a hook needs to receive the method; empty for hook.hello.
	Mode Mode
	// Params is the Go type of the params.
	Params reflect.Type
	// Result is the Go type of the result: an interface for a union on
	// action, nil for a notification.
	Result reflect.Type
	// Variants are the result's alternatives, one per allowed action, when
	// the result is a union.
	Variants []Variant
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// Methods is the method table of protocol version 1.
var Methods = []MethodInfo{
	{Name: MethodHello, Params: typeOf[HelloParams](), Result: typeOf[HelloResult]()},
	{Name: MethodBeforeLLM, Mode: ModeLLM, Params: typeOf[BeforeLLMParams](), Result: typeOf[BeforeLLMResult](),
		Variants: []Variant{Continue{}, BeforeLLMModify{}, AbortTurn{}, HardAbort{}}},
	{Name: MethodAfterLLM, Mode: ModeLLM, Params: typeOf[AfterLLMParams](), Result: typeOf[AfterLLMResult](),
		Variants: []Variant{Continue{}, AfterLLMModify{}, AbortTurn{}, HardAbort{}}},
	{Name: MethodBeforeTool, Mode: ModeTool, Params: typeOf[BeforeToolParams](), Result: typeOf[BeforeToolResult](),
		Variants: []Variant{Continue{}, BeforeToolModify{}, Respond{}, DenyTool{}, AbortTurn{}, HardAbort{}}},
	{Name: MethodAfterTool, Mode: ModeTool, Params: typeOf[AfterToolParams](), Result: typeOf[AfterToolResult](),
		Variants: []Variant{Continue{}, AfterToolModify{}, AbortTurn{}, HardAbort{}}},
	{Name: MethodApproveTool, Mode: ModeApprove, Params: typeOf[ApproveToolParams](), Result: typeOf[ApproveToolResult]()},
	{Name: MethodRuntimeEvent, Notification: true, Mode: ModeObserve, Params: typeOf[RuntimeEvent]()},
	{Name: MethodEvent, Notification: true, Mode: ModeObserve, Params: typeOf[LegacyEvent]()},
}

// Lookup finds a method in the table.
func Lookup(name string) (MethodInfo, bool) {
	for _, m := range Methods {
		if m.Name == name {
			return m, true
		}
	}
	return MethodInfo{}, false
}
