package shelloracle

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/sdk-go/shell"
	"mvdan.cc/sh/v3/syntax"
)

// FuzzShellReaderAgreesWithMvdan reads each input with shell.Read and
// with mvdan.cc/sh's bash parser:
//
//   - Read never panics, and its reading is well formed (every dynamic
//     index in its command's args, ascending; every reason known);
//   - when mvdan parses the input and the reading has no unknown, the
//     commands the shell runs itself (Via "") are mvdan's calls, in the
//     same order, and each argument mvdan sees as a plain literal (Lit,
//     '...', "..." holding only literal text) is the same after quote
//     removal;
//   - when mvdan refuses the input as a syntax error, the reading has an
//     unknown that makes a guard refuse (syntax, depth or too-long),
//     except for the classes where bash accepts what mvdan refuses (see
//     mvdanStricter).
func FuzzShellReaderAgreesWithMvdan(f *testing.F) {
	for _, cmd := range vectorCommands(f) {
		f.Add(cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if msg := disagreement(cmd); msg != "" {
			t.Fatal(msg)
		}
	})
}

// disagreement is what is wrong with the reading of cmd, or "".
func disagreement(cmd string) string {
	got := shell.Read(cmd)
	if msg := malformed(got); msg != "" {
		return fmt.Sprintf("%q: %s", cmd, msg)
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		if !refuses(got) && !mvdanStricter(cmd, err) {
			return fmt.Sprintf("mvdan refuses %q (%v), the reading does not: %+v", cmd, err, got)
		}
		return ""
	}
	if len(got.Unknown) > 0 || strings.Contains(cmd, "\r") || strings.Contains(cmd, "#") && strings.Contains(cmd, "\\\n") {
		// mvdan reads a carriage return as a blank, bash as a byte of a
		// word (`ls\r` is not found), and so does the reader; mvdan
		// goes on with a comment that ends in a backslash on the next
		// line, bash ends it at the newline.
		return ""
	}
	calls, comparable := mvdanCalls(file)
	if !comparable {
		return ""
	}
	var ours []shell.Command
	for _, c := range got.Commands {
		if c.Via == "" {
			ours = append(ours, c)
		}
	}
	if len(ours) != len(calls) {
		return fmt.Sprintf("%q: mvdan sees %d commands %q, the reading %d: %+v", cmd, len(calls), showAll(calls), len(ours), ours)
	}
	for i, call := range calls {
		if len(call) != len(ours[i].Args) {
			return fmt.Sprintf("%q: command %d: mvdan's args %q, the reading's %q", cmd, i, show(call), ours[i].Args)
		}
		for j, arg := range call {
			if arg == nil || slices.Contains(ours[i].Dynamic, j) {
				continue
			}
			if *arg != ours[i].Args[j] {
				return fmt.Sprintf("%q: command %d arg %d: mvdan's %q, the reading's %q", cmd, i, j, *arg, ours[i].Args[j])
			}
		}
	}
	return ""
}

// malformed says what breaks the reading's own rules, or "".
func malformed(r shell.Reading) string {
	known := []string{shell.ReasonSyntax, shell.ReasonDynamicProgram, shell.ReasonShellStdin, shell.ReasonAlias,
		shell.ReasonArithmetic, shell.ReasonDepth, shell.ReasonTooLong}
	for _, u := range r.Unknown {
		if !slices.Contains(known, u.Reason) {
			return fmt.Sprintf("unknown reason %q", u.Reason)
		}
	}
	for _, c := range r.Commands {
		if len(c.Args) == 0 {
			return fmt.Sprintf("a command with no args: %+v", c)
		}
		for i, d := range c.Dynamic {
			if d < 0 || d >= len(c.Args) || i > 0 && d <= c.Dynamic[i-1] {
				return fmt.Sprintf("dynamic %v out of order or range in %q", c.Dynamic, c.Args)
			}
		}
	}
	return ""
}

func refuses(r shell.Reading) bool {
	return slices.ContainsFunc(r.Unknown, func(u shell.Unknown) bool {
		return u.Reason == shell.ReasonSyntax || u.Reason == shell.ReasonDepth || u.Reason == shell.ReasonTooLong
	})
}

// mvdanStricter reports the inputs bash runs and mvdan refuses; the
// reader follows bash. Two classes are known by mvdan's message; for the
// others (a word such as A[ or a{b, which mvdan reads as the start of an
// array index or a brace expansion), bash itself is asked, with -n, which
// reads the input and runs nothing.
func mvdanStricter(cmd string, err error) bool {
	msg := err.Error()
	for _, class := range []string{
		"cannot form a statement alone", // bash runs `!` and `time` alone
		"invalid UTF-8",                 // bash reads bytes
	} {
		if strings.Contains(msg, class) {
			return true
		}
	}
	bash, lookErr := exec.LookPath("bash")
	if lookErr != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-n", "-c", "--", cmd).Run() == nil
}

// mvdanCalls lists mvdan's calls that the shell runs itself, in source
// order: not those in substitutions. Each argument is its value after
// quote removal, or nil when it is more than literal text. comparable is
// false when the file holds what mvdan reads as something other than a
// call and the reader as a command (let, declare), reads in its own way
// (coproc, extended globs), or as an assignment what bash reads as a
// word.
func mvdanCalls(file *syntax.File) (calls [][]*string, comparable bool) {
	comparable = true
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.DeclClause, *syntax.LetClause, *syntax.TestDecl:
			comparable = false
		case *syntax.CoprocClause, *syntax.ExtGlob:
			// mvdan reads coproc's command in its own way (coproc A=1,
			// coproc -x2>&1), and !(...) where a command starts as an
			// extended glob, which bash reads as ! and a subshell.
			comparable = false
		case *syntax.BinaryCmd:
			// After |, bash runs the time program; mvdan reads the
			// keyword.
			if _, ok := n.Y.Cmd.(*syntax.TimeClause); ok && (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) {
				comparable = false
			}
		case *syntax.CallExpr:
			for _, a := range n.Assigns {
				// mvdan reads `1a=b` and `\--=x` as assignments, bash
				// as words: a name must be a name.
				if a.Name != nil && !validName(a.Name.Value) {
					comparable = false
				}
			}
			if len(n.Args) == 0 {
				return true
			}
			var args []*string
			for _, w := range n.Args {
				args = append(args, literal(w))
			}
			calls = append(calls, args)
		}
		return true
	})
	return calls, comparable
}

func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// literal is a word's value after quote removal when it is only literal
// text, else nil.
func literal(w *syntax.Word) *string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(part.Value, false))
		case *syntax.SglQuoted:
			if part.Dollar {
				return nil
			}
			b.WriteString(part.Value)
		case *syntax.DblQuoted:
			if part.Dollar {
				return nil
			}
			for _, inner := range part.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					return nil
				}
				b.WriteString(unescape(lit.Value, true))
			}
		default:
			return nil
		}
	}
	s := b.String()
	return &s
}

// unescape removes the backslashes the shell removes: before any byte
// unquoted, before $ ` " \ and a newline in double quotes; a backslash
// and a newline join lines.
func unescape(s string, dquoted bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
		case !dquoted || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
		default:
			b.WriteByte('\\')
			b.WriteByte(n)
		}
		i++
	}
	return b.String()
}

func show(args []*string) []string {
	var s []string
	for _, a := range args {
		if a == nil {
			s = append(s, "<not literal>")
		} else {
			s = append(s, *a)
		}
	}
	return s
}

func showAll(calls [][]*string) (s [][]string) {
	for _, c := range calls {
		s = append(s, show(c))
	}
	return s
}

// vectorCommands are the cmds of the shared vectors, the fuzzer's seeds.
func vectorCommands(t testing.TB) []string {
	files, err := filepath.Glob("../../../schema/testdata/shell/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shell vectors: %v", err)
	}
	var cmds []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v struct{ Cmd *string }
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if v.Cmd != nil {
				cmds = append(cmds, *v.Cmd)
			}
		}
	}
	return cmds
}
