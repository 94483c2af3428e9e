package install

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// FuzzConfigFile: a configuration file is a peer's bytes. Whatever they
// are, decoding them (as JSON with comments, as TOML, or as an entry's
// shell command) never panics; where they decode, install merges into them
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
	f.Add([]byte(`{"hooks": {}, "hooks": {"Stop": []}}`))
	f.Add([]byte(`{"a": [{"x": 1, "\u0078": 2}], "s": "[[{{", /* [[ */ "b": [[[]]]}`))
	f.Add([]byte(strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tomlSetting(data, []string{"features", "hooks"})                 // Codex CLI's config.toml
		ParseCommand(string(data), map[string]string{"HOME": "/home/u"}) // an entry's command
		doc, err := decode(data, true)
		if err != nil {
			return
		}
		// What decodes is read by the agent as by us: no object names a
		// member twice, and nothing nests deeper than MaxDepth.
		checkAsTheAgentReads(t, doc.bytes())
		hadHooks := doc.find("hooks") != nil
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
		if out.After == nil {
			return // nothing left but what install adds
		}
		after, err := decode(out.After, true)
		if err != nil {
			t.Fatalf("uninstall wrote bytes that do not decode: %v\n%s", err, out.After)
		}
		for _, event := range events {
			if len(a.entries(after, event, func(cmd string) bool { return cmd == hook.Command })) > 0 {
				t.Fatalf("uninstall left the hook in %s:\n%s", event, out.After)
			}
		}
		// Where install made the hooks section, uninstall takes it out
		// again: the same bytes. (A section the user left empty goes too.)
		// An object that was empty comes back as "{}", whatever white
		// space stood inside it.
		if !hadHooks && len(ch.Events) > 0 && closeEmpty(out.After) != closeEmpty(data) {
			t.Fatalf("uninstall gave\n%q\nfor\n%q", out.After, data)
		}
	})
}

// checkAsTheAgentReads reads a decoded file again, token by token, as
// JSON.parse would: no member name twice in an object, no nesting deeper
// than MaxDepth.
func checkAsTheAgentReads(t *testing.T, data []byte) {
	t.Helper()
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		t.Fatalf("decoded bytes that do not standardize: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(std))
	type level struct {
		object bool
		names  map[string]bool
		key    bool // the next string is a member name
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("decoded bytes that JSON does not read: %v", err)
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.key
		if top != nil && top.object {
			top.key = !top.key
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, &level{object: v == '{', names: map[string]bool{}, key: true})
				if len(stack) > MaxDepth {
					t.Fatalf("decode took bytes nested %d levels deep", len(stack))
				}
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].key = true
				}
			}
		case string:
			if isKey {
				if top.names[v] {
					t.Fatalf("decode took an object that names %q twice", v)
				}
				top.names[v] = true
			}
		}
	}
}

// closeEmpty is a file's text with the white space inside an empty root
// object taken out.
func closeEmpty(data []byte) string {
	v, err := hujson.Parse(data)
	if err != nil {
		return string(data)
	}
	if obj, ok := v.Value.(*hujson.Object); ok && len(obj.Members) == 0 && len(bytes.TrimSpace(obj.AfterExtra)) == 0 {
		obj.AfterExtra = nil
	}
	return string(v.Pack())
}
