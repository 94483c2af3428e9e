// Package shell reads a shell command line the way POSIX sh and bash split
// it, so that a guard decides on the programs a shell would run rather than
// on the text: `rm --recursive x`, `r\m -rf x` and `sudo bash -c 'rm -rf x'`
// are all read as rm with its flags, and `echo 'rm -rf /'` as echo.
//
// [Read] never runs anything. What it cannot know without running the
// command (a program named by a variable, a shell reading its standard
// input, a syntax error, an input too deep or too long) is listed in
// [Reading.Unknown]: a guard lets a call through only when it finds nothing
// to block in [Reading.Commands] and Unknown is empty.
//
// The reader is specified in docs/shell-reader.md, shared with the Python
// and TypeScript SDKs; the vectors in schema/testdata/shell hold all three
// to it.
package shell

import "strings"

// MaxLen is the longest command Read reads, in bytes; a longer one is not
// read at all and gives [ReasonTooLong].
const MaxLen = 1 << 20

// MaxDepth is the deepest nesting Read follows: each subshell, group,
// compound command, substitution, string read again and command run by
// another program is one level. Deeper gives [ReasonDepth].
const MaxDepth = 32

// The reasons of an [Unknown].
const (
	ReasonSyntax         = "syntax"          // the command does not parse as sh/bash
	ReasonDynamicProgram = "dynamic-program" // what runs is known only when the shell runs
	ReasonShellStdin     = "shell-stdin"     // a shell reads its commands from standard input
	ReasonAlias          = "alias"           // an alias is defined: later words may be expanded
	ReasonArithmetic     = "arithmetic"      // arithmetic that names a variable, which can run a command
	ReasonDepth          = "depth"           // nesting deeper than MaxDepth
	ReasonTooLong        = "too-long"        // longer than MaxLen: nothing was read
)

// A Reading is what Read found in a command line.
type Reading struct {
	// Commands are the commands the shell would run, each one run by
	// another program listed after that program.
	Commands []Command `json:"commands"`
	// Unknown is what cannot be known without running the command.
	Unknown []Unknown `json:"unknown,omitempty"`
}

// A Command is one program the shell would run.
type Command struct {
	// Args are the words passed to the program, after quote removal;
	// Args[0] is the program as written (/bin/rm). A dynamic word is kept
	// as its source text.
	Args []string `json:"args"`
	// Dynamic holds the indexes in Args, ascending, of the words whose
	// value is known only when the shell runs ("$DIR"/x, $(pwd), {a,b}).
	Dynamic []int `json:"dynamic,omitempty"`
	// Via is "" for a command the shell runs itself, else what runs it: a
	// wrapper's name (sudo, env, xargs, ...), a shell's name for its -c
	// string, eval, trap, find, "$()" for a command substitution, "<()" or
	// ">()" for a process substitution.
	Via string `json:"via,omitempty"`
	// Redirects are the command's redirections in source order.
	Redirects []Redirect `json:"redirects,omitempty"`
}

// A Redirect is one redirection of a command.
type Redirect struct {
	// Op is the operator as written with its file descriptor: ">", "2>",
	// ">>", "&>", "<", "<<", "<<-", "<<<", ">&", "2>&", "<>", ">|".
	Op string `json:"op"`
	// Target is the word after the operator after quote removal (its
	// source text when dynamic); a here-document's target is its delimiter.
	Target string `json:"target"`
}

// An Unknown is something Read could not know.
type Unknown struct {
	Reason string `json:"reason"` // one of the Reason constants
	Text   string `json:"text"`   // the word, string or source it is about
}

// Name is the base name of the program: "rm" for /usr/bin/rm.
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return c.Args[0][strings.LastIndexByte(c.Args[0], '/')+1:]
}

// HasFlag reports whether an argument after the program and before a "--"
// is the short flag alone or in a cluster (-r, -rf, -fr), or --long,
// --long=..., or a non-empty prefix of --long (GNU getopt takes any
// unambiguous prefix: rm --rec is --recursive). Options after operands
// count, as GNU programs move them (rm x -rf). The letter is compared as
// given, so ask for each spelling the program takes: HasFlag('r',
// "recursive") || HasFlag('R', ""). A short of 0 or an empty long asks for
// none. Dynamic words are skipped: a guard checks Dynamic itself.
func (c Command) HasFlag(short rune, long string) bool {
	dyn := 0
	for i := 1; i < len(c.Args); i++ {
		for dyn < len(c.Dynamic) && c.Dynamic[dyn] < i {
			dyn++
		}
		if dyn < len(c.Dynamic) && c.Dynamic[dyn] == i {
			continue
		}
		a := c.Args[i]
		switch {
		case a == "--":
			return false
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			if long != "" && name != "" && strings.HasPrefix(long, name) {
				return true
			}
		case len(a) > 1 && a[0] == '-':
			if short != 0 && strings.ContainsRune(a[1:], short) {
				return true
			}
		}
	}
	return false
}

// Read reads a command line. It runs nothing, reads nothing but its
// argument, and returns within bounds whatever the input.
func Read(command string) Reading {
	if len(command) > MaxLen {
		return Reading{Commands: []Command{}, Unknown: []Unknown{{ReasonTooLong, clip(command)}}}
	}
	st := &state{cmds: []Command{}, seen: map[Unknown]bool{}}
	if i := strings.IndexByte(command, 0); i >= 0 {
		// No shell is given a NUL: an argument ends at it.
		st.add(ReasonSyntax, command[i:])
		return Reading{Commands: st.cmds, Unknown: st.unknown}
	}
	p := &parser{src: command, st: st}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					panic(r)
				}
			}
		}()
		p.program()
	}()
	return Reading{Commands: st.cmds, Unknown: st.unknown}
}

// state is what a reading gathers, shared by the parsers of the strings it
// reads again.
type state struct {
	cmds    []Command
	unknown []Unknown
	seen    map[Unknown]bool
}

func (s *state) add(reason, text string) {
	u := Unknown{reason, clip(text)}
	if !s.seen[u] {
		s.seen[u] = true
		s.unknown = append(s.unknown, u)
	}
}

// stop ends a reading on a syntax error or at the depth bound: nothing
// after it can be read with confidence.
type stop struct{}

// clip keeps an unknown's text short: it points at the place, a guard's
// log does not need the rest.
func clip(s string) string {
	const n = 120
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
