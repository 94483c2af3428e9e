package agents

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// All is in the order of the names, each once, each agent with what the
// bridge and install read of it: the member of its entries that holds the
// command, unless its hooks are programs of their own (Executables).
func TestAllIsEveryAgentOnceInTheOrderOfTheNames(t *testing.T) {
	if len(All) == 0 {
		t.Fatal("no agents")
	}
	names := Names()
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("agents.All is not one of each name, in order: %v", names)
	}
	for _, a := range All {
		if a.Title == "" || a.Document == "" || a.Replies == "" || len(a.Events) == 0 || len(a.Install.Files) == 0 || (a.Install.Command == "") == a.Install.Layout.Entries() {
			t.Errorf("%s: a title, a document, a form of replies, events and install facts, all wanted: %+v", a.Name, a)
		}
		if ByName(a.Name) != a {
			t.Errorf("ByName(%q) is not the agent", a.Name)
		}
	}
}

// An agent that writes another agent's form of replies is named in its
// own file alone, among the hand-written Go files of the core module: what
// it does differently is a field of its value, never a test of its name.
func TestAnAgentOfAnotherAgentsFormIsNamedInItsFileAlone(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := strings.ToLower(string(b))
		for _, a := range All {
			own := filepath.Join("..", "agents", strings.ReplaceAll(a.Name, "-", "_")+".go")
			if Replies(a.Name) == a.Replies || path == own {
				continue
			}
			for _, name := range []string{a.Name, a.Title} {
				if strings.Contains(text, strings.ToLower(name)) {
					t.Errorf("%s names %s, which only %s should", path, name, own)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
