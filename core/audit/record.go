// Package audit keeps a record of every hook decision in a hash-chained
// JSON Lines file: each record names the hash of the record before it, so
// that a record edited, removed or moved after it was written breaks the
// chain, and Verify says where.
//
// The chain makes tampering visible, not impossible: whoever can write the
// file as its user can also write a whole new chain. Verify catches an
// edit that did not rewrite every record after it and the head file; to
// keep records that no one on the machine can rewrite, send them off it.
package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// Record is one line of the log: one hook's answer to one call.
type Record struct {
	// Seq counts the records of the log from 1, across its rotated files.
	Seq uint64 `json:"seq"`
	// Time is when the call ended, RFC 3339 in UTC.
	Time string `json:"time"`
	// Host is the program that called the hook: "hookwire run",
	// "hookwire-bridge", "hookwire mcp", or an embedder's name.
	Host string `json:"host"`
	// Agent and Session name the agent and its session, where the host
	// knows them (the bridge does).
	Agent   string `json:"agent,omitempty"`
	Session string `json:"session,omitempty"`
	Hook    string `json:"hook"`
	Method  string `json:"method"`
	// Tool is the tool the call is about, if any.
	Tool string `json:"tool,omitempty"`
	// Action is what the hook answered (continue, modify, deny_tool, ...),
	// or approved / denied / abstained for an approver.
	Action string `json:"action,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Error says why the call failed; Policy is the failure policy that
	// then applied (closed: the call is refused).
	Error  string  `json:"error,omitempty"`
	Policy string  `json:"policy,omitempty"`
	MS     float64 `json:"ms"`
	// Prev is the SHA-256, in hex, of the line of the record before this
	// one, as written; empty for the first record of a log.
	Prev string `json:"prev"`
}

// Source is who writes the records of a Log: the host, and the agent and
// session where the host serves one.
type Source struct {
	Host, Agent, Session string
}

// hashLine is the hash a record's successor names as its Prev.
func hashLine(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// RecordOf is what a hook call decided, as a record (Seq, Time and Prev
// are the log's to set).
func RecordOf(src Source, c runtime.CallRecord) Record {
	r := Record{Host: src.Host, Agent: src.Agent, Session: src.Session, Hook: c.Hook, Method: c.Method,
		MS: float64(c.Duration.Microseconds()) / 1000}
	// Every call about a tool names it: its params have a Tool member.
	if p := reflect.Indirect(reflect.ValueOf(c.Params)); p.Kind() == reflect.Struct {
		if tool := p.FieldByName("Tool"); tool.Kind() == reflect.String {
			r.Tool = tool.String()
		}
	}
	switch v := c.Result.(type) {
	case nil:
		r.Policy = string(c.Policy)
		if c.Err != nil {
			r.Error = c.Err.Error()
		}
	case protocol.Variant:
		r.Action, r.Reason = string(v.ResultAction()), protocol.ReasonOf(v)
	case *protocol.ApproveToolResult:
		r.Action, r.Reason = approval(v), deref(v.Reason)
	case protocol.ApproveToolResult:
		r.Action, r.Reason = approval(&v), deref(v.Reason)
	}
	return r
}

func approval(v *protocol.ApproveToolResult) string {
	switch {
	case v.Abstain != nil && *v.Abstain:
		return "abstained"
	case v.Approved:
		return "approved"
	}
	return "denied"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
