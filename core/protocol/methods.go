package protocol

import (
	"encoding/json"
	"reflect"
)

// Method names.
const (
	MethodHello        = "hook.hello"
	MethodBeforeLLM    = "hook.before_llm"
	MethodAfterLLM     = "hook.after_llm"
	MethodBeforeTool   = "hook.before_tool"
	MethodAfterTool    = "hook.after_tool"
	MethodApproveTool  = "hook.approve_tool"
	MethodRuntimeEvent = "hook.runtime_event"
	MethodEvent        = "hook.event" // legacy observe notification
)

// Mode is a capability a hook declares in hook.hello.
type Mode string

// Hello modes.
const (
	ModeObserve Mode = "observe" // receives observe notifications
	ModeLLM     Mode = "llm"     // intercepts hook.before_llm and hook.after_llm
	ModeTool    Mode = "tool"    // intercepts hook.before_tool and hook.after_tool
	ModeApprove Mode = "approve" // answers hook.approve_tool
)

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

// HelloParams opens the connection: the host names the hook and the protocol version.
type HelloParams struct {
	// Name is the hook's name in the host's configuration.
	Name string `json:"name"`
	// Version is the protocol version; 1 for this one.
	Version int `json:"version"`
	// Modes are the capabilities the host expects of the hook. PicoClaw
	// leaves them out when it grants none.
	Modes []Mode `json:"modes,omitzero"`
	// Extensions are the hookwire extensions the host understands; see the Ext* constants.
	Extensions []string `json:"extensions,omitzero" jsonschema_extras:"x-hookwire-extension=Lets a hook know which optional behaviours the host applies; a host that sends none applies none."`
	// MaxLineBytes is the longest reply line the host reads, in bytes,
	// newline included. A host that sends none (or 0) reads 1 MiB, as
	// PicoClaw does; the SDKs keep their replies within it.
	MaxLineBytes *int64 `json:"max_line_bytes,omitempty" jsonschema_extras:"x-hookwire-extension=Lets a hook send a host that reads them replies longer than the 1 MiB that PicoClaw's host reads."`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// HelloResult accepts the connection.
type HelloResult struct {
	// OK is true when the hook is ready.
	OK bool `json:"ok"`
	// Name is the name the hook gives itself.
	Name *string `json:"name,omitempty"`
	// Modes are the modes the hook's handlers need.
	Modes []Mode `json:"modes,omitzero" jsonschema_extras:"x-hookwire-extension=Lets a host see which calls a hook expects; a hook that is configured for a mode it lacks can be reported at start."`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// BeforeLLMParams is the request about to be sent to the LLM. A modify
// reply returns the whole object: the host replaces, it does not merge.
type BeforeLLMParams struct {
	// Meta identifies the call.
	Meta *Meta `json:"meta,omitempty"`
	// Context is the turn context.
	Context *TurnContext `json:"context,omitempty"`
	// Model is the requested model.
	Model string `json:"model"`
	// Messages is the conversation history. PicoClaw leaves it out when it is empty.
	Messages []Message `json:"messages,omitzero"`
	// Tools are the tools the LLM may call.
	Tools []ToolDefinition `json:"tools,omitzero"`
	// Options are LLM parameters such as temperature and max_tokens.
	Options map[string]any `json:"options,omitzero"`
	// GracefulTerminal is true on the last call of a turn that is being wound down.
	GracefulTerminal *bool `json:"graceful_terminal,omitempty"`
	// Planning is true on an LLM call the host makes to plan the turn, before any agent round.
	Planning *bool `json:"planning,omitempty" jsonschema_extras:"x-hookwire-extension=Skill prompt hooks of timing before_planning inject only into planning calls; PicoClaw has no planning call and never sets it."`
	// Channel is the channel the request came from.
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat.
	ChatID *string `json:"chat_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// AfterLLMParams is the LLM's answer. A modify reply returns the whole object.
type AfterLLMParams struct {
	// Meta identifies the call.
	Meta *Meta `json:"meta,omitempty"`
	// Context is the turn context.
	Context *TurnContext `json:"context,omitempty"`
	// Model is the model that answered.
	Model string `json:"model"`
	// Response is the LLM's answer. PicoClaw leaves it out when it has none.
	Response LLMResponse `json:"response,omitzero"`
	// Channel is the channel the request came from.
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat.
	ChatID *string `json:"chat_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// BeforeToolParams is a tool call about to run. A modify or respond reply
// carries it whole as call: a call without tool renames the tool to "".
type BeforeToolParams struct {
	// Meta identifies the call.
	Meta *Meta `json:"meta,omitempty"`
	// Context is the turn context.
	Context *TurnContext `json:"context,omitempty"`
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Arguments are the tool's arguments. PicoClaw leaves them out when there are none.
	Arguments map[string]any `json:"arguments,omitzero"`
	// ToolCallID is the agent's id of the call, the same before and after
	// the tool runs.
	ToolCallID *string `json:"tool_call_id,omitempty" jsonschema_extras:"x-hookwire-extension=Lets a hook pair a call before and after it runs; agents such as Claude Code give every call an id."`
	// Canonical says what the call is in words every agent shares: its
	// kind, and its command, path, URL or pattern, whatever the agent
	// names the tool and its arguments.
	Canonical *CanonicalTool `json:"canonical,omitempty" jsonschema_extras:"x-hookwire-extension=Lets one hook judge a shell command or a file path under every agent, whatever the agent calls its tools (Bash, run_shell_command, exec)."`
	// Channel is the channel the request came from.
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat.
	ChatID *string `json:"chat_id,omitempty"`
	// HookResult is a tool result a hook has already given for the call, as PicoClaw carries it.
	HookResult *ToolResult `json:"hook_result,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// AfterToolParams is a tool call that has run. A modify reply returns the
// whole object, so the tool result sits at result.result.
type AfterToolParams struct {
	// Meta identifies the call.
	Meta *Meta `json:"meta,omitempty"`
	// Context is the turn context.
	Context *TurnContext `json:"context,omitempty"`
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Arguments are the arguments the tool ran with.
	Arguments map[string]any `json:"arguments,omitzero"`
	// Result is what the tool returned. PicoClaw leaves it out when it has none.
	Result ToolResult `json:"result,omitzero"`
	// Duration is how long the tool ran, in nanoseconds.
	Duration *int64 `json:"duration,omitempty"`
	// ToolCallID is the agent's id of the call, the same before and after
	// the tool runs.
	ToolCallID *string `json:"tool_call_id,omitempty" jsonschema_extras:"x-hookwire-extension=Lets a hook pair a call before and after it runs; agents such as Claude Code give every call an id."`
	// Canonical says what the call is in words every agent shares: its
	// kind, and its command, path, URL or pattern, whatever the agent
	// names the tool and its arguments.
	Canonical *CanonicalTool `json:"canonical,omitempty" jsonschema_extras:"x-hookwire-extension=Lets one hook judge a shell command or a file path under every agent, whatever the agent calls its tools (Bash, run_shell_command, exec)."`
	// Channel is the channel the request came from.
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat.
	ChatID *string `json:"chat_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ApproveToolParams asks whether a tool call may run.
type ApproveToolParams struct {
	// Meta identifies the call.
	Meta *Meta `json:"meta,omitempty"`
	// Context is the turn context.
	Context *TurnContext `json:"context,omitempty"`
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Arguments are the tool's arguments. PicoClaw leaves them out when there are none.
	Arguments map[string]any `json:"arguments,omitzero"`
	// ToolKind says what the tool does to the world, when the host knows it.
	ToolKind *ToolKind `json:"tool_kind,omitempty" jsonschema_extras:"x-hookwire-extension=Lets approvers tell read-only tools from writes and commands without knowing every tool name."`
	// AffectedPaths are the files and folders the call reads or writes, when the host knows them.
	AffectedPaths []string `json:"affected_paths,omitzero" jsonschema_extras:"x-hookwire-extension=Lets approvers judge a call by the paths it touches."`
	// ToolCallID is the agent's id of the call, the same before and after
	// the tool runs.
	ToolCallID *string `json:"tool_call_id,omitempty" jsonschema_extras:"x-hookwire-extension=Lets a hook pair a call before and after it runs; agents such as Claude Code give every call an id."`
	// Canonical says what the call is in words every agent shares: its
	// kind, and its command, path, URL or pattern, whatever the agent
	// names the tool and its arguments.
	Canonical *CanonicalTool `json:"canonical,omitempty" jsonschema_extras:"x-hookwire-extension=Lets one hook judge a shell command or a file path under every agent, whatever the agent calls its tools (Bash, run_shell_command, exec)."`
	// Channel is the channel the request came from.
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat.
	ChatID *string `json:"chat_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ApproveToolResult is an approver's decision.
//
// An approver with no opinion answers {"approved": false, "abstain": true}:
// a host that knows the abstain extension asks the next approver and then
// applies its configured default, and a host that does not know it reads a
// denial, so abstaining never approves by accident.
type ApproveToolResult struct {
	// Approved is true to let the tool run.
	Approved bool `json:"approved"`
	// Reason says why, when the call is denied.
	Reason *string `json:"reason,omitempty"`
	// Abstain is true when the approver has no opinion; Approved must then be false.
	Abstain *bool `json:"abstain,omitempty" jsonschema_extras:"x-hookwire-extension=An approver can leave the decision to the next approver and then to the host's default; hosts that do not know it see a denial."`
	// Arguments replace the tool's arguments when the call is approved; only
	// for hosts that list approve_tool.arguments in hello's extensions.
	Arguments map[string]any `json:"arguments,omitzero" jsonschema_extras:"x-hookwire-extension=An approver can allow a call with updated input; a hook must not send it to a host that did not announce approve_tool.arguments."`
	// Remarks are what the approver says besides its decision.
	Remarks
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// RuntimeEvent is the observe notification hook.runtime_event. It gets no reply.
type RuntimeEvent struct {
	// ID identifies the event.
	ID *string `json:"id,omitempty"`
	// Kind is a dotted event kind such as "agent.tool.exec_start"; see the Kind* constants.
	Kind string `json:"kind"`
	// Time is when the event happened, in RFC 3339 form.
	Time *string `json:"time,omitempty"`
	// Source is the component that raised the event.
	Source EventSource `json:"source"`
	// Scope places the event in an agent, session and turn.
	Scope EventScope `json:"scope"`
	// Correlation links the event to others.
	Correlation map[string]any `json:"correlation,omitzero"`
	// Severity is "debug", "info", "warn" or "error".
	Severity *string `json:"severity,omitempty"`
	// Payload is the event's data; its shape depends on the kind. PicoClaw leaves it out when there is none.
	Payload json.RawMessage `json:"payload,omitzero"`
	// Attrs are further attributes.
	Attrs map[string]any `json:"attrs,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// EventSource is the component that raised an event.
type EventSource struct {
	// Component is the kind of component, such as "agent".
	Component *string `json:"component,omitempty"`
	// Name is the component's name.
	Name *string `json:"name,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// EventScope places an event.
type EventScope struct {
	// AgentID names the agent.
	AgentID *string `json:"agent_id,omitempty"`
	// SessionKey identifies the session.
	SessionKey *string `json:"session_key,omitempty"`
	// TurnID identifies the turn.
	TurnID *string `json:"turn_id,omitempty"`
	// Channel is the channel of the turn.
	Channel *string `json:"channel,omitempty"`
	// ChatID identifies the chat.
	ChatID *string `json:"chat_id,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// LegacyEvent is the observe notification hook.event of older hosts, with PascalCase keys.
type LegacyEvent struct {
	// Kind is a legacy kind such as "tool_exec_start"; see LegacyKinds.
	Kind string `json:"Kind"`
	// Meta identifies where the event comes from.
	Meta *Meta `json:"Meta,omitempty"`
	// Payload is the event's data.
	Payload json.RawMessage `json:"Payload,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// CanonicalTool is a tool call in words every agent shares (a hookwire
// extension): schema/tools.json lists each agent's tools and their kinds.
type CanonicalTool struct {
	// Kind is what the tool does: shell, read, write, edit, list, search,
	// fetch, web_search, agent, mcp, or other.
	Kind string `json:"kind"`
	// Command is a shell tool's command line.
	Command *string `json:"command,omitempty"`
	// Path is the file or folder a file tool reads, writes or searches.
	Path *string `json:"path,omitempty"`
	// URL is the address a fetch tool fetches.
	URL *string `json:"url,omitempty"`
	// Pattern is what a search tool looks for: a file pattern, a regular
	// expression, a web query.
	Pattern *string `json:"pattern,omitempty"`
	// Server is an MCP tool's server.
	Server *string `json:"server,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// ToolKind says what a tool does to the world.
type ToolKind string

// Tool kinds.
const (
	ToolReadOnly ToolKind = "readonly" // reads, changes nothing
	ToolWrite    ToolKind = "write"    // writes files or state
	ToolExecute  ToolKind = "execute"  // runs commands or code
)

// HostExtensions are the extensions a host may list in hook.hello, with what each means.
var HostExtensions = []struct{ Name, Doc string }{
	{ExtApproveToolAbstain, "The host honours abstain in approve_tool results: it asks the next approver, then applies its default."},
	{ExtApproveToolArguments, "The host runs an approved tool with the arguments of the approve_tool result."},
	{ExtRuntimeEventSession, "The host sends the runtime events agent.session.start and agent.session.end."},
	{ExtResultContext, "The host adds the context of a result to what the model reads next."},
	{ExtResultMessage, "The host shows the message of a result to the user."},
}

// Extensions a host may list in hook.hello.
const (
	// ExtApproveToolAbstain: the host honours abstain in approve_tool results.
	ExtApproveToolAbstain = "approve_tool.abstain"
	// ExtApproveToolArguments: the host applies arguments in approve_tool results.
	ExtApproveToolArguments = "approve_tool.arguments"
	// ExtRuntimeEventSession: the host sends agent.session.start and agent.session.end.
	ExtRuntimeEventSession = "runtime_event.session"
	// ExtResultContext: the host passes a result's context to the model.
	ExtResultContext = "result.context"
	// ExtResultMessage: the host shows a result's message to the user.
	ExtResultMessage = "result.message"
)

// Runtime event kinds.
const (
	KindTurnStart         = "agent.turn.start"
	KindTurnEnd           = "agent.turn.end"
	KindLLMRequest        = "agent.llm.request"
	KindLLMResponse       = "agent.llm.response"
	KindToolExecStart     = "agent.tool.exec_start"
	KindToolExecEnd       = "agent.tool.exec_end"
	KindToolExecSkipped   = "agent.tool.exec_skipped"
	KindSteeringInjected  = "agent.steering.injected"
	KindInterruptReceived = "agent.interrupt.received"
	KindError             = "agent.error"
	// KindSessionStart and KindSessionEnd are a hookwire extension (see ExtRuntimeEventSession).
	KindSessionStart = "agent.session.start"
	KindSessionEnd   = "agent.session.end"
)

// EventKinds are the runtime event kinds this version knows. Hosts may send others.
var EventKinds = []string{
	KindTurnStart, KindTurnEnd, KindLLMRequest, KindLLMResponse,
	KindToolExecStart, KindToolExecEnd, KindToolExecSkipped,
	KindSteeringInjected, KindInterruptReceived, KindError,
	KindSessionStart, KindSessionEnd,
}

// LegacyKinds maps each kind of hook.event to its runtime event kind.
var LegacyKinds = map[string]string{
	"turn_start":         KindTurnStart,
	"turn_end":           KindTurnEnd,
	"llm_request":        KindLLMRequest,
	"llm_response":       KindLLMResponse,
	"tool_exec_start":    KindToolExecStart,
	"tool_exec_end":      KindToolExecEnd,
	"tool_exec_skipped":  KindToolExecSkipped,
	"steering_injected":  KindSteeringInjected,
	"interrupt_received": KindInterruptReceived,
	"error":              KindError,
}
