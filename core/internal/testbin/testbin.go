// Package testbin builds the programs that a package's tests run as real
// child processes, once for the whole test run.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Main builds pkg (a package path relative to the test's package, such as
// "./testdata/fixture") into a temporary folder, sets *bin to the program's
// path, runs the tests, removes the folder and exits. Call it from TestMain.
func Main(m *testing.M, pkg string, bin *string) { MainEach(m, map[string]*string{pkg: bin}) }

// MainEach is Main for several programs: each package of bins is built and
// its path set.
func MainEach(m *testing.M, bins map[string]*string) {
	dir, err := os.MkdirTemp("", "hookwire-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Decisions go to a log of the run's own, never into the user's.
	if os.Getenv("HOOKWIRE_AUDIT") == "" {
		os.Setenv("HOOKWIRE_AUDIT", filepath.Join(dir, "audit", "audit.jsonl"))
	}
	for pkg, bin := range bins {
		abs, _ := filepath.Abs(pkg)
		*bin = filepath.Join(dir, filepath.Base(abs))
		build := exec.Command("go", "build", "-o", *bin, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n", pkg, err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// LinksNone fails t when a package that one of pkgs (package paths, as go
// list takes them) links has one of banned in its path.
func LinksNone(t *testing.T, pkgs []string, banned ...string) {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed only %q", deps)
	}
	for _, dep := range deps {
		for _, b := range banned {
			if strings.Contains(dep, b) {
				t.Errorf("%s links %s", strings.Join(pkgs, " and "), dep)
			}
		}
	}
}

// Lines is the lines of the file at path, without the last newline.
func Lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// HostileLines are lines a broken hook may print: none is a reply a host
// may accept, and none may keep it from reading the next line.
func HostileLines() [][]byte {
	lines := []string{
		`{"jsonrpc":"2.0","id":2]}`, // a closing bracket of the other kind
		`{"jsonrpc":"2.0","id":2,"result":[}`,
		`]`, `}`, `[`, `{`, `]]]]`, `}}}}`, `[}`, `{]`, `:`, `,`, `"`,
		`{"jsonrpc":"2.0","id":2,"result":{"action":"continue"`, // truncated
		`{"jsonrpc":"2.0","id":2,"result":`,
		`{"jsonrpc":"2.0","id"`,
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"unterminated}}`,
		`"unterminated`,
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"\x"}}`, // invalid escapes
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"\u12"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"reason":"\`,
		"{\"jsonrpc\":\"2.0\",\"reason\":\"\xff\xfe\"}", // invalid UTF-8
		"\xc3\x28",
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"reason\":\"a\x00b\"}}", // a NUL byte
		"\x00",
		`{"jsonrpc":"2.0","id":1e999,"result":{}}`, `1e999`,
		`{"jsonrpc":"2.0","id":-,"result":{}}`, `-`,
		`{"jsonrpc":"2.0","id":2,"id":3,"result":{"action":"continue"}}`, // duplicate keys
		`{"jsonrpc":"2.0","id":2,"result":{"action":"continue","action":"abort_turn"}}`,
		strings.Repeat("[", 100000),
		strings.Repeat(`{"a":`, 100000),
		strings.Repeat("[", 100000) + strings.Repeat("}", 100000),
	}
	// A bracket of the other kind at every depth, both ways.
	for depth := 1; depth <= 12; depth++ {
		for _, wrong := range []struct{ open, close string }{{`{"a":`, "]"}, {"[", "}"}} {
			head := `{"jsonrpc":"2.0","id":2,"result":` + strings.Repeat(wrong.open, depth) + `1`
			lines = append(lines, head+strings.Repeat(wrong.close, depth)+"}")
			lines = append(lines, head+wrong.close+`,"x":2}`)
		}
	}
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = []byte(l)
	}
	return out
}
