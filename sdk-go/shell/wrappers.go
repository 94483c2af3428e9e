package shell

import (
	"slices"
	"strings"
)

// A wrapper runs the command after its own options and operands.
type wrapper struct {
	short    string   // short options that take a value
	long     []string // long options that take a value
	operands int      // operands before the command
	assigns  bool     // NAME=value words before the command are skipped
}

var wrappers = map[string]wrapper{
	"sudo":       {short: "ughpCDrtTU", long: []string{"user", "group", "host", "prompt", "close-from", "chdir", "role", "type", "command-timeout", "other-user"}, assigns: true},
	"doas":       {short: "uC"},
	"command":    {},
	"builtin":    {},
	"nohup":      {},
	"setsid":     {},
	"unbuffer":   {},
	"exec":       {short: "a"},
	"nice":       {short: "n", long: []string{"adjustment"}},
	"time":       {short: "fo", long: []string{"format", "output"}},
	"timeout":    {short: "sk", long: []string{"signal", "kill-after"}, operands: 1},
	"xargs":      {short: "InPLdEsa", long: []string{"replace", "max-args", "max-procs", "max-lines", "delimiter", "eof", "max-chars", "arg-file", "process-slot-var"}},
	"stdbuf":     {short: "ioe", long: []string{"input", "output", "error"}},
	"ionice":     {short: "cnp", long: []string{"class", "classdata", "pid"}},
	"chrt":       {operands: 1},
	"taskset":    {operands: 1},
	"caffeinate": {short: "tw"},
	"flock":      {short: "wEc", long: []string{"timeout", "conflict-exit-code", "command"}, operands: 1},
	"env":        {short: "uCS", long: []string{"unset", "chdir", "split-string"}, assigns: true},
}

var shells = map[string]bool{"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true}

// follow reads what a command runs: the command of a wrapper, a shell's
// -c string, eval's and trap's strings, find's -exec commands.
func (p *parser) follow(c Command) {
	if len(c.Args) == 0 {
		return
	}
	if c.dynamic(0) {
		p.st.add(ReasonDynamicProgram, c.Args[0])
		return
	}
	name := c.Name()
	switch {
	case name == "alias":
		for i := 1; i < len(c.Args); i++ {
			if c.dynamic(i) || strings.Contains(c.Args[i], "=") {
				p.st.add(ReasonAlias, c.Args[i])
			}
		}
	case name == "eval":
		if len(c.Args) > 1 {
			p.readAgain(strings.Join(c.Args[1:], " "), len(c.Dynamic) > 0, "eval")
		}
	case name == "trap":
		p.trap(c)
	case shells[name]:
		p.shell(c, name)
	case name == "find":
		p.find(c)
	default:
		if _, ok := wrappers[name]; ok {
			p.wrapped(c, name)
		}
	}
}

// dynamic reports whether args[i] is dynamic; Dynamic is ascending, and a
// search keeps a command of many words linear to follow.
func (c Command) dynamic(i int) bool {
	_, found := slices.BinarySearch(c.Dynamic, i)
	return found
}

// sub is the command of args[from:to], run by via.
func (c Command) sub(from, to int, via string) Command {
	s := Command{Args: c.Args[from:to:to], Via: via}
	lo, _ := slices.BinarySearch(c.Dynamic, from)
	hi, _ := slices.BinarySearch(c.Dynamic, to)
	for _, d := range c.Dynamic[lo:hi] {
		s.Dynamic = append(s.Dynamic, d-from)
	}
	return s
}

// run lists a command that another runs and reads what it runs in turn,
// one level deeper.
func (p *parser) run(c Command) {
	p.enter()
	p.st.cmds = append(p.st.cmds, c)
	p.follow(c)
	p.leave()
}

// readAgain reads a string made of a command's words again, unless one of
// them is dynamic.
func (p *parser) readAgain(s string, dyn bool, via string) {
	if dyn {
		p.st.add(ReasonDynamicProgram, s)
		return
	}
	p.again(s, via)
}

func (p *parser) trap(c Command) {
	i := 1
	for ; i < len(c.Args) && !c.dynamic(i) && len(c.Args[i]) > 1 && c.Args[i][0] == '-'; i++ {
		if c.Args[i] == "--" {
			i++
			break
		}
		return // -p, -l, -P print
	}
	// With one operand trap resets it; the action is the first of two.
	if len(c.Args)-i < 2 || !c.dynamic(i) && (c.Args[i] == "-" || c.Args[i] == "") {
		return
	}
	p.readAgain(c.Args[i], c.dynamic(i), "trap")
}

// shell reads a shell's -c string; a shell with neither -c nor a script
// reads its commands from standard input.
func (p *parser) shell(c Command, name string) {
	i, cflag, stdin := 1, false, false
	for i < len(c.Args) && !c.dynamic(i) {
		a := c.Args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if a == "--rcfile" || a == "--init-file" {
			i += 2
			continue
		}
		if strings.HasPrefix(a, "--") {
			i++
			continue
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		i++
		for _, f := range a[1:] {
			switch f {
			case 'c':
				cflag = cflag || a[0] == '-'
			case 's':
				stdin = true
			case 'o', 'O':
				i++
			}
		}
	}
	switch {
	case cflag:
		if i < len(c.Args) {
			p.readAgain(c.Args[i], c.dynamic(i), name)
		}
	case stdin || i >= len(c.Args):
		p.st.add(ReasonShellStdin, strings.Join(c.Args, " "))
	}
}

// find runs each -exec, -execdir, -ok and -okdir up to its ; or {} +.
func (p *parser) find(c Command) {
	for i := 1; i < len(c.Args); i++ {
		switch c.Args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		if c.dynamic(i) {
			continue
		}
		// Its ; ends it, or a + right after {} (GNU find: a + elsewhere
		// is an argument).
		j := i + 1
		for j < len(c.Args) && (c.dynamic(j) || c.Args[j] != ";" && (c.Args[j] != "+" || c.Args[j-1] != "{}" || c.dynamic(j-1))) {
			j++
		}
		if j > i+1 {
			p.run(c.sub(i+1, j, "find"))
		}
		i = j
	}
}

// wrapped reads the command a wrapper runs: after its options, which end
// at its first other word or after --, and its operands.
func (p *parser) wrapped(c Command, name string) {
	w := wrappers[name]
	args := c.Args
	i := 1
	for i < len(args) && !c.dynamic(i) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if name == "env" && a == "-" { // env's - is -i
			i++
			continue
		}
		if strings.HasPrefix(a, "--") {
			opt, val, eq := strings.Cut(a[2:], "=")
			long := func(full string) bool { return opt != "" && strings.HasPrefix(full, opt) }
			switch {
			case name == "env" && long("split-string"), name == "flock" && long("command"):
				p.option(c, name, i, eq, val)
				return
			}
			i++
			if !eq && opt != "" && w.takesLong(opt) {
				i++
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		value := false
		for j := 1; j < len(a); j++ {
			f := a[j]
			if name == "command" && (f == 'v' || f == 'V') {
				return // command -v names a program, runs nothing
			}
			if strings.IndexByte(w.short, f) < 0 {
				continue
			}
			rest := a[j+1:]
			if name == "env" && f == 'S' || name == "flock" && f == 'c' {
				p.option(c, name, i, rest != "", rest)
				return
			}
			value = rest == ""
			break
		}
		i++
		if value {
			i++
		}
	}
	for w.assigns && i < len(args) && !c.dynamic(i) && isAssignment(args[i]) {
		i++
	}
	if name == "flock" && i+1 < len(args) && !c.dynamic(i+1) {
		// flock FILE -c STRING
		opt, val, eq := strings.Cut(args[i+1], "=")
		if opt == "-c" && !eq || len(opt) > 2 && strings.HasPrefix("--command", opt) {
			p.option(c, name, i+1, eq, val)
			return
		}
	}
	i += w.operands
	if i < len(args) {
		p.run(c.sub(i, len(args), name))
	}
}

func (w wrapper) takesLong(opt string) bool {
	for _, l := range w.long {
		if strings.HasPrefix(l, opt) {
			return true
		}
	}
	return false
}

// option reads the string of env -S or flock -c, the option at args[i]:
// its value is attached (val) or the next word.
func (p *parser) option(c Command, name string, i int, attached bool, val string) {
	at := i
	if !attached {
		at = i + 1
		if at >= len(c.Args) {
			return
		}
		val = c.Args[at]
	}
	if at != i && c.dynamic(at) {
		p.st.add(ReasonDynamicProgram, c.Args[at])
		return
	}
	if name == "flock" {
		p.again(val, "flock")
		return
	}
	// env -S: the string is split into words that take its place, and
	// env reads them as its own arguments.
	words, dyn := splitEnv(val)
	e := Command{Args: append(append([]string{"env"}, words...), c.Args[at+1:]...), Dynamic: dyn}
	for _, d := range c.Dynamic {
		if d > at {
			e.Dynamic = append(e.Dynamic, d-at+len(words))
		}
	}
	p.enter()
	p.wrapped(e, "env")
	p.leave()
}

// splitEnv splits the string of env -S as GNU env does: blanks separate
// words, '...' and "..." quote, \ escapes, # starting a word comments,
// \c ends the string, and a word holding ${NAME} is dynamic. The indexes
// of the dynamic words count env as 0.
func splitEnv(s string) (words []string, dyn []int) {
	var b strings.Builder
	started, isDyn := false, false
	flush := func() {
		if started {
			if isDyn {
				dyn = append(dyn, len(words)+1)
			}
			words = append(words, b.String())
		}
		b.Reset()
		started, isDyn = false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n\r\f\v", c) >= 0:
			flush()
		case c == '#' && !started:
			flush()
			return words, dyn
		case c == '\'':
			started = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				end = len(s) - i - 1
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			started = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s):
					i++
					b.WriteByte(envEscape(s[i]))
				case strings.HasPrefix(s[i:], "${"):
					isDyn = true
					b.WriteByte('$')
				default:
					b.WriteByte(s[i])
				}
			}
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'c':
				flush()
				return words, dyn
			case '_':
				flush()
			default:
				started = true
				b.WriteByte(envEscape(s[i]))
			}
		case strings.HasPrefix(s[i:], "${"):
			started, isDyn = true, true
			b.WriteByte(c)
		default:
			started = true
			b.WriteByte(c)
		}
	}
	flush()
	return words, dyn
}

func envEscape(c byte) byte {
	switch c {
	case '_':
		return ' '
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}
