// Package lifecycle gives hookwire hooks the vocabulary of in-process agent
// SDKs' lifecycle hooks (the Blade Agent SDK's): eight events, callbacks
// that answer continue, skip or abort, with a modified input or output, and
// a canUseTool permission callback. [New] returns a [hookwire.Hook] that
// registers the protocol handlers and observers the callbacks need and
// translates both ways, so a hook written that way ports in minutes and runs
// out of process under any host of the protocol:
//
//	h := lifecycle.New("guard", lifecycle.Options{Hooks: lifecycle.Hooks{
//		lifecycle.PreToolUse: {func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
//			if cmd, _ := in.ToolInput["command"].(string); strings.Contains(cmd, "rm -rf") {
//				return lifecycle.Output{Action: lifecycle.Abort, Reason: "dangerous command: " + cmd}, nil
//			}
//			return lifecycle.Output{Action: lifecycle.Continue}, nil
//		}},
//	}})
//	h.Main()
//
// The mapping onto the protocol is the same in the Go, Python and
// TypeScript SDKs; the SDK's README has it as a table.
package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// Event is one of the eight lifecycle events.
type Event string

// The eight events, and the protocol calls and events they come from.
const (
	// SessionStart: the first call or event of a session key (a call's
	// meta.SessionKey, an event's scope.session_key, agent.session.start),
	// once per session.
	SessionStart Event = "SessionStart"
	// UserPromptSubmit: the first hook.before_llm of a turn.
	UserPromptSubmit Event = "UserPromptSubmit"
	// PreToolUse: hook.before_tool.
	PreToolUse Event = "PreToolUse"
	// PostToolUse: hook.after_tool of a result that is not an error.
	PostToolUse Event = "PostToolUse"
	// PostToolUseFailure: hook.after_tool of a result with is_error.
	PostToolUseFailure Event = "PostToolUseFailure"
	// PermissionRequest: hook.approve_tool.
	PermissionRequest Event = "PermissionRequest"
	// TaskCompleted: the runtime event agent.turn.end (legacy turn_end).
	TaskCompleted Event = "TaskCompleted"
	// SessionEnd: the runtime event agent.session.end, or the hook's stop for
	// the sessions still open.
	SessionEnd Event = "SessionEnd"
)

// Events are the eight events, in the order a session meets them.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, TaskCompleted, SessionEnd}

// Input is what a callback receives. Event and SessionID are always set (the
// session is the host's session key, "" when it sends none); the other
// fields are those of the event, zero otherwise.
type Input struct {
	Event     Event
	SessionID string
	// Message is the text of the last user message (UserPromptSubmit).
	Message string
	// ToolName and ToolInput are the tool and its arguments (PreToolUse,
	// PostToolUse, PostToolUseFailure, PermissionRequest). Return new
	// arguments as ModifiedInput: changing the map in place changes nothing.
	ToolName  string
	ToolInput map[string]any
	// ToolOutput is the tool's result (PostToolUse).
	ToolOutput hookwire.ToolResult
	// Error is the tool's failure, its message the result's for_llm
	// (PostToolUseFailure).
	Error error
	// ToolKind and AffectedPaths are what the host says the call does
	// (PermissionRequest): "" and nil when it does not say.
	ToolKind      hookwire.ToolKind
	AffectedPaths []string
	// Payload is the agent.turn.end event's payload (TaskCompleted).
	Payload json.RawMessage
}

// Action is what a callback decides.
type Action string

const (
	// Continue lets the next callback run; the empty Action is Continue.
	Continue Action = "continue"
	// Skip stops the callbacks after this one, and skips what the event is
	// about: PreToolUse denies the tool call, PermissionRequest refuses it.
	Skip Action = "skip"
	// Abort stops the callbacks after this one and ends the turn
	// (PermissionRequest refuses the call: approval cannot end a turn).
	Abort Action = "abort"
)

// Output is what a callback answers.
type Output struct {
	Action Action
	// Reason says why: the reason of a denial or an abort.
	Reason string
	// ModifiedInput, with Continue, replaces the input for the callbacks
	// after this one and for the host: the new text of the user's message
	// (a string) in UserPromptSubmit, the tool's new arguments, whole (a
	// map[string]any or anything that encodes to a JSON object), in
	// PreToolUse.
	ModifiedInput any
	// ModifiedOutput, with Continue, replaces the tool's result in
	// PostToolUse and PostToolUseFailure: a [hookwire.ToolResult], or a
	// string, the new text the LLM sees (for_llm).
	ModifiedOutput any
}

// Callback is a lifecycle callback. An error or a panic is logged and
// counts as Continue: it does not stop the tool. Callbacks may run
// concurrently, for different calls: guard what they share with a mutex.
type Callback func(ctx context.Context, in Input) (Output, error)

// Hooks are the callbacks of each event, run in the order given.
type Hooks map[Event][]Callback

// Behavior is a verdict of [CanUseTool].
type Behavior string

const (
	// Allow runs the tool, with PermissionResult.UpdatedInput as its
	// arguments when set.
	Allow Behavior = "allow"
	// Deny refuses the call; the LLM is told PermissionResult.Message.
	Deny Behavior = "deny"
	// Ask has no opinion: the next approver, then the host's default,
	// decide.
	Ask Behavior = "ask"
)

// PermissionResult is the verdict of [CanUseTool].
type PermissionResult struct {
	Behavior Behavior
	// UpdatedInput (Allow) are the arguments the tool is to run with, whole.
	UpdatedInput map[string]any
	// Message (Deny) says why.
	Message string
	// Interrupt (Deny) is ignored: approval cannot end a turn.
	Interrupt bool
}

// CanUseToolOptions is what CanUseTool knows of a call besides its tool and
// arguments: what the host says of it, "" and nil when it says nothing.
// The context given to CanUseTool is its abort signal.
type CanUseToolOptions struct {
	ToolKind      hookwire.ToolKind
	AffectedPaths []string
}

// CanUseTool is the permission callback: may this tool call run? It decides
// the calls that the PermissionRequest callbacks let through. An error or a
// panic is logged and counts as Ask, so that a broken check approves
// nothing.
type CanUseTool func(ctx context.Context, toolName string, input map[string]any, opts CanUseToolOptions) (PermissionResult, error)

// Options are a lifecycle hook's callbacks.
type Options struct {
	Hooks      Hooks
	CanUseTool CanUseTool
}

// New returns a hook named name that runs the callbacks of opts: it
// registers the handlers and observers they need (hook.before_llm for
// UserPromptSubmit, hook.before_tool for PreToolUse, hook.after_tool for
// PostToolUse and PostToolUseFailure, hook.approve_tool for
// PermissionRequest and CanUseTool, an observer of every event and an
// OnClose function for SessionStart, TaskCompleted and SessionEnd), so its
// hello modes follow from them. Add other handlers, observers or tools to
// it as to any hook, except for the methods it already handles. Failing
// callbacks are logged to the hook's Logger (stderr by default).
//
// New panics on an event that is not one of [Events] and on a nil callback.
func New(name string, opts Options) *hookwire.Hook {
	hooks := Hooks{} // a copy: the caller's map may change, and calls read it concurrently
	for event, callbacks := range opts.Hooks {
		if !slices.Contains(Events, event) {
			panic(fmt.Sprintf("lifecycle: unknown event %q", event))
		}
		if slices.ContainsFunc(callbacks, func(c Callback) bool { return c == nil }) {
			panic(fmt.Sprintf("lifecycle: a nil %s callback", event))
		}
		hooks[event] = slices.Clone(callbacks)
	}
	h := hookwire.New(name)
	l := &layer{h: h, hooks: hooks, canUseTool: opts.CanUseTool, open: map[string]*session{}}
	has := func(events ...Event) bool {
		return slices.ContainsFunc(events, func(e Event) bool { return len(hooks[e]) > 0 })
	}
	if has(UserPromptSubmit) {
		h.OnBeforeLLM(l.beforeLLM)
	}
	if has(PreToolUse) {
		h.OnBeforeTool(l.beforeTool)
	}
	if has(PostToolUse, PostToolUseFailure) {
		h.OnAfterTool(l.afterTool)
	}
	if has(PermissionRequest) || opts.CanUseTool != nil {
		h.OnApproveTool(l.approveTool)
	}
	if has(SessionStart, TaskCompleted, SessionEnd) {
		h.OnEvent("*", l.observe)
		h.OnClose(l.endAll)
	}
	return h
}
