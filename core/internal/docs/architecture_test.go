// Package docs keeps the repository's documents true: its tests fail when
// a document names a file that is gone.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository root, from this package's folder.
const root = "../../.."

// code matches a backquoted span on one line.
var code = regexp.MustCompile("`([^`\n]+)`")

// placeholder matches a <name> that a path leaves to the reader.
var placeholder = regexp.MustCompile(`<[^>]+>`)

// pathsIn returns the backquoted spans of a Markdown text that name a file
// or folder of the repository: one word that holds a slash or ends in the
// extension of a source or data file. A <placeholder> or * in them stands
// for any name.
func pathsIn(text string) []string {
	var paths []string
	for _, m := range code.FindAllStringSubmatch(text, -1) {
		s := m[1]
		if strings.ContainsAny(s, " \t") || strings.Contains(s, "://") {
			continue
		}
		switch filepath.Ext(s) {
		case ".go", ".py", ".ts", ".md", ".json", ".txtar":
		default:
			if !strings.Contains(s, "/") {
				continue
			}
		}
		paths = append(paths, placeholder.ReplaceAllString(s, "*"))
	}
	return paths
}

// The documents live outside this module, where go test's cache does not
// look: run with -count=1, as go tool mage test does, to see a change.
func TestEveryPathThatArchitectureMdNamesExists(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths := pathsIn(string(doc))
	if len(paths) < 20 {
		t.Fatalf("found %d paths in ARCHITECTURE.md; the map names many more: is the pattern broken?", len(paths))
	}
	for _, p := range paths {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || len(matches) == 0 {
			t.Errorf("ARCHITECTURE.md names %s, which does not exist", p)
		}
	}
}

func TestPathsInFindsFilesAndFoldersAndSkipsCodeAndCommands(t *testing.T) {
	got := pathsIn("see `core/runtime`, `sdk-go/`, `BENCHMARKS.md`, `schema/testdata/exchanges/<method>-<action>.txtar`, " +
		"`Hook.Run`, `hook.hello`, `go tool mage gen`, `keep*Identity` and `https://example.com/x`")
	want := []string{"core/runtime", "sdk-go/", "BENCHMARKS.md", "schema/testdata/exchanges/*-*.txtar"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("pathsIn = %q, want %q", got, want)
	}
}
