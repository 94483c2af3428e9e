package protocol

import "encoding/json"

// Meta identifies where in the agent a call comes from. Its keys are
// PascalCase on the wire, exactly as PicoClaw writes them.
type Meta struct {
	// AgentID names the agent handling the turn.
	AgentID *string `json:"AgentID,omitempty"`
	// TurnID identifies the turn.
	TurnID *string `json:"TurnID,omitempty"`
	// ParentTurnID is the turn that spawned this one; empty for a top-level turn.
	ParentTurnID *string `json:"ParentTurnID,omitempty"`
	// SessionKey identifies the conversation the turn belongs to.
	SessionKey *string `json:"SessionKey,omitempty"`
	// Iteration counts the LLM rounds of the turn.
	Iteration *int `json:"Iteration,omitempty"`
	// TracePath is the host's trace path for the call.
	TracePath *string `json:"TracePath,omitempty"`
	// Source names the host component that raised the call.
	Source *string `json:"Source,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// TurnContext describes what started the turn and how it is routed.
type TurnContext struct {
	// Inbound is the message that started the turn.
	Inbound *InboundContext `json:"inbound,omitempty"`
	// Route is the host's routing decision, in the host's own shape.
	Route json.RawMessage `json:"route,omitzero"`
	// Scope is the host's scope of the turn, in the host's own shape.
	Scope json.RawMessage `json:"scope,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// InboundContext is where the message that started the turn came from.
type InboundContext struct {
	// Channel is the channel the message arrived on, such as "cli".
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat within the channel.
	ChatID *string `json:"chat_id,omitempty"`
	// SenderID identifies who sent the message.
	SenderID *string `json:"sender_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// Message is one entry of the conversation sent to the LLM.
type Message struct {
	// Role is "system", "user", "assistant" or "tool".
	Role string `json:"role"`
	// Content is the text of the message.
	Content *string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message asks for.
	ToolCalls []ToolCall `json:"tool_calls,omitzero"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID *string `json:"tool_call_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ToolDefinition declares a tool the LLM may call, in OpenAI function-calling form.
type ToolDefinition struct {
	// Type is "function".
	Type string `json:"type"`
	// Function describes the tool.
	Function FunctionDefinition `json:"function"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// FunctionDefinition names a tool and describes its arguments.
type FunctionDefinition struct {
	// Name is the tool name the LLM calls.
	Name string `json:"name"`
	// Description tells the LLM what the tool does.
	Description *string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the tool's arguments object.
	Parameters map[string]any `json:"parameters,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ToolCall is a call to a tool that the LLM asks for.
type ToolCall struct {
	// ID identifies the call within the response.
	ID *string `json:"id,omitempty"`
	// Type is "function".
	Type *string `json:"type,omitempty"`
	// Function names the tool and carries its arguments.
	Function FunctionCall `json:"function"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// FunctionCall names the tool called and its arguments.
type FunctionCall struct {
	// Name is the tool called.
	Name string `json:"name"`
	// Arguments is the arguments object, encoded as a JSON string.
	Arguments string `json:"arguments"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// LLMResponse is what the LLM answered.
type LLMResponse struct {
	// Role is "assistant" when present.
	Role *string `json:"role,omitempty"`
	// Content is the text of the answer.
	Content *string `json:"content,omitempty"`
	// ToolCalls are the tools the LLM asks to call.
	ToolCalls []ToolCall `json:"tool_calls,omitzero"`
	// FinishReason says why the LLM stopped, such as "stop" or "tool_calls".
	FinishReason *string `json:"finish_reason,omitempty"`
	// Reasoning is the model's reasoning text, where it gives one.
	Reasoning *string `json:"reasoning,omitempty"`
	// ReasoningDetails is provider-specific reasoning data; PicoClaw writes null when there is none.
	ReasoningDetails json.RawMessage `json:"reasoning_details,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ToolResult is the outcome of a tool call.
type ToolResult struct {
	// ForLLM is what the LLM sees.
	ForLLM string `json:"for_llm"`
	// ForUser is sent to the user as it is, when not empty.
	ForUser *string `json:"for_user,omitempty"`
	// Silent, when true, sends nothing to the user.
	Silent *bool `json:"silent,omitempty"`
	// IsError marks a failed call.
	IsError *bool `json:"is_error,omitempty"`
	// Async marks a call that goes on in the background.
	Async *bool `json:"async,omitempty"`
	// Media are media references, such as "media://abc123".
	Media []string `json:"media,omitzero"`
	// ArtifactTags tag local artifact paths.
	ArtifactTags []string `json:"artifact_tags,omitzero"`
	// ResponseHandled, when true, means the user's request is handled: media go to the user and the turn ends.
	ResponseHandled *bool `json:"response_handled,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}
