package policy

import (
	"fmt"
	"strings"

	"cel.dev/cel-go/cel"
	"github.com/tailscale/hujson"
)

// A message is a rule's text with ${EXPR} parts, each a CEL expression
// written in at the call: "blocked: ${command}".
type message struct {
	parts []string      // the text between the expressions, one more than exprs
	exprs []*celProgram // each given as a string (string(x) of any value)
}

// maxPart bounds what one ${EXPR} writes into a message: a message is read
// by a person and a model.
const maxPart = 300

// message compiles the message at v.
func (r reader) message(env *cel.Env, v *hujson.Value, key string) (message, error) {
	text, err := r.str(v, key)
	if err != nil {
		return message{}, err
	}
	var m message
	rest, consumed := text, 0
	for {
		start := strings.Index(rest, "${")
		if start < 0 {
			m.parts = append(m.parts, rest)
			return m, nil
		}
		end := closing(rest[start+2:])
		if end < 0 {
			return message{}, r.fault(r.within(v, text, consumed+start), "a ${ with no } to end it")
		}
		m.parts = append(m.parts, rest[:start])
		src := rest[start+2 : start+2+end]
		prg, err := r.compileText(env, v, text, consumed+start+2, "string("+src+")", 7, key, cel.StringType)
		if err != nil {
			return message{}, err
		}
		m.exprs = append(m.exprs, prg)
		consumed += start + 2 + end + 1
		rest = rest[start+2+end+1:]
	}
}

// closing is the index of the } that ends an expression begun before s,
// past braces and quoted strings within it; -1 when there is none.
func closing(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// render writes the message for one call.
func (m message) render(in map[string]any) (string, error) {
	var b strings.Builder
	for i, part := range m.parts {
		b.WriteString(part)
		if i == len(m.exprs) {
			break
		}
		v, err := m.exprs[i].eval(in)
		if err != nil {
			return "", err
		}
		s := fmt.Sprint(v)
		if runes := []rune(s); len(runes) > maxPart {
			s = string(runes[:maxPart]) + "..."
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// text is the message with no expression in it: its parts.
func (m message) text() string { return strings.Join(m.parts, "") }
