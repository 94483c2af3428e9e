package install

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzConfigFile: a configuration file is a peer's bytes. Whatever they
// are, decoding them (as JSON with comments, or as TOML) never panics; where they decode, install merges into them
// bytes that decode again, and uninstall gives the same bytes back.
func FuzzConfigFile(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"hooks": {"PreToolUse": [{"hooks": [{"command": 1}]}, 3], "Stop": {}}}`))
	f.Add([]byte(`{"hooks": [] /* x */,}`))
	a := Agents["gemini-cli"]
	hook := testHook("gemini-cli")
	events := []string{"BeforeTool", "SessionEnd"}
	f.Add([]byte("[features]\nhooks = false # off\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tomlSetting(data, []string{"features", "hooks"}) // Codex CLI's config.toml
		if _, err := decode(data, true); err != nil {
			return
		}
		file := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ch, err := Install(a, file, hook, events)
		if err != nil {
			return // a hooks section of another shape: said, not written
		}
		if _, err := decode(ch.After, true); err != nil {
			t.Fatalf("install wrote bytes that do not decode: %v\n%s", err, ch.After)
		}
		if err := os.WriteFile(file, ch.After, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := Uninstall(a, file, hook.Command)
		if err != nil {
			t.Fatal(err)
		}
		if len(ch.Events) > 0 && out.After != nil && string(out.After) != string(data) {
			t.Fatalf("uninstall gave\n%q\nfor\n%q", out.After, data)
		}
	})
}
