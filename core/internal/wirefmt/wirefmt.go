// Package wirefmt writes the small pieces of text that the wire's writers
// and the messages about it share: a string as a JSON string, appended with
// no allocation where it can be, and a long line cut short for a log record
// or an error message.
package wirefmt

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// AppendString appends s as a JSON string. Plain printable ASCII, as method
// names, ids and tool names are, is appended as it is; anything else goes
// through encoding/json, which escapes it as the wire's encoder does
// (<, > and & included).
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Clip cuts s to at most max bytes for a message, at a character boundary,
// and says how long it was: "first bytes… (12345 bytes)". A string that
// fits is returned as it is.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
