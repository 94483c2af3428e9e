package protocol

import (
	"encoding/json"
	"fmt"
)

// JSONRPCVersion is the value of the jsonrpc member of every message.
const JSONRPCVersion = "2.0"

// Standard JSON-RPC 2.0 error codes, and the one hooks use for a failed handler.
const (
	CodeParseError     = -32700 // the line is not JSON
	CodeInvalidRequest = -32600 // JSON, but not a request
	CodeMethodNotFound = -32601 // the method is unknown to the receiver
	CodeInvalidParams  = -32602 // params do not fit the method
	CodeInternalError  = -32603 // the receiver failed outside any handler
	CodeHandlerError   = -32000 // the handler for the method failed
)

// ErrorCodes lists the error codes above, with what each means.
var ErrorCodes = []struct {
	Name string
	Code int
	Doc  string
}{
	{"ParseError", CodeParseError, "The line is not JSON; the reply's id is null."},
	{"InvalidRequest", CodeInvalidRequest, "The message is JSON but not a request."},
	{"MethodNotFound", CodeMethodNotFound, "The receiver does not know the method."},
	{"InvalidParams", CodeInvalidParams, "The params do not fit the method."},
	{"InternalError", CodeInternalError, "The receiver failed outside any handler."},
	{"HandlerError", CodeHandlerError, "The handler for the method failed; the message says why."},
}

// Request is a call that expects a Response with the same id.
type Request struct {
	// JSONRPC is always "2.0".
	JSONRPC string `json:"jsonrpc"`
	// ID identifies the call; hosts count up from 1 and hello is 1.
	ID uint64 `json:"id"`
	// Method is one of the hook.* methods.
	Method string `json:"method"`
	// Params is the method's params object.
	Params json.RawMessage `json:"params,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// Notification is a message that gets no reply. Older hosts may send an id of 0.
type Notification struct {
	// JSONRPC is always "2.0".
	JSONRPC string `json:"jsonrpc"`
	// ID is absent, or 0 on older hosts.
	ID *uint64 `json:"id,omitempty"`
	// Method is hook.runtime_event or hook.event.
	Method string `json:"method"`
	// Params is the event.
	Params json.RawMessage `json:"params,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// Response answers a Request: exactly one of Result and Error is set.
type Response struct {
	// JSONRPC is always "2.0".
	JSONRPC string `json:"jsonrpc"`
	// ID is the id of the request answered; null only when that id could not be read.
	ID *uint64 `json:"id"`
	// Result is the method's result when the call succeeded.
	Result json.RawMessage `json:"result,omitzero"`
	// Error says why the call failed.
	Error *RPCError `json:"error,omitempty"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	// Code is one of the Code* constants, or another integer code.
	Code int `json:"code"`
	// Message says what went wrong, in one line.
	Message string `json:"message"`
	// Data carries optional details.
	Data json.RawMessage `json:"data,omitzero"`
	// Extra holds members this version does not know.
	Extra Extra `json:",embed" jsonschema:"-"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }
