package main

import (
	"strings"
	"unicode"
)

// initialisms are written in capitals inside Go and TypeScript names, as
// Go's style asks: chat_id is ChatID, before_llm is BeforeLLM.
var initialisms = map[string]bool{
	"API": true, "HTTP": true, "ID": true, "JSON": true, "JSONRPC": true,
	"LLM": true, "OK": true, "RPC": true, "URI": true, "URL": true, "UUID": true,
}

// words splits a wire name into words: at every character that is not a
// letter or digit, and where a lower-case letter or digit meets an upper-case
// one (AgentID is Agent, ID; LLMResponse is LLM, Response).
func words(s string) []string {
	var out []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = nil
		}
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 && unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// pascal is the exported Go (and TypeScript key) name of a wire name.
func pascal(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		rs := []rune(w)
		b.WriteString(strings.ToUpper(string(rs[0])) + string(rs[1:]))
	}
	return b.String()
}

// snake is the Python function name part of a type name: BeforeLLMParams
// is before_llm_params.
func snake(s string) string {
	ws := words(s)
	for i, w := range ws {
		ws[i] = strings.ToLower(w)
	}
	return strings.Join(ws, "_")
}

// screaming is the Python constant name part of a wire value:
// agent.tool.exec_start is AGENT_TOOL_EXEC_START.
func screaming(s string) string { return strings.ToUpper(snake(s)) }

// methodName is the name of a method without its namespace:
// hook.before_llm is before_llm.
func methodName(method string) string {
	return method[strings.LastIndex(method, ".")+1:]
}
