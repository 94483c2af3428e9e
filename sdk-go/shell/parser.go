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
	// Where the operator and the reserved word last peeked at end: a
	// joined line (backslash-newline) may split either.
	opEnd, kwEnd int
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
func (p *parser) nested(via string) {
	p.enter()
	saved := p.via
	p.via = via
	p.list()
	if p.op() != ")" {
		p.syntax()
	}
	p.takeOp()
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

// op is the operator at p.pos after blanks, or "" at a word or the end;
// takeOp moves past it.
func (p *parser) op() string {
	p.skipBlanks()
	var text [3]byte
	var ends [3]int
	n, i := 0, p.pos
	for n < len(text) && i < len(p.src) {
		if p.src[i] == '\\' && i+1 < len(p.src) && p.src[i+1] == '\n' {
			i += 2
			continue
		}
		text[n] = p.src[i]
		i++
		ends[n] = i
		n++
	}
	if n == 0 || !isMeta(text[0]) {
		return ""
	}
	for _, o := range operators {
		if strings.HasPrefix(string(text[:n]), o) {
			p.opEnd = ends[len(o)-1]
			return o
		}
	}
	return "" // a blank: not reached after skipBlanks
}

func (p *parser) takeOp() { p.pos = p.opEnd }

var keywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true,
	"do": true, "done": true, "case": true, "esac": true, "while": true,
	"until": true, "for": true, "select": true, "in": true, "function": true,
	"time": true, "!": true, "{": true, "}": true, "[[": true, "]]": true,
	"coproc": true,
}

// keyword is the reserved word at p.pos after blanks, or "": a reserved
// word is a whole unquoted word where a command starts. take moves past it.
func (p *parser) keyword() string {
	p.skipBlanks()
	var w []byte
	i := p.pos
	for i < len(p.src) && len(w) <= 8 {
		c := p.src[i]
		if c == '\\' && i+1 < len(p.src) && p.src[i+1] == '\n' {
			i += 2
			continue
		}
		if isMeta(c) || strings.IndexByte("'\"\\$`", c) >= 0 {
			break
		}
		w = append(w, c)
		i++
	}
	j := i
	for strings.HasPrefix(p.src[j:], "\\\n") {
		j += 2
	}
	// A process substitution continues the word: [[<(a)]] is a word.
	cont := j+1 < len(p.src) && (p.src[j] == '<' || p.src[j] == '>') && p.src[j+1] == '('
	if j < len(p.src) && !isMeta(p.src[j]) || cont || !keywords[string(w)] {
		return ""
	}
	p.kwEnd = i
	return string(w)
}

func (p *parser) take() { p.pos = p.kwEnd }

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
			p.takeOp()
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
		p.takeOp()
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
		p.take()
		bare = true
		if kw == "time" {
			p.skipBlanks()
			if strings.HasPrefix(p.src[p.pos:], "-p") && (p.pos+2 == len(p.src) || isMeta(p.src[p.pos+2])) {
				p.pos += 2
			}
		}
	}
	if bare && !p.startsCommand() {
		switch p.op() {
		case "&", "&&", "||", "|", "|&":
			p.syntax() // bash runs `time;` but refuses `time &`, `! || x`
		}
		return
	}
	p.command()
	for {
		o := p.op()
		if o != "|" && o != "|&" {
			return
		}
		p.takeOp()
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
		end, ok := arithEnd(p.src, p.pos+2)
		if ok {
			p.arithText(p.src[p.pos+2 : end])
			p.pos = end + 2
			p.tail()
			return
		}
		if end > 0 && end+1 < len(p.src) && p.src[end+1] == '\n' {
			p.syntax() // bash reads ((a) ) as subshells, but not ((a) and a newline
		}
	}
	if p.op() == "(" {
		p.takeOp()
		p.enter()
		p.body()
		if p.op() != ")" {
			p.syntax()
		}
		p.takeOp()
		p.leave()
		p.tail()
		return
	}
	switch kw := p.keyword(); kw {
	case "{":
		p.take()
		p.enter()
		p.body()
		p.expect("}")
		p.leave()
		p.tail()
	case "if":
		p.ifClause()
	case "while", "until":
		p.take()
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
		p.take()
		p.skipBlanks()
		if p.op() != "" || p.pos >= len(p.src) {
			p.syntax()
		}
		p.word(plainWord)
		if p.op() == "(" {
			p.takeOp()
			if p.op() != ")" {
				p.syntax()
			}
			p.takeOp()
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

// expect reads the reserved word kw or fails.
func (p *parser) expect(kw string) {
	if p.keyword() != kw {
		p.syntax()
	}
	p.take()
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
