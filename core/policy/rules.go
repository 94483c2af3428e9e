package policy

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"github.com/tailscale/hujson"
)

// costLimit bounds what one rule may spend on one call: a call of any
// size is judged in a bounded time, and a rule over the limit denies it.
const costLimit = 1_000_000

// rewritable are the members a rewrite may set: what the tool does, in
// the argument that holds it for that tool.
var rewritable = []string{"command", "path", "url", "pattern"}

// rule compiles the n-th rule at v.
func (r reader) rule(env *cel.Env, v *hujson.Value, n int) (*Rule, error) {
	if err := r.unknownKeys(v, "rule", "name", "when", Deny, Ask, Allow, Rewrite, "message"); err != nil {
		return nil, err
	}
	m := members(v)
	rule := &Rule{Name: "rule " + strconv.Itoa(n), At: r.at(v)}
	if nv := m["name"]; nv != nil {
		name, err := r.str(nv, "name")
		if err != nil {
			return nil, err
		}
		rule.Name = name
	}
	when := m["when"]
	if when == nil {
		return nil, r.fault(v, rule.Name+` has no "when": the condition, in CEL, under which it decides`)
	}
	var err error
	if rule.when, err = r.compile(env, when, "when", cel.BoolType); err != nil {
		return nil, err
	}
	var effects []string
	for _, e := range []string{Deny, Ask, Allow, Rewrite} {
		if m[e] != nil {
			effects = append(effects, e)
		}
	}
	if len(effects) != 1 {
		return nil, r.fault(v, rule.Name+` must say what it does, once: "deny", "ask" or "allow" with a message, or "rewrite"`)
	}
	rule.Effect = effects[0]
	if rule.Effect == Rewrite {
		if rule.rewrite, err = r.rewrites(env, m[Rewrite]); err != nil {
			return nil, err
		}
		if mv := m["message"]; mv != nil {
			if rule.message, err = r.message(env, mv, "message"); err != nil {
				return nil, err
			}
		}
		return rule, nil
	}
	if m["message"] != nil {
		return nil, r.fault(m["message"], `the message of a "`+rule.Effect+`" rule is its value: "`+rule.Effect+`": "why"`)
	}
	if rule.message, err = r.message(env, m[rule.Effect], rule.Effect); err != nil {
		return nil, err
	}
	if rule.Effect != Allow && strings.TrimSpace(rule.message.text()) == "" && len(rule.message.exprs) == 0 {
		return nil, r.fault(m[rule.Effect], "say why: the agent and the model read it")
	}
	return rule, nil
}

// rewrites compiles a rewrite's members, each a CEL string.
func (r reader) rewrites(env *cel.Env, v *hujson.Value) (map[string]*celProgram, error) {
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, r.fault(v, `"rewrite" is an object: the member to rewrite (`+strings.Join(rewritable, ", ")+`) and its new value, in CEL`)
	}
	if err := r.unknownKeys(v, "rewrite", rewritable...); err != nil {
		return nil, err
	}
	out := map[string]*celProgram{}
	for name, expr := range members(v) {
		p, err := r.compile(env, expr, name, cel.StringType)
		if err != nil {
			return nil, err
		}
		out[name] = p
	}
	if len(out) == 0 {
		return nil, r.fault(v, "a rewrite sets at least one of "+strings.Join(rewritable, ", "))
	}
	return out, nil
}

// celProgram is a compiled expression and where it is.
type celProgram struct {
	prg cel.Program
	at  string
}

// compile compiles the CEL string at v, which must give want; a fault is
// told at its place in the file.
func (r reader) compile(env *cel.Env, v *hujson.Value, key string, want *cel.Type) (*celProgram, error) {
	src, err := r.str(v, key)
	if err != nil {
		return nil, err
	}
	return r.compileText(env, v, src, 0, src, 0, key, want)
}

// compileText compiles src, which is the part of the string text at v
// that begins at byte start, after a prefix of skip characters that is
// not in the file (the string( around a message's ${EXPR}).
func (r reader) compileText(env *cel.Env, v *hujson.Value, text string, start int, src string, skip int, key string, want *cel.Type) (*celProgram, error) {
	ast, iss := env.Compile(src)
	if iss != nil && iss.Err() != nil {
		e := iss.Errors()[0]
		at := utf8.RuneCountInString(text[:start]) + max(0, charIndex(src, e.Location.Line(), e.Location.Column())-skip)
		return nil, r.fault(r.within(v, text, at), firstLine(e.Message))
	}
	if !ast.OutputType().IsExactType(want) && !ast.OutputType().IsExactType(cel.DynType) {
		return nil, r.fault(v, fmt.Sprintf("%q gives %s, where %s is needed", key, ast.OutputType(), want))
	}
	prg, err := env.Program(ast, cel.CostLimit(costLimit), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, r.fault(v, err.Error())
	}
	return &celProgram{prg: prg, at: r.at(v)}, nil
}

// within is a value at the character at, counted from 0, of the string
// text at v, for a fault's place.
func (r reader) within(v *hujson.Value, text string, at int) *hujson.Value {
	return &hujson.Value{StartOffset: v.StartOffset + rawOffset(r.data[v.StartOffset:v.EndOffset], at)}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// charIndex is the index, in characters, of the character of expr at line
// (from 1) and column (from 0, in characters).
func charIndex(expr string, line, column int) int {
	at := 0
	for i, l := range strings.SplitAfter(expr, "\n") {
		if i == line-1 {
			return at + column
		}
		at += utf8.RuneCountInString(l)
	}
	return at
}

// rawOffset is the byte offset, in the JSON string literal raw (quotes
// included), of its decoded character number at (from 0).
func rawOffset(raw []byte, at int) int {
	off, n := 1, 0
	for off < len(raw)-1 && n < at {
		if raw[off] != '\\' {
			_, size := utf8.DecodeRune(raw[off:])
			off += size
		} else if raw[off+1] == 'u' {
			off += 6
			if off+1 < len(raw) && raw[off] == '\\' && raw[off+1] == 'u' && isHighSurrogate(raw[off-4:off]) {
				off += 6 // the second half of a pair: one character
			}
		} else {
			off += 2
		}
		n++
	}
	return min(off, len(raw))
}

func isHighSurrogate(hex []byte) bool {
	v, err := strconv.ParseUint(string(hex), 16, 16)
	return err == nil && v >= 0xD800 && v <= 0xDBFF
}
