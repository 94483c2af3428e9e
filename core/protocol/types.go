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
	// Agent names the agent the turn runs in, such as claude-code.
	Agent *string `json:"agent,omitempty" jsonschema_extras:"x-hookwire-extension=Tells a hook which agent it runs under, through the bridge."`
	// SessionID is the agent's id of the session.
	SessionID *string `json:"session_id,omitempty" jsonschema_extras:"x-hookwire-extension=The agent's session, as its own hooks name it."`
	// Cwd is the folder the agent works in.
	Cwd *string `json:"cwd,omitempty" jsonschema_extras:"x-hookwire-extension=The agent's working folder, as its own hooks give it."`
	// PermissionMode is the agent's permission mode, such as default or plan.
	PermissionMode *string `json:"permission_mode,omitempty" jsonschema_extras:"x-hookwire-extension=The agent's permission mode, as Claude Code's hooks give it."`
	// TranscriptPath is the file of the session's transcript.
	TranscriptPath *string `json:"transcript_path,omitempty" jsonschema_extras:"x-hookwire-extension=The session's transcript file, as the agent's own hooks give it."`
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
	// ReasoningContent is the reasoning an assistant message came with, where the provider gives one.
	ReasoningContent *string `json:"reasoning_content,omitempty"`
	// ContentParts are the parts of a multimodal message (text and images), where the host splits it.
	ContentParts []ContentBlock `json:"content_parts,omitzero"`
	// SystemParts are the blocks of a system message, as the host builds it for providers that cache prefixes.
	SystemParts []ContentBlock `json:"system_parts,omitzero"`
	// ModelName is the model that wrote an assistant message.
	ModelName *string `json:"model_name,omitempty"`
	// CreatedAt is when the message was made, in RFC 3339 form.
	CreatedAt *string `json:"created_at,omitempty"`
	// Media are media references of the message, such as "media://abc123".
	Media []string `json:"media,omitzero"`
	// Attachments are files attached to the message, in the host's own shape.
	Attachments []map[string]any `json:"attachments,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ContentBlock is one block of a structured message: text or an image.
type ContentBlock struct {
	// Type is "text" or "image_url".
	Type string `json:"type"`
	// Text is the block's text.
	Text *string `json:"text,omitempty"`
	// ImageURL is the block's image.
	ImageURL *ImageURL `json:"image_url,omitempty"`
	// CacheControl marks the block for the provider's prefix cache.
	CacheControl *CacheControl `json:"cache_control,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ImageURL is an image: an http(s) link or a data URL.
type ImageURL struct {
	// URL is the image's address.
	URL string `json:"url"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// CacheControl marks a block for a provider's prefix cache.
type CacheControl struct {
	// Type is "ephemeral".
	Type string `json:"type"`
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
	// Parameters is the JSON Schema of the tool's arguments object, or
	// null. It is kept as it came, so that a host's null and a host's
	// absent member each go back as they were.
	Parameters json.RawMessage `json:"parameters,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ToolCall is a call to a tool that the LLM asks for.
type ToolCall struct {
	// ID identifies the call within the response.
	ID *string `json:"id,omitempty"`
	// Type is "function".
	Type *string `json:"type,omitempty"`
	// Function names the tool and carries its arguments. PicoClaw calls
	// after_llm before it fills it in with OpenAI-compatible providers: then
	// the call has only its id.
	Function FunctionCall `json:"function,omitzero"`
	// ExtraContent is provider-specific data of the call.
	ExtraContent *ToolCallExtraContent `json:"extra_content,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// FunctionCall names the tool called and its arguments.
type FunctionCall struct {
	// Name is the tool called.
	Name string `json:"name"`
	// Arguments is the arguments object, encoded as a JSON string.
	Arguments string `json:"arguments"`
	// ThoughtSignature is the provider's signature of the reasoning behind the call.
	ThoughtSignature *string `json:"thought_signature,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ToolCallExtraContent is provider-specific data of a tool call.
type ToolCallExtraContent struct {
	// Google is the data of Google's models.
	Google *GoogleExtraContent `json:"google,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// GoogleExtraContent is what Google's models attach to a tool call.
type GoogleExtraContent struct {
	// ThoughtSignature is the signature of the reasoning behind the call.
	ThoughtSignature *string `json:"thought_signature,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// Usage counts the tokens of an LLM call.
type Usage struct {
	// PromptTokens is the size of the request.
	PromptTokens *int `json:"prompt_tokens,omitempty"`
	// CompletionTokens is the size of the answer.
	CompletionTokens *int `json:"completion_tokens,omitempty"`
	// TotalTokens is both together.
	TotalTokens *int `json:"total_tokens,omitempty"`
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
	// ReasoningContent is the reasoning text of providers that send it apart from content.
	ReasoningContent *string `json:"reasoning_content,omitempty"`
	// Usage counts the tokens of the call.
	Usage *Usage `json:"usage,omitempty"`
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
