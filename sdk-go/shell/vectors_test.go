package shell

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// vector is one line of schema/testdata/shell/*.jsonl, in the format of
// docs/shell-reader.md.
type vector struct {
	Cmd      *string         `json:"cmd"`
	CmdParts [][2]any        `json:"cmd_parts"`
	Commands []vectorCommand `json:"commands"`
	Unknown  []string        `json:"unknown"`
	Note     string          `json:"note"`
}

type vectorCommand struct {
	Args      []string    `json:"args"`
	Dynamic   []int       `json:"dynamic,omitempty"`
	Via       string      `json:"via,omitempty"`
	Redirects [][2]string `json:"redirects,omitempty"`
}

func (v vector) command() string {
	if v.Cmd != nil {
		return *v.Cmd
	}
	var b strings.Builder
	for _, part := range v.CmdParts {
		b.WriteString(strings.Repeat(part[0].(string), int(part[1].(float64))))
	}
	return b.String()
}

const vectorDir = "../../schema/testdata/shell"

// readVectors reads every vector file; each vector is named by its file
// and line.
func readVectors(t testing.TB) map[string]vector {
	files, err := filepath.Glob(filepath.Join(vectorDir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", vectorDir, err)
	}
	all := map[string]vector{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			var v vector
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			if (v.Cmd == nil) == (v.CmdParts == nil) {
				t.Fatalf("%s:%d: a vector gives cmd or cmd_parts", f, n)
			}
			all[filepath.Base(f)+":"+itoa(n)] = v
		}
	}
	return all
}

func itoa(n int) string { return jsonString(n) }

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// stopping are the reasons after which commands are not compared.
var stopping = []string{ReasonSyntax, ReasonDepth, ReasonTooLong}

func TestVectors(t *testing.T) {
	for name, v := range readVectors(t) {
		cmd := v.command()
		got := Read(cmd)
		var reasons []string
		for _, u := range got.Unknown {
			reasons = append(reasons, u.Reason)
		}
		if slices.ContainsFunc(v.Unknown, func(r string) bool { return slices.Contains(stopping, r) }) {
			// A reading that stops: the vector lists that reason alone,
			// and the reasons found before it are not compared.
			if len(v.Unknown) != 1 {
				t.Errorf("%s: a vector that stops lists its reason alone: %q", name, v.Unknown)
			} else if !slices.Contains(reasons, v.Unknown[0]) {
				t.Errorf("%s: %q: unknown %q, want %q (%v)", name, short(cmd), set(reasons), v.Unknown, got.Unknown)
			}
			continue
		}
		if want, have := set(v.Unknown), set(reasons); !slices.Equal(want, have) {
			t.Errorf("%s: %q: unknown %q, want %q (%v)", name, short(cmd), have, want, got.Unknown)
			continue
		}
		var want, have []string
		for _, c := range v.Commands {
			want = append(want, jsonString(c))
		}
		for _, c := range got.Commands {
			vc := vectorCommand{Args: c.Args, Dynamic: c.Dynamic, Via: c.Via}
			for _, r := range c.Redirects {
				vc.Redirects = append(vc.Redirects, [2]string{r.Op, r.Target})
			}
			have = append(have, jsonString(vc))
		}
		if want, have = set(want), set(have); !slices.Equal(want, have) {
			t.Errorf("%s: %q:\n got  %s\n want %s", name, short(cmd), strings.Join(have, "\n      "), strings.Join(want, "\n      "))
		}
	}
}

// set sorts and removes repeats: the vectors compare lists as sets.
func set(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
