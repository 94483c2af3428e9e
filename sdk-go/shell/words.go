package shell

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A word as the shell passes it: val after quote removal, raw as written.
// A dynamic word's value is known only when the shell runs, so a command
// keeps its raw text.
type word struct {
	val, raw string
	dyn      bool
}

func (w word) arg() string {
	if w.dyn {
		return w.raw
	}
	return w.val
}

// isMeta reports the bytes that end an unquoted word.
func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// How a word is read: plainWord anywhere; assignWord where an assignment
// may be (NAME[ reads to its ], blanks and operators included, as bash
// does); regexWord on the right of [[ =~ ]] (parentheses, | and blanks
// inside parentheses belong to the word).
type wordMode int

const (
	plainWord wordMode = iota
	assignWord
	regexWord
)

// word reads one word at p.pos, which must not be at a metacharacter
// (except for a process substitution).
func (p *parser) word(mode wordMode) word {
	regex := mode == regexWord
	brackets := 0 // depth in an assignment's [subscript]
	start := p.pos
	var b strings.Builder
	// shape holds the unquoted bytes of the word, and 0 for each quoted
	// or escaped one, for telling a brace expansion.
	var shape []byte
	dyn := false
	parens := 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				b.WriteByte('\\') // a backslash at the end is itself
				shape = append(shape, 0)
				p.pos++
				continue
			}
			if p.src[p.pos+1] == '\n' {
				p.pos += 2
				continue
			}
			b.WriteByte(p.src[p.pos+1])
			shape = append(shape, 0)
			p.pos += 2
		case c == '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.fail(ReasonSyntax, p.src[p.pos:])
			}
			b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			shape = append(shape, 0)
			p.pos += end + 2
		case c == '"':
			if p.dquote(&b) {
				dyn = true
			}
			shape = append(shape, 0)
		case c == '$':
			if p.dollar(&b, false) {
				dyn = true
			}
			shape = append(shape, 0)
		case c == '`':
			p.backtick(&b, false)
			dyn = true
		case (c == '<' || c == '>') && p.pos+1 < len(p.src) && p.src[p.pos+1] == '(':
			p.procsubst(&b)
			dyn = true
		case mode == assignWord && c == '[' && (brackets > 0 || !dyn && validName(string(shape))):
			brackets++
			b.WriteByte(c)
			shape = append(shape, 0)
			p.pos++
		case brackets > 0 && c == ']':
			brackets--
			b.WriteByte(c)
			shape = append(shape, 0)
			p.pos++
		case brackets > 0 && isMeta(c):
			b.WriteByte(c)
			shape = append(shape, 0)
			p.pos++
		case regex && c == '(':
			parens++
			b.WriteByte(c)
			p.pos++
		case regex && c == ')' && parens > 0:
			parens--
			b.WriteByte(c)
			p.pos++
		case regex && parens > 0 && (c == ' ' || c == '\t' || c == '|' || c == '<' || c == '>'),
			regex && c == '|':
			b.WriteByte(c)
			p.pos++
		case isMeta(c):
			return p.done(start, &b, shape, dyn)
		default:
			b.WriteByte(c)
			shape = append(shape, c)
			p.pos++
		}
	}
	if brackets > 0 {
		p.fail(ReasonSyntax, p.src[start:])
	}
	return p.done(start, &b, shape, dyn)
}

func (p *parser) done(start int, b *strings.Builder, shape []byte, dyn bool) word {
	if !dyn && braceExpands(shape) {
		dyn = true
	}
	return word{val: b.String(), raw: p.src[start:p.pos], dyn: dyn}
}

// dquote reads a double-quoted string at p.pos into b.
func (p *parser) dquote(b *strings.Builder) bool {
	p.pos++
	return p.dquoted(b, true)
}

// dquoted reads the inside of a double-quoted string, up to its closing
// quote when closed is true, else to the end of the source (an unquoted
// here-document's body). It reports whether anything in it is dynamic.
func (p *parser) dquoted(b *strings.Builder, closed bool) bool {
	dyn := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"' && closed:
			p.pos++
			return dyn
		case c == '\\' && p.pos+1 < len(p.src):
			n := p.src[p.pos+1]
			switch {
			case n == '\n':
			case n == '$' || n == '`' || n == '\\' || (n == '"' && closed):
				b.WriteByte(n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			p.pos += 2
		case c == '$':
			if p.dollar(b, true) {
				dyn = true
			}
		case c == '`':
			p.backtick(b, true)
			dyn = true
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	if closed {
		p.fail(ReasonSyntax, "unterminated double quote")
	}
	return dyn
}

// dollar reads what starts with $ at p.pos, writing its value (or its
// source when dynamic) to b; it reports whether it is dynamic.
func (p *parser) dollar(b *strings.Builder, inDquote bool) bool {
	start := p.pos
	var n byte
	if p.pos+1 < len(p.src) {
		n = p.src[p.pos+1]
	}
	switch {
	case n == '\'' && !inDquote:
		p.pos += 2
		p.ansiC(b)
		return false
	case n == '"' && !inDquote:
		p.pos++
		return p.dquote(b)
	case n == '(':
		if strings.HasPrefix(p.src[p.pos:], "$((") {
			if end, ok := arithEnd(p.src, p.pos+3); ok {
				p.arithText(p.src[p.pos+3 : end])
				p.pos = end + 2
				break
			}
		}
		p.pos += 2
		p.nested("$()")
	case n == '[':
		p.pos += 2
		end := p.matched(']', '[', inDquote)
		p.arith(p.src[start+2 : end])
	case n == '{':
		p.param(inDquote)
	case n == '_' || 'a' <= n && n <= 'z' || 'A' <= n && n <= 'Z':
		p.pos += 2
		for p.pos < len(p.src) && isNameByte(p.src[p.pos]) {
			p.pos++
		}
	case '0' <= n && n <= '9' || strings.IndexByte("@*#?-$!", n) >= 0:
		p.pos += 2
	default:
		b.WriteByte('$') // a $ before anything else is itself
		p.pos++
		return false
	}
	b.WriteString(p.src[start:p.pos])
	return true
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// param reads ${...} at p.pos: it ends at the first } outside quotes and
// outside what it holds, and the substitutions in it run.
func (p *parser) param(inDquote bool) {
	p.pos += 2
	p.matched('}', 0, inDquote)
}

// matched reads up to the close byte that ends what starts at p.pos (a
// nest byte inside opens one more), past quotes and substitutions, whose
// commands run, and returns the index of the close byte. It is one level
// deeper.
func (p *parser) matched(close, nest byte, inDquote bool) int {
	p.enter()
	defer p.leave()
	start := p.pos
	depth := 0
	var sink strings.Builder
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == close && depth == 0:
			p.pos++
			return p.pos - 1
		case c == close:
			depth--
			p.pos++
		case c == nest && nest != 0:
			depth++
			p.pos++
		case c == '\\':
			p.pos += 2
		case c == '\'' && !inDquote:
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.fail(ReasonSyntax, p.src[p.pos:])
			}
			p.pos += end + 2
		case c == '"':
			p.dquote(&sink)
		case c == '$':
			p.dollar(&sink, inDquote)
		case c == '`':
			p.backtick(&sink, inDquote)
		case p.procsubstAt():
			p.procsubst(&sink)
		default:
			p.pos++
		}
		sink.Reset()
	}
	p.fail(ReasonSyntax, p.src[start:])
	return 0
}

// backtick reads `...` at p.pos and reads its text again, with \$, \`
// and \\ (and \" inside double quotes) unescaped as the shell does.
func (p *parser) backtick(b *strings.Builder, inDquote bool) {
	start := p.pos
	p.pos++
	var text strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.fail(ReasonSyntax, p.src[start:])
		}
		c := p.src[p.pos]
		if c == '`' {
			p.pos++
			break
		}
		if c == '\\' && p.pos+1 < len(p.src) {
			n := p.src[p.pos+1]
			if n == '$' || n == '`' || n == '\\' || (n == '"' && inDquote) {
				text.WriteByte(n)
			} else {
				text.WriteByte(c)
				text.WriteByte(n)
			}
			p.pos += 2
			continue
		}
		text.WriteByte(c)
		p.pos++
	}
	b.WriteString(p.src[start:p.pos])
	p.again(text.String(), "$()")
}

// procsubst reads <(...) or >(...) at p.pos.
func (p *parser) procsubst(b *strings.Builder) {
	start := p.pos
	via := p.src[p.pos:p.pos+1] + "()"
	p.pos += 2
	p.nested(via)
	b.WriteString(p.src[start:p.pos])
}

// ansiC reads the inside of $'...' (p.pos after the opening quote) with
// bash's escapes.
func (p *parser) ansiC(b *strings.Builder) {
	// bash's strings end at a NUL: $'a\0b' is a.
	start := b.Len()
	defer func() {
		if s := b.String(); strings.IndexByte(s[start:], 0) >= 0 {
			s = s[:start+strings.IndexByte(s[start:], 0)]
			b.Reset()
			b.WriteString(s)
		}
	}()
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '\'' {
			p.pos++
			return
		}
		if c != '\\' || p.pos+1 >= len(p.src) {
			b.WriteByte(c)
			p.pos++
			continue
		}
		n := p.src[p.pos+1]
		p.pos += 2
		switch n {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(n)
		case 'c':
			if p.pos < len(p.src) {
				if c := p.src[p.pos]; c == '?' {
					b.WriteByte(0x7f) // \c? is DEL
				} else {
					b.WriteByte(c & 0x1f)
				}
				p.pos++
			}
		case 'x', 'u', 'U':
			width := 2
			if n == 'u' {
				width = 4
			} else if n == 'U' {
				width = 8
			}
			v, k := p.digits(16, width)
			switch {
			case k == 0:
				b.WriteByte('\\')
				b.WriteByte(n)
			case n == 'x':
				b.WriteByte(byte(v))
			default:
				b.WriteString(string(utf8.AppendRune(nil, rune(v))))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			p.pos--
			v, _ := p.digits(8, 3)
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(n)
		}
	}
	p.fail(ReasonSyntax, "unterminated $'")
}

// digits reads up to max digits in base at p.pos.
func (p *parser) digits(base, max int) (v, k int) {
	for k < max && p.pos < len(p.src) {
		d := strings.IndexByte("0123456789abcdef", lower(p.src[p.pos]))
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
		k++
		p.pos++
	}
	return v, k
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// arithEnd finds the )) that closes an arithmetic expansion or command
// whose text starts at i; ok is false when a ) closes first (its index is
// returned, 0 at the end of s), and then the (( is two parentheses, as
// bash reads it.
func arithEnd(s string, i int) (int, bool) {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'', '"', '`':
			end := closingQuote(s, i)
			if end < 0 {
				return 0, false
			}
			i = end
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if i+1 < len(s) && s[i+1] == ')' {
				return i, true
			}
			return i, false // where a ) closed first
		}
	}
	return 0, false
}

// closingQuote is the index of the quote that closes the one at i, or -1.
func closingQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == s[i]:
			return j
		case s[i] != '\'' && s[j] == '\\':
			j++
		}
	}
	return -1
}

// arith notes arithmetic whose text names anything: bash evaluates a
// name's value as arithmetic again, and that can run a command.
// arithText notes arithmetic and reads the substitutions in its text,
// which bash parses with the line and runs; it is one level deeper.
func (p *parser) arithText(text string) {
	p.arith(text)
	if strings.ContainsAny(text, "$`") {
		c := &parser{src: text, st: p.st, depth: p.depth, via: p.via}
		c.enter()
		var sink strings.Builder
		c.dquoted(&sink, false)
	}
}

func (p *parser) arith(text string) {
	for i := 0; i < len(text); i++ {
		if strings.IndexByte("0123456789 \t\n+-*/%<>=!&|^~?:(),;", text[i]) < 0 {
			p.st.add(ReasonArithmetic, text)
			return
		}
	}
}

// A brace expansion's sequence: {1..3}, {a..e}, {1..9..2}.
var sequence = regexp.MustCompile(`^(-?[0-9]+\.\.-?[0-9]+|[a-zA-Z]\.\.[a-zA-Z])(\.\.-?[0-9]+)?$`)

// braceExpands reports whether the unquoted bytes of a word (quoted ones
// are 0) hold a brace expansion: a {} pair with a comma of its own or a
// sequence inside.
func braceExpands(shape []byte) bool {
	type open struct {
		at    int
		comma bool
	}
	var stack []open
	for i, c := range shape {
		switch c {
		case '{':
			stack = append(stack, open{at: i})
		case ',':
			if len(stack) > 0 {
				stack[len(stack)-1].comma = true
			}
		case '}':
			if len(stack) == 0 {
				continue
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if o.comma || sequence.Match(shape[o.at+1:i]) {
				return true
			}
		}
	}
	return false
}
