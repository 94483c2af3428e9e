// Every type with an Extra field decodes and encodes through
// unmarshalObject and marshalObject, so unknown members survive a round trip.

package protocol

func (v AbortTurn) MarshalJSON() ([]byte, error)           { return marshalObject(v, v.Extra) }
func (v *AbortTurn) UnmarshalJSON(data []byte) error       { return unmarshalObject(data, v, &v.Extra) }
func (v AfterLLMModify) MarshalJSON() ([]byte, error)      { return marshalObject(v, v.Extra) }
func (v *AfterLLMModify) UnmarshalJSON(data []byte) error  { return unmarshalObject(data, v, &v.Extra) }
func (v AfterLLMParams) MarshalJSON() ([]byte, error)      { return marshalObject(v, v.Extra) }
func (v *AfterLLMParams) UnmarshalJSON(data []byte) error  { return unmarshalObject(data, v, &v.Extra) }
func (v AfterToolModify) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *AfterToolModify) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
func (v AfterToolParams) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *AfterToolParams) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
func (v ApproveToolParams) MarshalJSON() ([]byte, error)   { return marshalObject(v, v.Extra) }
func (v *ApproveToolParams) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v ApproveToolResult) MarshalJSON() ([]byte, error) { return marshalObject(v, v.Extra) }
func (v *ApproveToolResult) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v BeforeLLMModify) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *BeforeLLMModify) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
func (v BeforeLLMParams) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *BeforeLLMParams) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
func (v BeforeToolModify) MarshalJSON() ([]byte, error)    { return marshalObject(v, v.Extra) }
func (v *BeforeToolModify) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v BeforeToolParams) MarshalJSON() ([]byte, error) { return marshalObject(v, v.Extra) }
func (v *BeforeToolParams) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v Continue) MarshalJSON() ([]byte, error)           { return marshalObject(v, v.Extra) }
func (v *Continue) UnmarshalJSON(data []byte) error       { return unmarshalObject(data, v, &v.Extra) }
func (v DenyTool) MarshalJSON() ([]byte, error)           { return marshalObject(v, v.Extra) }
func (v *DenyTool) UnmarshalJSON(data []byte) error       { return unmarshalObject(data, v, &v.Extra) }
func (v RPCError) MarshalJSON() ([]byte, error)           { return marshalObject(v, v.Extra) }
func (v *RPCError) UnmarshalJSON(data []byte) error       { return unmarshalObject(data, v, &v.Extra) }
func (v EventScope) MarshalJSON() ([]byte, error)         { return marshalObject(v, v.Extra) }
func (v *EventScope) UnmarshalJSON(data []byte) error     { return unmarshalObject(data, v, &v.Extra) }
func (v EventSource) MarshalJSON() ([]byte, error)        { return marshalObject(v, v.Extra) }
func (v *EventSource) UnmarshalJSON(data []byte) error    { return unmarshalObject(data, v, &v.Extra) }
func (v FunctionCall) MarshalJSON() ([]byte, error)       { return marshalObject(v, v.Extra) }
func (v *FunctionCall) UnmarshalJSON(data []byte) error   { return unmarshalObject(data, v, &v.Extra) }
func (v FunctionDefinition) MarshalJSON() ([]byte, error) { return marshalObject(v, v.Extra) }
func (v *FunctionDefinition) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v HardAbort) MarshalJSON() ([]byte, error)          { return marshalObject(v, v.Extra) }
func (v *HardAbort) UnmarshalJSON(data []byte) error      { return unmarshalObject(data, v, &v.Extra) }
func (v HelloParams) MarshalJSON() ([]byte, error)        { return marshalObject(v, v.Extra) }
func (v *HelloParams) UnmarshalJSON(data []byte) error    { return unmarshalObject(data, v, &v.Extra) }
func (v HelloResult) MarshalJSON() ([]byte, error)        { return marshalObject(v, v.Extra) }
func (v *HelloResult) UnmarshalJSON(data []byte) error    { return unmarshalObject(data, v, &v.Extra) }
func (v InboundContext) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *InboundContext) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
func (v LLMResponse) MarshalJSON() ([]byte, error)        { return marshalObject(v, v.Extra) }
func (v *LLMResponse) UnmarshalJSON(data []byte) error    { return unmarshalObject(data, v, &v.Extra) }
func (v LegacyEvent) MarshalJSON() ([]byte, error)        { return marshalObject(v, v.Extra) }
func (v *LegacyEvent) UnmarshalJSON(data []byte) error    { return unmarshalObject(data, v, &v.Extra) }
func (v Message) MarshalJSON() ([]byte, error)            { return marshalObject(v, v.Extra) }
func (v *Message) UnmarshalJSON(data []byte) error        { return unmarshalObject(data, v, &v.Extra) }
func (v Meta) MarshalJSON() ([]byte, error)               { return marshalObject(v, v.Extra) }
func (v *Meta) UnmarshalJSON(data []byte) error           { return unmarshalObject(data, v, &v.Extra) }
func (v Notification) MarshalJSON() ([]byte, error)       { return marshalObject(v, v.Extra) }
func (v *Notification) UnmarshalJSON(data []byte) error   { return unmarshalObject(data, v, &v.Extra) }
func (v Request) MarshalJSON() ([]byte, error)            { return marshalObject(v, v.Extra) }
func (v *Request) UnmarshalJSON(data []byte) error        { return unmarshalObject(data, v, &v.Extra) }
func (v Respond) MarshalJSON() ([]byte, error)            { return marshalObject(v, v.Extra) }
func (v *Respond) UnmarshalJSON(data []byte) error        { return unmarshalObject(data, v, &v.Extra) }
func (v Response) MarshalJSON() ([]byte, error)           { return marshalObject(v, v.Extra) }
func (v *Response) UnmarshalJSON(data []byte) error       { return unmarshalObject(data, v, &v.Extra) }
func (v RuntimeEvent) MarshalJSON() ([]byte, error)       { return marshalObject(v, v.Extra) }
func (v *RuntimeEvent) UnmarshalJSON(data []byte) error   { return unmarshalObject(data, v, &v.Extra) }
func (v ToolCall) MarshalJSON() ([]byte, error)           { return marshalObject(v, v.Extra) }
func (v *ToolCall) UnmarshalJSON(data []byte) error       { return unmarshalObject(data, v, &v.Extra) }
func (v ToolDefinition) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *ToolDefinition) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
func (v ToolResult) MarshalJSON() ([]byte, error)         { return marshalObject(v, v.Extra) }
func (v *ToolResult) UnmarshalJSON(data []byte) error     { return unmarshalObject(data, v, &v.Extra) }
func (v TurnContext) MarshalJSON() ([]byte, error)        { return marshalObject(v, v.Extra) }
func (v *TurnContext) UnmarshalJSON(data []byte) error    { return unmarshalObject(data, v, &v.Extra) }
func (v CacheControl) MarshalJSON() ([]byte, error)       { return marshalObject(v, v.Extra) }
func (v *CacheControl) UnmarshalJSON(data []byte) error   { return unmarshalObject(data, v, &v.Extra) }
func (v ContentBlock) MarshalJSON() ([]byte, error)       { return marshalObject(v, v.Extra) }
func (v *ContentBlock) UnmarshalJSON(data []byte) error   { return unmarshalObject(data, v, &v.Extra) }
func (v GoogleExtraContent) MarshalJSON() ([]byte, error) { return marshalObject(v, v.Extra) }
func (v *GoogleExtraContent) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v ImageURL) MarshalJSON() ([]byte, error)             { return marshalObject(v, v.Extra) }
func (v *ImageURL) UnmarshalJSON(data []byte) error         { return unmarshalObject(data, v, &v.Extra) }
func (v ToolCallExtraContent) MarshalJSON() ([]byte, error) { return marshalObject(v, v.Extra) }
func (v *ToolCallExtraContent) UnmarshalJSON(data []byte) error {
	return unmarshalObject(data, v, &v.Extra)
}
func (v Usage) MarshalJSON() ([]byte, error)     { return marshalObject(v, v.Extra) }
func (v *Usage) UnmarshalJSON(data []byte) error { return unmarshalObject(data, v, &v.Extra) }
