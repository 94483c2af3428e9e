package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file nested a million levels deep (2 MB, under MaxFileSize) is refused
// with an error naming the line, before the parser recurses into it: it
// used to end the process with a fatal stack overflow.
func TestDecodeRefusesDeepNesting(t *testing.T) {
	deep := "{\n\"hooks\": " + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}"
	for _, data := range []string{deep, strings.Replace(deep, "[", "{\"a\":", 1001)} {
		_, err := decode([]byte(data), true)
		if err == nil || !strings.Contains(err.Error(), "nest deeper than 1000 levels") || !strings.HasPrefix(err.Error(), "line 2:") {
			t.Fatalf("decode of %d levels: %v", strings.Count(data, "["), err)
		}
	}
	// Brackets in strings and comments are not nesting.
	ok := `{"a": "` + strings.Repeat("[", 2000) + `" /* ` + strings.Repeat("{", 2000) + ` */, "b": [[1]]} // ` + strings.Repeat("[", 2000) + "\n"
	if _, err := decode([]byte(ok), true); err != nil {
		t.Fatalf("brackets in strings and comments: %v", err)
	}
	// Install names the file.
	file := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(file, []byte(deep), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Agents["claude-code"], file, testHook("claude-code"), []string{"PreToolUse"}); err == nil || !strings.Contains(err.Error(), file+": line 2: ") {
		t.Fatalf("install into a deep file: %v", err)
	}
}

// A key given twice in any object is refused, naming the key and both
// lines: the agents keep the last (JSON.parse), this package read the
// first, so install wrote where the agent never reads and doctor checked
// a section the agent ignores.
func TestDecodeRefusesDuplicateKeys(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"{\n  \"hooks\": {},\n  \"hooks\": {\"PreToolUse\": []}\n}", `line 3: the key "hooks" is there twice (first on line 2)`},
		{"{\"hooks\": {\"Stop\": [],\n\n \"Stop\": []}}", `line 3: the key "Stop" is there twice (first on line 1)`},
		{"{\"a\": [{\"x\": 1, \"x\": 2}]}", `line 1: the key "x" is there twice`},
		// The same name, escaped: JSON.parse reads one key.
		{"{\"hooks\": 1, \"\\u0068ooks\": 2}", `the key "hooks" is there twice`},
	} {
		_, err := decode([]byte(c.data), true)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "keep one") {
			t.Errorf("decode(%q): %v, want %q", c.data, err, c.want)
		}
	}
	if _, err := decode([]byte(`{"a": {"x": 1}, "b": {"x": 1}}`), true); err != nil {
		t.Errorf("one name in two objects: %v", err)
	}
	file := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(file, []byte("{\n  \"hooks\": {},\n  \"hooks\": {}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Agents["claude-code"], file, testHook("claude-code"), []string{"PreToolUse"}); err == nil || !strings.Contains(err.Error(), file+`: line 3: the key "hooks" is there twice`) {
		t.Fatalf("install into a file with two hooks keys: %v", err)
	}
}
