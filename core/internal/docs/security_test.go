package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testName matches a test named in backquotes: `TestSomething`.
var testName = regexp.MustCompile("`(Test\\w+|Fuzz\\w+)`")

// testFuncs are the names of every Test and Fuzz function of the
// repository's Go test files.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)\w+)\(`)
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			found[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// Each promise of SECURITY.md names the tests that fail without it: a
// promise with no test, or a test that is gone, fails here.
func TestEveryPromiseOfSecurityMdNamesTestsThatExist(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "SECURITY.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, promises, ok := strings.Cut(string(doc), "\n## What we promise\n")
	if !ok {
		t.Fatal(`SECURITY.md has no "## What we promise" section`)
	}
	promises, _, _ = strings.Cut(promises, "\n## ")
	tests := testFuncs(t)
	count := 0
	for _, item := range strings.Split(promises, "\n- ")[1:] {
		count++
		names := testName.FindAllStringSubmatch(item, -1)
		if len(names) == 0 {
			t.Errorf("SECURITY.md promises with no test: %.100s", item)
		}
		for _, n := range names {
			if !tests[n[1]] {
				t.Errorf("SECURITY.md names %s, which no test file declares", n[1])
			}
		}
	}
	if count < 10 {
		t.Fatalf("found %d promises in SECURITY.md: is the list's form broken?", count)
	}
}
