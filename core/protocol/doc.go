// Package protocol defines every message of the hookwire wire protocol,
// version 1: the JSON-RPC 2.0 envelopes, the hook.* methods with their
// params and results, and the observe notifications.
//
// These types are the single source of truth. The JSON Schema in
// schema/hookwire.schema.json is reflected from them, and the typed code of
// every SDK is generated from that schema.
//
// Optional fields follow one rule, so that decoding and re-encoding a
// message gives back the same JSON: an optional scalar is a pointer, an
// optional list or object is omitted only when nil, and a field that may be
// JSON null is a json.RawMessage. Keys a newer peer adds are kept in Extra
// and written back unchanged, by Marshal and Unmarshal: encoding/json (v1)
// does not keep them.
package protocol

// Version is the protocol version sent in hook.hello.
const Version = 1
