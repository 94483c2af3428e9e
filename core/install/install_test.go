package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

var guardModes = []protocol.Mode{protocol.ModeTool, protocol.ModeApprove}

func testHook(agent string) Hook {
	return Hook{
		Command: Command("/opt/hook wire/hookwire-bridge", agent, []string{"/srv/venv/bin/python", "/srv/guard.py"}),
		Name:    "guard",
		Timeout: 60 * time.Second,
	}
}

// standard is the file as plain JSON, decoded.
func standard(t *testing.T, data []byte) map[string]any {
	t.Helper()
	std, err := hujson.Standardize(slices.Clone(data)) // it works in place
	if err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, data)
	}
	var v map[string]any
	if err := json.Unmarshal(std, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// hooksSection is the file's events: its "hooks", or, for an agent that
// reads them at the top level, the file itself where it has no "hooks".
func hooksSection(a *Agent, file map[string]any) map[string]any {
	if hooks, ok := file["hooks"].(map[string]any); ok || !a.Bare {
		return hooks
	}
	return file
}

// commands are the commands of event's entries, in either layout.
func commands(a *Agent, file map[string]any, event string) []string {
	list, _ := hooksSection(a, file)[event].([]any)
	var out []string
	add := func(e any) {
		if m, ok := e.(map[string]any); ok {
			if c, ok := m[a.Command].(string); ok {
				out = append(out, c)
			}
		}
	}
	for _, item := range list {
		if a.Layout.Lists() {
			add(item)
			continue
		}
		group, _ := item.(map[string]any)
		inner, _ := group["hooks"].([]any)
		for _, e := range inner {
			add(e)
		}
	}
	return out
}

// TestInstallExisting installs a guard into a copy of a realistic
// configuration of each agent and scope (the user's own hooks, comments
// where the agent reads them), and checks the merge, the backup, that a
// second install changes nothing and that uninstall gives the same bytes.
func TestInstallExisting(t *testing.T) {
	forEachRealisticFile(t, false, func(t *testing.T, name string, a *Agent, scope Scope, original []byte) {
		home, dir := t.TempDir(), t.TempDir()
		file, err := a.Path(scope, home, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, original, 0o600); err != nil {
			t.Fatal(err)
		}
		hook := testHook(name)
		events := Events(agents.ByName(name), guardModes)
		ch, err := Install(a, file, hook, events)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ch.Events, events) || len(ch.Kept) != 0 {
			t.Fatalf("events written %v, kept %v; want %v written", ch.Events, ch.Kept, events)
		}
		// Merged: every line of the file is still there, in order.
		m := difflib.NewMatcher(difflib.SplitLines(string(original)), difflib.SplitLines(string(ch.After)))
		for _, op := range m.GetOpCodes() {
			if op.Tag == 'd' || op.Tag == 'r' {
				t.Fatalf("install changed the user's lines:\n%s", ch.Diff())
			}
		}
		if !a.Comments && !json.Valid(ch.After) {
			t.Fatalf("%s reads plain JSON, and install wrote:\n%s", name, ch.After)
		}
		after := standard(t, ch.After)
		before := standard(t, original)
		for event := range hooksSection(a, before) {
			if got, want := commands(a, after, event), commands(a, before, event); !slices.Equal(got[:len(want)], want) {
				t.Errorf("%s: the user's hooks %v became %v", event, want, got)
			}
		}
		for _, event := range events {
			if !slices.Contains(commands(a, after, event), hook.Command) {
				t.Errorf("%s has no entry for the hook:\n%s", event, ch.After)
			}
		}
		backup, err := ch.Write()
		if err != nil {
			t.Fatal(err)
		}
		state, _ := StateDir() // the backup is hookwire's, never beside the file
		if kept, _ := os.ReadFile(backup); filepath.Dir(backup) != state || string(kept) != string(original) {
			t.Fatalf("backup %s (file %s) holds:\n%q", backup, file, kept)
		}
		if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
			t.Errorf("the file's mode became %v", info.Mode().Perm())
		}

		again, err := Install(a, file, hook, events)
		if err != nil {
			t.Fatal(err)
		}
		if again.Changed() || !slices.Equal(again.Kept, events) {
			t.Fatalf("a second install changes the file (kept %v):\n%s", again.Kept, again.Diff())
		}

		out, err := Uninstall(a, file, "")
		if err != nil {
			t.Fatal(err)
		}
		if string(out.After) != string(original) {
			t.Fatalf("uninstall left:\n%s\nwant the original:\n%s", out.After, original)
		}
	})
}

// forEachRealisticFile runs check, as a subtest, on each agent and scope
// whose hooks file is TOML (toml) or JSON, with the agent's realistic file
// of testdata (NAME.toml, NAME.json): the user's own hooks and settings.
func forEachRealisticFile(t *testing.T, toml bool, check func(t *testing.T, name string, a *Agent, scope Scope, original []byte)) {
	for name, a := range Agents {
		if !a.Layout.Entries() {
			continue // no settings file to merge into: executables_test.go, plugin_test.go
		}
		if (a.TOML != nil) != toml {
			continue
		}
		ext := map[bool]string{true: ".toml", false: ".json"}[toml]
		original, err := os.ReadFile(filepath.Join("testdata", name+ext))
		if err != nil {
			t.Fatal(err)
		}
		for _, scope := range Scopes {
			if _, ok := a.Files[scope]; ok {
				t.Run(name+"/"+string(scope), func(t *testing.T) { check(t, name, a, scope, original) })
			}
		}
	}
}

// TestInstallFresh installs into a missing file, for an agent of each
// layout: the file holds the hook alone, and uninstall removes it.
func TestInstallFresh(t *testing.T) {
	for _, name := range []string{"claude-code", "gemini-cli", "cursor"} {
		a := Agents[name]
		file := filepath.Join(t.TempDir(), "settings.json")
		hook := testHook(name)
		ch, err := Install(a, file, hook, Events(agents.ByName(name), guardModes))
		if err != nil {
			t.Fatal(err)
		}
		if ch.Before != nil || !json.Valid(ch.After) || !strings.HasSuffix(string(ch.After), "}\n") {
			t.Fatalf("%s: a new file of\n%s", name, ch.After)
		}
		backup, err := ch.Write()
		if err != nil {
			t.Fatal(err)
		}
		if backup != "" {
			t.Errorf("%s: a backup of a file that did not exist: %s", name, backup)
		}
		out, err := Uninstall(a, file, hook.Command)
		if err != nil {
			t.Fatal(err)
		}
		if out.After != nil {
			t.Fatalf("%s: uninstall leaves\n%s", name, out.After)
		}
	}
}

// TestUninstallGivesTheFileBack: uninstall takes only what install wrote,
// not a hand-written bridge command, and gives back a file that was "{}"
// and a comment as it was, not as "{\n}".
func TestUninstallGivesTheFileBack(t *testing.T) {
	for _, c := range []struct{ agent, event, file string }{
		{"claude-code", "PreToolUse", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "hookwire-bridge claude-code -- python3 \"$CLAUDE_PROJECT_DIR/guard.py\""}]}]}}`},
		{"gemini-cli", "BeforeTool", "// my settings\n{}\n"},
	} {
		a := Agents[c.agent]
		file := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(file, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		ch, err := Install(a, file, testHook(c.agent), []string{c.event})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ch.Write(); err != nil {
			t.Fatal(err)
		}
		out, err := Uninstall(a, file, "")
		if err != nil {
			t.Fatal(err)
		}
		if string(out.After) != c.file {
			t.Errorf("%s: uninstall left\n%q\nwant\n%q", c.agent, out.After, c.file)
		}
	}
}

func TestEvents(t *testing.T) {
	got := Events(agents.ByName("claude-code"), guardModes)
	// UserPromptSubmit: the bridge ends an aborted turn at the next prompt.
	// PreSkillShellCommand: a skill's inline shell command, which no
	// PreToolUse sees.
	want := []string{"PermissionRequest", "PostToolUse", "PostToolUseFailure", "PreSkillShellCommand", "PreToolUse", "SessionEnd", "UserPromptSubmit"}
	if !slices.Equal(got, want) {
		t.Fatalf("a tool and approve hook of Claude Code: %v, want %v", got, want)
	}
	got = Events(agents.ByName("gemini-cli"), []protocol.Mode{protocol.ModeLLM})
	// AfterAgent: Gemini CLI reads the context of an after_llm answer there.
	if want := []string{"AfterAgent", "AfterModel", "BeforeModel", "SessionEnd"}; !slices.Equal(got, want) {
		t.Fatalf("an llm hook of Gemini CLI: %v, want %v", got, want)
	}
}

func TestParseCommand(t *testing.T) {
	line := Command("/opt/hook wire/hookwire-bridge", "gemini-cli", []string{"/srv/py", "it's.py"})
	b, ok := ParseCommand(line, nil)
	if !ok || !b.Installed || b.Agent != "gemini-cli" || !slices.Equal(b.Hook, []string{"/srv/py", "it's.py"}) {
		t.Fatalf("%s: %+v %v", line, b, ok)
	}
	b, ok = ParseCommand(`PYTHONPATH="$CLAUDE_PROJECT_DIR/sdk" hookwire-bridge --deadline 20s claude-code -- python3 "$CLAUDE_PROJECT_DIR/g.py"`, map[string]string{"CLAUDE_PROJECT_DIR": "/p"})
	if !ok || b.Installed || b.Deadline != 20*time.Second || b.Env["PYTHONPATH"] != "/p/sdk" || !slices.Equal(b.Hook, []string{"python3", "/p/g.py"}) {
		t.Fatalf("%+v %v", b, ok)
	}
	if _, ok := ParseCommand("prettier --write", nil); ok {
		t.Fatal("prettier taken for the bridge")
	}
	// Words made by running a command are not run, and not read.
	for _, line := range []string{"<()", "hookwire-bridge claude-code -- python3 <(cat x)", "hookwire-bridge claude-code -- $(id)"} {
		if b, ok := ParseCommand(line, nil); ok {
			t.Fatalf("%s read as %+v", line, b)
		}
	}
}

// A hooks section of a shape the agent does not read is said, not
// written into.
func TestInstallRefusesAnotherShape(t *testing.T) {
	for _, data := range []string{`{"hooks": []}`, `{"hooks": {"PreToolUse": {"hooks": []}}}`, `[]`} {
		file := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if ch, err := Install(Agents["claude-code"], file, testHook("claude-code"), []string{"PreToolUse"}); err == nil {
			t.Errorf("%s: installed into it:\n%s", data, ch.After)
		}
	}
}
