package shell

import "strings"

// simple reads a simple command: assignments, words and redirects. Its
// command is listed before the commands of its substitutions, then the
// commands it runs follow.
func (p *parser) simple() {
	mark := len(p.st.cmds)
	var args []word
	var redirs []Redirect
	for {
		if r := p.redirect(); r != nil {
			redirs = append(redirs, *r)
			continue
		}
		if p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		if isMeta(c) && !p.procsubstAt() {
			if c != '(' {
				break
			}
			// name() body: a function definition runs nothing yet.
			if len(args) != 1 || len(redirs) != 0 || args[0].dyn {
				p.syntax()
			}
			p.pos++
			if p.op() != ")" {
				p.syntax()
			}
			p.pos++
			p.function()
			return
		}
		start := p.pos
		mode := plainWord
		if len(args) == 0 {
			mode = assignWord
		}
		w := p.word(mode)
		assign := isAssignment(w.raw)
		// NAME=(...) is an array where an assignment may be, and in the
		// arguments of a builtin that declares.
		arrayOK := len(args) == 0 || !args[0].dyn && declares[args[0].val]
		if assign && arrayOK && assignEnd(w.raw) == len(w.raw) && p.pos < len(p.src) && p.src[p.pos] == '(' {
			w.dyn = p.array() || w.dyn
			w.raw = p.src[start:p.pos]
			w.val = w.raw
		}
		if assign && len(args) == 0 {
			continue // an assignment before the program is not an argument
		}
		args = append(args, w)
	}
	if len(args) == 0 {
		return
	}
	cmd := Command{Via: p.via, Redirects: redirs}
	for i, w := range args {
		cmd.Args = append(cmd.Args, w.arg())
		if w.dyn {
			cmd.Dynamic = append(cmd.Dynamic, i)
		}
	}
	p.st.cmds = append(p.st.cmds, Command{})
	copy(p.st.cmds[mark+1:], p.st.cmds[mark:])
	p.st.cmds[mark] = cmd
	p.follow(cmd)
}

var declares = map[string]bool{"declare": true, "typeset": true, "local": true, "export": true, "readonly": true}

func (p *parser) procsubstAt() bool {
	return p.pos+1 < len(p.src) && (p.src[p.pos] == '<' || p.src[p.pos] == '>') && p.src[p.pos+1] == '('
}

// isAssignment reports whether a word as written is NAME=..., NAME+=...
// or NAME[...]=...
func isAssignment(raw string) bool { return assignEnd(raw) > 0 }

// assignEnd is the index just after the = of an assignment as written,
// or 0: NAME=(...) is an array only when the = ends the word.
func assignEnd(raw string) int {
	raw = strings.ReplaceAll(raw, "\\\n", "") // joined lines
	i := 0
	for i < len(raw) && isNameByte(raw[i]) {
		i++
	}
	if i == 0 || '0' <= raw[0] && raw[0] <= '9' || i == len(raw) {
		return 0
	}
	if raw[i] == '[' {
		end := strings.IndexByte(raw[i:], ']')
		if end < 0 {
			return 0
		}
		i += end + 1
	}
	if strings.HasPrefix(raw[i:], "+=") {
		return i + 2
	}
	if strings.HasPrefix(raw[i:], "=") {
		return i + 1
	}
	return 0
}

// array reads the ( ... ) of an array assignment and reports whether
// any of its words is dynamic.
func (p *parser) array() bool {
	p.pos++
	dyn := false
	for {
		p.skipNewlines()
		switch o := p.op(); {
		case o == ")":
			p.takeOp()
			return dyn
		case o != "" || p.pos >= len(p.src):
			p.syntax()
		}
		if p.word(plainWord).dyn {
			dyn = true
		}
	}
}

var redirOps = []string{"&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"}

// redirect reads a redirect at p.pos after blanks, or returns nil.
func (p *parser) redirect() *Redirect {
	p.skipBlanks()
	start := p.pos
	i := p.pos
	if end := strings.IndexByte(p.src[i:], '}'); p.src[i:i+min(1, len(p.src)-i)] == "{" && end > 1 && validName(p.src[i+1:i+end]) {
		i += end + 1 // {NAME}>f: bash opens a descriptor and names it
		if i >= len(p.src) || p.src[i] != '<' && p.src[i] != '>' {
			return nil
		}
	}
	for i < len(p.src) {
		if '0' <= p.src[i] && p.src[i] <= '9' {
			i++
		} else if i > start && strings.HasPrefix(p.src[i:], "\\\n") {
			i += 2 // a joined line inside the number
		} else {
			break
		}
	}
	var op string
	for _, o := range redirOps {
		if strings.HasPrefix(p.src[i:], o) {
			op = o
			break
		}
	}
	if op == "" || (i > start && op[0] == '&') || i > start && p.src[start] == '{' && op[0] == '&' {
		return nil
	}
	if (op == "<" || op == ">") && strings.HasPrefix(p.src[i+1:], "(") {
		return nil // a process substitution
	}
	p.pos = i + len(op)
	text := strings.ReplaceAll(p.src[start:p.pos], "\\\n", "")
	p.skipBlanks()
	if p.pos >= len(p.src) || isMeta(p.src[p.pos]) && !p.procsubstAt() {
		p.syntax()
	}
	w := p.word(plainWord)
	if w.raw != "" && strings.Trim(w.raw, "0123456789") == "" && p.pos < len(p.src) && (p.src[p.pos] == '<' || p.src[p.pos] == '>') {
		p.syntax() // a target cannot be a file descriptor's number: > 2>f
	}
	if op == "<<" || op == "<<-" {
		p.docs = append(p.docs, heredoc{delim: w.arg(), strip: op == "<<-", quoted: strings.ContainsAny(w.raw, "'\"\\")})
	}
	return &Redirect{Op: text, Target: w.arg()}
}

// heredocs reads the bodies of the pending here-documents, which start at
// p.pos, just after a newline. An unquoted body's substitutions run.
func (p *parser) heredocs() {
	docs := p.docs
	p.docs = nil
	for _, d := range docs {
		start, end := p.pos, -1
		for p.pos < len(p.src) {
			eol := strings.IndexByte(p.src[p.pos:], '\n')
			next := len(p.src)
			if eol < 0 {
				eol = len(p.src)
			} else {
				eol += p.pos
				next = eol + 1
			}
			line := p.src[p.pos:eol]
			if d.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if line == d.delim {
				end = p.pos
				p.pos = next
				break
			}
			p.pos = next
		}
		if end < 0 {
			p.fail(ReasonSyntax, "unterminated here-document "+d.delim)
		}
		if !d.quoted {
			c := &parser{src: p.src[start:end], st: p.st, depth: p.depth, via: p.via}
			var sink strings.Builder
			c.dquoted(&sink, false)
		}
	}
}
