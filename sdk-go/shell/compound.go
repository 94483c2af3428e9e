package shell

import "strings"

// coproc runs its command, simple or compound, as the shell runs any:
// coproc [NAME] compound, or coproc simple-command. Where a command
// starts, and after coproc NAME, a reserved word that starts no compound
// command is a syntax error.
func (p *parser) coproc() {
	p.take()
	if !p.startsCommand() || p.keyword() != "" && !p.compoundStarts() {
		p.syntax()
	}
	if p.compoundStarts() {
		p.command()
		return
	}
	mark, start := len(p.st.cmds), p.pos
	if p.op() == "" {
		p.word(plainWord)
		if p.compoundStarts() {
			p.command()
			return
		}
		if p.keyword() != "" {
			p.syntax()
		}
	}
	// A simple command: read it again from its start, without the
	// commands of its first word's substitutions read above.
	p.st.cmds = p.st.cmds[:mark]
	p.pos = start
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
	p.take()
	p.enter()
	p.body()
	p.expect("then")
	p.body()
	for p.keyword() == "elif" {
		p.take()
		p.body()
		p.expect("then")
		p.body()
	}
	if p.keyword() == "else" {
		p.take()
		p.body()
	}
	p.expect("fi")
	p.leave()
	p.tail()
}

func (p *parser) forClause(kw string) {
	p.take()
	p.enter()
	p.skipBlanks()
	if strings.HasPrefix(p.src[p.pos:], "((") && kw == "for" {
		end, ok := arithEnd(p.src, p.pos+2)
		if !ok {
			p.syntax()
		}
		p.arithText(p.src[p.pos+2 : end])
		p.pos = end + 2
		if p.op() == ";" {
			p.takeOp()
		}
	} else {
		if p.op() != "" || p.pos >= len(p.src) {
			p.syntax()
		}
		p.word(plainWord) // a name that is not valid fails when it runs

		p.skipNewlines()
		if p.keyword() == "in" {
			p.take()
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
			p.takeOp()
		}
	}
	p.skipNewlines()
	switch p.keyword() {
	case "do":
		p.take()
		p.body()
		p.expect("done")
	case "{":
		p.take()
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
	p.take()
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
			p.take()
			break
		}
		if p.op() == "(" {
			p.takeOp()
		}
		for {
			p.skipBlanks()
			if p.op() != "" || p.pos >= len(p.src) {
				p.syntax()
			}
			p.word(plainWord)
			o := p.op()
			if o == ")" {
				p.takeOp()
				break
			}
			if o != "|" {
				p.syntax()
			}
			p.takeOp()
		}
		p.list()
		switch o := p.op(); o {
		case ";;", ";&", ";;&":
			p.takeOp()
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
	p.take()
	p.enter()
	for {
		p.skipNewlines()
		if p.pos >= len(p.src) {
			p.syntax()
		}
		if p.keyword() == "]]" {
			p.take()
			break
		}
		switch o := p.op(); o {
		case "&&", "||", "(", ")", "<", ">":
			p.takeOp()
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
