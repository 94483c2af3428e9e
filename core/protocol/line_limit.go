package protocol

// DefaultMaxLineBytes is the longest reply line, newline included, that a
// host reads when its hook.hello sends no max_line_bytes: PicoClaw's host
// reads lines up to 1 MiB, and stops reading a hook for good at a longer one.
const DefaultMaxLineBytes = 1 << 20

// TooLongReason is the reason of a reply sent instead of one longer than the
// host reads; {limit} stands for the host's limit, in bytes.
const TooLongReason = "the hook's answer is longer than the host reads in a line ({limit} bytes)"

// CutMarker ends a string cut to fit the host's line; {cut} stands for the
// bytes (UTF-8) cut.
const CutMarker = "\n[hookwire: {cut} bytes cut to fit the host's line]"

// OverLimit is what a hook sends, with a warning, instead of a reply longer
// than the host reads (docs/protocol.md, "Replies longer than the host
// reads"): never what lets through what the hook would have stopped or
// changed, and never an error where a host may skip a failed hook. The SDKs
// apply it in this order.
type OverLimit struct {
	// Error, when not zero, is the code of the error sent instead of any
	// result, with TooLongReason as its message.
	Error int `json:"error,omitempty"`
	// Cut, when set, is the result of this action sent cut to fit: the
	// string at Path cut from its end, on a character boundary, to the
	// longest start that fits with CutMarker after it. When even an empty
	// string does not fit, or there is none, the next rules apply.
	Cut *OverLimitCut `json:"cut,omitempty"`
	// Keep are the actions sent as they are, with TooLongReason as their
	// reason alone.
	Keep []Action `json:"keep,omitempty"`
	// Result is what goes instead of anything else, with TooLongReason as
	// its reason.
	Result map[string]any `json:"result,omitempty"`
}

// OverLimitCut is the result, and the string in it, that a hook sends cut
// to fit the host's line.
type OverLimitCut struct {
	Action Action   `json:"action"`
	Path   []string `json:"path"`
}

// stops are the actions that end a call or a turn: a reply longer than the
// host reads keeps them.
var stops = []Action{ActionDenyTool, ActionAbortTurn, ActionHardAbort}

// OverLimits are each request's OverLimit, by method.
var OverLimits = map[string]OverLimit{
	// The host fails the hook's start.
	MethodHello: {Error: CodeHandlerError},
	// The turn ends rather than go on without the hook's change.
	MethodBeforeLLM: {Keep: stops[1:], Result: map[string]any{"action": ActionAbortTurn}},
	MethodAfterLLM:  {Keep: stops[1:], Result: map[string]any{"action": ActionAbortTurn}},
	// The call is refused, not let through unchecked.
	MethodBeforeTool: {Keep: stops, Result: map[string]any{"action": ActionDenyTool}},
	// The output as the tool wrote it never goes through.
	MethodAfterTool: {
		Cut:  &OverLimitCut{Action: ActionModify, Path: []string{"result", "result", "for_llm"}},
		Keep: stops[1:], Result: map[string]any{"action": ActionAbortTurn},
	},
	// A denial, not an error, which a host whose policy for the approval is
	// open would take as no approver, and run the call.
	MethodApproveTool: {Result: map[string]any{"approved": false}},
}
