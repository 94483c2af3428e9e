// Package lifecycle gives hookwire hooks the vocabulary of in-process agent
// SDKs' lifecycle hooks (the Blade Agent SDK's) on a hook: their events,
// callbacks that answer continue, skip or abort, with a modified input or
// output, and a CanUseTool permission callback. The lifecycle layer
// registers the protocol handlers and observers those callbacks need and
// translates both ways, so that a hook written that way ports in minutes and
// runs out of process under any host of the protocol. The events, their
// inputs and how each maps onto the protocol are the lifecycle table's
// (schema/lifecycle.json, shown in docs/lifecycle.md), generated into
// lifecycle_gen.go; rows.go runs its rows, the same in the Go, Python and
// TypeScript SDKs. This file is the vocabulary: what a callback answers and
// what CanUseTool decides.
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
package lifecycle

import (
	"context"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// Action is what a callback decides.
type Action string

const (
	// Continue lets the next callback run. The empty Action is Continue.
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
	// ModifiedInput replaces, with continue, the input for the callbacks after
	// this one and for the host: in UserPromptSubmit, the new text of the
	// user's message; in PreToolUse, the tool's new arguments, whole.
	ModifiedInput any
	// ModifiedOutput replaces, with continue, the tool's result: in PostToolUse
	// and PostToolUseFailure, the tool's new result: a whole ToolResult, or a
	// string, the new for_llm.
	ModifiedOutput any
}

// Callback is a lifecycle callback. A failure is logged and counts as
// continue: it does not stop the tool. Its failures are its errors and
// panics. Callbacks may run concurrently, for different calls: guard what
// they share with a mutex.
type Callback func(ctx context.Context, in Input) (Output, error)

// Hooks are the callbacks of each event, run in the order given.
type Hooks map[Event][]Callback

// Behavior is a verdict of CanUseTool.
type Behavior string

const (
	// Allow runs the tool, with the updated input as its arguments when given.
	Allow Behavior = "allow"
	// Deny refuses the call; the LLM is told the message.
	Deny Behavior = "deny"
	// Ask has no opinion: the next approver, then the host's default, decide.
	Ask Behavior = "ask"
)

// PermissionResult is the verdict of CanUseTool.
type PermissionResult struct {
	Behavior Behavior
	// UpdatedInput are, with allow, the arguments the tool is to run with,
	// whole.
	UpdatedInput map[string]any
	// Message says, with deny, why.
	Message string
	// Interrupt is ignored: approval cannot end a turn.
	Interrupt bool
}

// CanUseToolOptions is what CanUseTool knows of a call besides its tool and
// arguments: what the host says of it, none and empty when it says nothing.
// The context given to CanUseTool is its abort signal.
type CanUseToolOptions struct {
	// ToolKind is what the tool does to the world, when the host says.
	ToolKind hookwire.ToolKind
	// AffectedPaths are the paths the call touches, when the host says; empty
	// otherwise.
	AffectedPaths []string
}

// CanUseTool is the permission callback: may this tool call run? It decides
// the calls that the PermissionRequest callbacks let through. A failure is
// logged and counts as ask, so that a broken check approves nothing.
type CanUseTool func(ctx context.Context, toolName string, input map[string]any, opts CanUseToolOptions) (PermissionResult, error)

// Options are a lifecycle hook's callbacks.
type Options struct {
	// Hooks are the callbacks of each event.
	Hooks Hooks
	// CanUseTool decides the tool calls that the PermissionRequest callbacks
	// let through.
	CanUseTool CanUseTool
}
