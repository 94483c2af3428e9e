// Package lifecycle gives hookwire hooks the vocabulary of in-process agent
// SDKs' lifecycle hooks (the Blade Agent SDK's): their events, callbacks
// that answer continue, skip or abort, with a modified input or output, and
// a canUseTool permission callback. The events, their [Input] and how each
// maps onto the protocol are the lifecycle table's (docs/lifecycle.md),
// generated into lifecycle_gen.go. [New] returns a [hookwire.Hook] that
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
// TypeScript SDKs.
package lifecycle

import (
	"context"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

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
