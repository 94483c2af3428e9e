package shell

import "strings"

// parser reads one source: the command line, or a string read again (a
// shell's -c, eval, a backquoted substitution, a here-document's body).
// The parsers of one reading share its state.
type parser struct {
	src   string
	pos   int
	st    *state
	depth int
	via   string    // the Via of the commands this parser reads at its level
	docs  []heredoc // here-documents whose bodies start after the next newline
}

type heredoc struct {
	delim  string
	strip  bool // <<-: leading tabs are removed
	quoted bool // a quoted delimiter: the body is not expanded
}

// fail records an unknown and ends the reading.
func (p *parser) fail(reason, text string) {
	p.st.add(reason, text)
	panic(stop{})
}

func (p *parser) syntax() {
	p.fail(ReasonSyntax, p.src[p.pos:])
}

// enter and leave count one level of nesting.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(ReasonDepth, p.src[p.pos:])
	}
}

func (p *parser) leave() { p.depth-- }

// again reads a string as a command line of its own, one level deeper,
// its commands run by via.
func (p *parser) again(src, via string) {
	c := &parser{src: src, st: p.st, depth: p.depth, via: via}
	c.enter()
	c.program()
}

// nested reads a command list in this source up to its closing ) (a
// substitution), one level deeper, its commands run by via.
func (p *parser) nested(via, close string) {
	p.enter()
	saved := p.via
	p.via = via
	p.list()
	p.skipBlanks()
	if !strings.HasPrefix(p.src[p.pos:], close) {
		p.syntax()
	}
	p.pos += len(close)
	p.via = saved
	p.leave()
}

// program reads a whole source.
func (p *parser) program() {
	p.list()
	p.skipBlanks()
	if p.pos < len(p.src) || len(p.docs) > 0 {
		p.syntax()
	}
}

// skipBlanks skips blanks, joined lines and a comment, which starts where
// a word would.
func (p *parser) skipBlanks() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t':
			p.pos++
		case c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
		case c == '#':
			end := strings.IndexByte(p.src[p.pos:], '\n')
			if end < 0 {
				p.pos = len(p.src)
			} else {
				p.pos += end
			}
		default:
			return
		}
	}
}

// skipNewlines skips blanks and newlines, reading the here-documents that
// each newline ends the line of.
func (p *parser) skipNewlines() {
	for {
		p.skipBlanks()
		if p.pos >= len(p.src) || p.src[p.pos] != '\n' {
			return
		}
		p.pos++
		p.heredocs()
	}
}

var operators = []string{
	";;&", ";;", ";&", ";", "&&", "&>>", "&>", "&", "||", "|&", "|",
	"(", ")", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">", "\n",
}

// op is the operator at p.pos after blanks, or "" at a word or the end.
func (p *parser) op() string {
	p.skipBlanks()
	rest := p.src[p.pos:]
	if rest == "" || !isMeta(rest[0]) {
		return ""
	}
	for _, o := range operators {
		if strings.HasPrefix(rest, o) {
			return o
		}
	}
	return "" // a blank: not reached after skipBlanks
}

var keywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true,
	"do": true, "done": true, "case": true, "esac": true, "while": true,
	"until": true, "for": true, "select": true, "in": true, "function": true,
	"time": true, "!": true, "{": true, "}": true, "[[": true, "]]": true,
	"coproc": true,
}

// keyword is the reserved word at p.pos after blanks, or "": a reserved
// word is a whole unquoted word where a command starts.
func (p *parser) keyword() string {
	p.skipBlanks()
	i := p.pos
	for i < len(p.src) && i-p.pos <= 8 && !isMeta(p.src[i]) && strings.IndexByte("'\"\\$`", p.src[i]) < 0 {
		i++
	}
	if i < len(p.src) && !isMeta(p.src[i]) {
		return ""
	}
	if w := p.src[p.pos:i]; keywords[w] {
		return w
	}
	return ""
}

// closers end a list where a command would start.
var closers = map[string]bool{
	"then": true, "else": true, "elif": true, "fi": true, "do": true,
	"done": true, "esac": true, "}": true, "in": true, "]]": true,
}

// startsCommand reports whether a command starts at p.pos.
func (p *parser) startsCommand() bool {
	switch p.op() {
	case "":
		return p.pos < len(p.src) && !closers[p.keyword()]
	case "(", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">", "&>", "&>>":
		return true
	}
	return false
}

// list reads commands separated by ;, & and newlines, up to what cannot
// start a command; it returns how many it read.
func (p *parser) list() int {
	n := 0
	for {
		p.skipNewlines()
		if !p.startsCommand() {
			return n
		}
		p.andOr()
		n++
		switch p.op() {
		case ";", "&":
			p.pos++
			if o := p.op(); o == ";" || o == "&" {
				p.syntax()
			}
		case "\n":
		default:
			return n
		}
	}
}

// body reads a list that must hold a command.
func (p *parser) body() {
	if p.list() == 0 {
		p.syntax()
	}
}

func (p *parser) andOr() {
	p.pipeline()
	for {
		o := p.op()
		if o != "&&" && o != "||" {
			return
		}
		p.pos += 2
		p.skipNewlines()
		if !p.startsCommand() {
			p.syntax()
		}
		p.pipeline()
	}
}

func (p *parser) pipeline() {
	bare := false // time or ! alone is a whole pipeline
	for {
		kw := p.keyword()
		if kw != "!" && kw != "time" {
			break
		}
		p.pos += len(kw)
		bare = true
		if kw == "time" {
			p.skipBlanks()
			if strings.HasPrefix(p.src[p.pos:], "-p") && (p.pos+2 == len(p.src) || isMeta(p.src[p.pos+2])) {
				p.pos += 2
			}
		}
	}
	if bare && !p.startsCommand() {
		return
	}
	p.command()
	for {
		o := p.op()
		if o != "|" && o != "|&" {
			return
		}
		p.pos += len(o)
		p.skipNewlines()
		if !p.startsCommand() || p.keyword() == "!" {
			p.syntax()
		}
		p.command()
	}
}

func (p *parser) command() {
	p.skipBlanks()
	if strings.HasPrefix(p.src[p.pos:], "((") {
		if end, ok := arithEnd(p.src, p.pos+2); ok {
			p.arith(p.src[p.pos+2 : end])
			p.pos = end + 2
			p.tail()
			return
		}
	}
	if p.op() == "(" {
		p.pos++
		p.enter()
		p.body()
		if p.op() != ")" {
			p.syntax()
		}
		p.pos++
		p.leave()
		p.tail()
		return
	}
	switch kw := p.keyword(); kw {
	case "{":
		p.pos++
		p.enter()
		p.body()
		p.expect("}")
		p.leave()
		p.tail()
	case "if":
		p.ifClause()
	case "while", "until":
		p.pos += len(kw)
		p.enter()
		p.body()
		p.expect("do")
		p.body()
		p.expect("done")
		p.leave()
		p.tail()
	case "for", "select":
		p.forClause(kw)
	case "case":
		p.caseClause()
	case "function":
		p.pos += len(kw)
		p.skipBlanks()
		if p.op() != "" || p.pos >= len(p.src) {
			p.syntax()
		}
		p.word(plainWord)
		if p.op() == "(" {
			p.pos++
			if p.op() != ")" {
				p.syntax()
			}
			p.pos++
		}
		p.function()
	case "[[":
		p.test()
	case "coproc":
		p.coproc()
	default:
		p.simple()
	}
}

// coproc runs its command, simple or compound, as the shell runs any:
// coproc [NAME] compound, or coproc simple-command.
func (p *parser) coproc() {
	p.pos += len("coproc")
	p.skipBlanks()
	if !p.startsCommand() {
		p.syntax()
	}
	if p.compoundStarts() {
		p.command()
		return
	}
	start, i := p.pos, p.pos
	for i < len(p.src) && isNameByte(p.src[i]) {
		i++
	}
	if i > start && (i == len(p.src) || p.src[i] == ' ' || p.src[i] == '\t') {
		p.pos = i
		if p.compoundStarts() {
			p.command()
			return
		}
		p.pos = start
	}
	p.simple()
}

// compoundStarts reports whether a compound command starts at p.pos.
func (p *parser) compoundStarts() bool {
	switch p.keyword() {
	case "{", "if", "while", "until", "for", "select", "case", "[[":
		return true
	}
	return p.op() == "("
}

// expect reads the reserved word kw or fails.
func (p *parser) expect(kw string) {
	if p.keyword() != kw {
		p.syntax()
	}
	p.pos += len(kw)
}

// tail reads a compound command's redirects, which are on no command,
// though their substitutions run; then an operator or a reserved word
// must follow.
func (p *parser) tail() {
	for p.redirect() != nil {
	}
	p.skipBlanks()
	if p.pos < len(p.src) && !isMeta(p.src[p.pos]) && !closers[p.keyword()] {
		p.syntax()
	}
}

// function reads a function's body, which must be a compound command.
func (p *parser) function() {
	p.skipNewlines()
	if !p.compoundStarts() {
		p.syntax()
	}
	p.enter()
	p.command()
	p.leave()
}

func (p *parser) ifClause() {
	p.pos += 2
	p.enter()
	p.body()
	p.expect("then")
	p.body()
	for p.keyword() == "elif" {
		p.pos += 4
		p.body()
		p.expect("then")
		p.body()
	}
	if p.keyword() == "else" {
		p.pos += 4
		p.body()
	}
	p.expect("fi")
	p.leave()
	p.tail()
}

func (p *parser) forClause(kw string) {
	p.pos += len(kw)
	p.enter()
	p.skipBlanks()
	if strings.HasPrefix(p.src[p.pos:], "((") && kw == "for" {
		end, ok := arithEnd(p.src, p.pos+2)
		if !ok {
			p.syntax()
		}
		p.arith(p.src[p.pos+2 : end])
		p.pos = end + 2
		if p.op() == ";" {
			p.pos++
		}
	} else {
		if p.op() != "" || p.pos >= len(p.src) {
			p.syntax()
		}
		p.word(plainWord) // a name that is not valid fails when it runs

		p.skipNewlines()
		if p.keyword() == "in" {
			p.pos += 2
			for {
				o := p.op()
				if o == ";" || o == "\n" || p.pos >= len(p.src) {
					break
				}
				if o != "" {
					p.syntax()
				}
				p.word(plainWord)
			}
		}
		if p.op() == ";" {
			p.pos++
		}
	}
	p.skipNewlines()
	switch p.keyword() {
	case "do":
		p.pos += 2
		p.body()
		p.expect("done")
	case "{":
		p.pos++
		p.body()
		p.expect("}")
	default:
		p.syntax()
	}
	p.leave()
	p.tail()
}

func validName(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

func (p *parser) caseClause() {
	p.pos += 4
	p.enter()
	p.skipBlanks()
	if p.op() != "" || p.pos >= len(p.src) {
		p.syntax()
	}
	p.word(plainWord)
	p.skipNewlines()
	p.expect("in")
	for {
		p.skipNewlines()
		if p.keyword() == "esac" {
			p.pos += 4
			break
		}
		if p.op() == "(" {
			p.pos++
		}
		for {
			p.skipBlanks()
			if p.op() != "" || p.pos >= len(p.src) {
				p.syntax()
			}
			p.word(plainWord)
			o := p.op()
			if o == ")" {
				p.pos++
				break
			}
			if o != "|" {
				p.syntax()
			}
			p.pos++
		}
		p.list()
		switch o := p.op(); o {
		case ";;", ";&", ";;&":
			p.pos += len(o)
			continue
		}
		p.skipNewlines()
		p.expect("esac")
		break
	}
	p.leave()
	p.tail()
}

// test reads [[ ... ]]: it runs no command, but its substitutions do.
func (p *parser) test() {
	p.pos += 2
	p.enter()
	for {
		p.skipNewlines()
		if p.pos >= len(p.src) {
			p.syntax()
		}
		if p.keyword() == "]]" {
			p.pos += 2
			break
		}
		switch o := p.op(); o {
		case "&&", "||", "(", ")", "<", ">":
			p.pos += len(o)
			continue
		case "":
		default:
			p.syntax()
		}
		if w := p.word(plainWord); w.raw == "=~" {
			p.skipBlanks()
			if p.pos < len(p.src) && (!isMeta(p.src[p.pos]) || p.src[p.pos] == '(') {
				p.word(regexWord)
			}
		}
	}
	p.leave()
	p.tail()
}
