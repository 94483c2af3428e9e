package shell

import (
	"strings"
	"testing"
)

func TestHasFlag(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		dynamic []int
		short   rune
		long    string
		want    bool
	}{
		{[]string{"rm", "-r", "x"}, nil, 'r', "recursive", true},
		{[]string{"rm", "-fr", "x"}, nil, 'r', "recursive", true},
		{[]string{"rm", "-Rf", "x"}, nil, 'r', "recursive", false}, // the letter as given
		{[]string{"rm", "-Rf", "x"}, nil, 'R', "", true},
		{[]string{"rm", "--recursive", "x"}, nil, 'r', "recursive", true},
		{[]string{"rm", "--recursive=yes", "x"}, nil, 0, "recursive", true},
		{[]string{"rm", "--rec", "x"}, nil, 'r', "recursive", true},
		{[]string{"rm", "--r", "x"}, nil, 0, "recursive", true},
		{[]string{"rm", "--", "x"}, nil, 0, "recursive", false}, // an empty name is no prefix
		{[]string{"rm", "--recursively", "x"}, nil, 0, "recursive", false},
		{[]string{"rm", "x", "-rf"}, nil, 'r', "", true}, // options after operands count
		{[]string{"rm", "--", "-rf"}, nil, 'r', "recursive", false},
		{[]string{"rm", "-f", "--", "--recursive"}, nil, 'r', "recursive", false},
		{[]string{"rm", "$R", "x"}, []int{1}, 'R', "", false}, // $R holds no R the reader can see
		{[]string{"rm", "-{r,f}", "x"}, []int{1}, 'r', "", false},
		{[]string{"rm", "-", "x"}, nil, 'r', "", false},
		{[]string{"rm", "r", "x"}, nil, 'r', "", false},
		{[]string{"-r"}, nil, 'r', "", false}, // args[0] is the program
		{[]string{"rm", "-f", "x"}, nil, 'r', "recursive", false},
		{[]string{"rm", "-rf"}, nil, 0, "", false},
	} {
		c := Command{Args: tc.args, Dynamic: tc.dynamic}
		if got := c.HasFlag(tc.short, tc.long); got != tc.want {
			t.Errorf("%q (dynamic %v).HasFlag(%q, %q) = %v", tc.args, tc.dynamic, tc.short, tc.long, got)
		}
	}
}

func TestName(t *testing.T) {
	for args, want := range map[string]string{
		"rm":           "rm",
		"/usr/bin/rm":  "rm",
		"./x.sh":       "x.sh",
		"/":            "",
		"dir/":         "",
		"$(which rm)":  "$(which rm)", // a dynamic program is named by its text
		"":             "",
		"a b/c d":      "c d",
		"\x00weird/rm": "rm",
	} {
		if got := (Command{Args: []string{args}}).Name(); got != want {
			t.Errorf("Name of %q = %q, want %q", args, got, want)
		}
	}
	if got := (Command{}).Name(); got != "" {
		t.Errorf("Name of no args = %q", got)
	}
}

// A long input of realistic content reads in one pass: every loop of the
// reader moves forward, and a word is scanned a bounded number of times.
// The reading's size is checked, not its time: a quadratic reader would
// not finish the test in the package's default timeout.
func TestLongInputReadsLinearly(t *testing.T) {
	line := `cd "$(git rev-parse --show-toplevel)" && rm -rf build; grep -rn "TODO" --include='*.go' . | head -50 2>&1` + "\n"
	cmd := strings.Repeat(line, MaxLen/len(line))
	r := Read(cmd)
	if len(r.Unknown) != 0 {
		t.Fatalf("unknown %v", r.Unknown)
	}
	if want := 5 * (MaxLen / len(line)); len(r.Commands) != want {
		t.Fatalf("%d commands, want %d", len(r.Commands), want)
	}
}

func TestTooLongIsNotRead(t *testing.T) {
	r := Read(strings.Repeat("rm -rf x;", MaxLen/9+1))
	if len(r.Commands) != 0 || len(r.Unknown) != 1 || r.Unknown[0].Reason != ReasonTooLong {
		t.Fatalf("got %d commands, unknown %v", len(r.Commands), r.Unknown)
	}
}

// Each nesting that recurses in the reader is bounded by MaxDepth.
func TestEveryNestingIsBounded(t *testing.T) {
	for _, tc := range []struct{ open, inner, close string }{
		{"( ", "ls", " )"},
		{"{ ", "ls", "; }"},
		{"$(", "ls", ")"},
		{"<(", "ls", ")"},
		{"${x:-", "y", "}"},
		{"$(( $(", "1", ") ))"},
		{"(( $(", "1", ") ))"},
		{"if true; then ", "ls", "; fi"},
		{"while true; do ", "ls", "; done"},
		{"case x in x) ", "ls", ";; esac"},
		{"sudo ", "ls", ""},
		{"eval ", "ls", ""},
		{"find . -exec ", "ls", " ;"},
		{"env -S ", "ls", ""},
	} {
		n := 200000 / len(tc.open)
		cmd := strings.Repeat(tc.open, n) + tc.inner + strings.Repeat(tc.close, n)
		if r := Read(cmd); !hasReason(r, ReasonDepth) {
			t.Errorf("%q nested %d times: unknown %v, want depth", tc.open, n, r.Unknown)
		}
	}
	// Backquotes nest by escaping: \` inside, \\\` one deeper.
	cmd := "ls"
	for i := 0; i < MaxDepth+1; i++ {
		cmd = "echo `" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(cmd) + "`"
		if len(cmd) > MaxLen {
			break
		}
	}
	if r := Read(cmd); !hasReason(r, ReasonDepth) && !hasReason(r, ReasonTooLong) {
		t.Errorf("backquotes nested %d times: unknown %v", MaxDepth+1, r.Unknown)
	}
}

func hasReason(r Reading, reason string) bool {
	for _, u := range r.Unknown {
		if u.Reason == reason {
			return true
		}
	}
	return false
}

// A command of many words is followed in one pass too: finding whether a
// word is dynamic, and the words of a command another runs, do not walk
// the command's every word again. Quadratic, these inputs would read for
// minutes.
func TestManyWordsFollowLinearly(t *testing.T) {
	many := strings.Repeat(" $a", 200000)
	for _, cmd := range []string{
		"find . -exec x" + many + " ;",
		"find ." + strings.Repeat(" -exec a $a ;", 60000),
		"sudo nice" + many,
		"alias" + many,
	} {
		r := Read(cmd)
		if len(r.Commands) < 2 && !strings.HasPrefix(cmd, "alias") {
			t.Errorf("%.30q...: %d commands", cmd, len(r.Commands))
		}
	}
}
