package hookwire

import "slices"

// The decisions a handler returns are the result types themselves; their
// action is filled in when they are written:
//
//	Continue{}                                   // let it through
//	req.Modify()                                 // the whole, changed object
//	Respond{Result: Text("15°C")}                // before_tool: answer instead of the tool
//	DenyTool{Reason: "not here"}                 // before_tool: refuse to run the tool
//	AbortTurn{Reason: Ptr("over budget")}        // end the turn
//	HardAbort{Reason: Ptr("kill switch")}        // stop the agent
//	Abstain()                                    // an approver: no opinion
//
// The Modify methods below make the whole object the easy path: hosts
// replace the object with what a modify carries, they do not merge, so a
// hook must send back everything it received, changed or not.

// Modify returns a modify that replaces the LLM request with req.
func (req BeforeLLMParams) Modify() BeforeLLMModify { return BeforeLLMModify{Request: req} }

// Modify returns a modify that replaces the LLM's answer with resp.
func (resp AfterLLMParams) Modify() AfterLLMModify { return AfterLLMModify{Response: resp} }

// Modify returns a modify that replaces the tool call with call.
func (call BeforeToolParams) Modify() BeforeToolModify { return BeforeToolModify{Call: call} }

// Modify returns a modify that replaces the tool's outcome with res; the
// tool result is res.Result.
func (res AfterToolParams) Modify() AfterToolModify { return AfterToolModify{Result: res} }

// Text is a tool result: forLLM is what the LLM sees.
func Text(forLLM string) ToolResult { return ToolResult{ForLLM: forLLM} }

// ErrorText is a failed tool result: forLLM tells the LLM what went wrong.
func ErrorText(forLLM string) ToolResult { return ToolResult{ForLLM: forLLM, IsError: Ptr(true)} }

// WithForUser is r with text to send to the user as it is.
func (r ToolResult) WithForUser(text string) ToolResult {
	r.ForUser = &text
	return r
}

// WithSilent is r marked silent: nothing of it goes to the user.
func (r ToolResult) WithSilent() ToolResult {
	r.Silent = Ptr(true)
	return r
}

// WithMedia is r with media references, such as "media://abc123", added.
func (r ToolResult) WithMedia(refs ...string) ToolResult {
	r.Media = slices.Concat(r.Media, refs)
	return r
}

// WithResponseHandled is r marked as the answer to the user's request: its
// media go to the user and the turn ends.
func (r ToolResult) WithResponseHandled() ToolResult {
	r.ResponseHandled = Ptr(true)
	return r
}

// Abstain is an approver's "no opinion" ([Hook.OnApproveTool]): the host
// asks its next approver, then applies its own default, as if this hook had
// not been asked. A host that does not announce the [ExtApproveToolAbstain]
// extension reads it as a denial, so abstaining never approves by accident.
func Abstain() ApproveToolResult { return ApproveToolResult{Abstain: Ptr(true)} }
