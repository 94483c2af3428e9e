package install

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A guard started by doctor whose file leaves out an event its modes need
// (here Claude Code's PreSkillShellCommand, which a file written before
// Claude Code 2.1.332 lacks) is not ready: the commands that event guards
// would run unasked. An event that guards nothing is a note.
func TestDoctorFindsAGuardEventTheFileLeavesOut(t *testing.T) {
	c := newClone(t)
	hook := pythonHook(t, `["tool"]`, `    if method in ("hook.before_tool", "hook.after_tool"):
        return {"action": "continue"}
`)
	a := Agents["claude-code"]
	entry := `[{"matcher": "*", "hooks": [{"type": "command", "command": ` + strconvQuote(Command(c.bridge, a.Name, hook)) + `, "timeout": 60}]}]`
	settings := func(events ...string) {
		var parts []string
		for _, e := range events {
			parts = append(parts, `"`+e+`": `+entry)
		}
		writeFile(t, filepath.Join(c.home, ".claude", "settings.json"), `{"hooks": {`+strings.Join(parts, ", ")+`}}`)
	}

	settings("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit")
	r := Doctor(context.Background(), a, c.home, t.TempDir(), DoctorOptions{StartHooks: true})
	out := texts(r)
	if r.OK() || !strings.Contains(out, "claude-code does not ask it at PreSkillShellCommand: what those events guard runs unasked") ||
		!strings.Contains(out, "fix: run hookwire install claude-code again") {
		t.Errorf("a guard without PreSkillShellCommand:\n%s", out)
	}
	if !strings.Contains(out, "note    the hook's modes also need SessionEnd") {
		t.Errorf("SessionEnd, which guards nothing, is not a note:\n%s", out)
	}

	settings("PreToolUse", "PreSkillShellCommand", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionEnd")
	r = Doctor(context.Background(), a, c.home, t.TempDir(), DoctorOptions{StartHooks: true})
	if out := texts(r); !r.OK() || strings.Contains(out, "does not ask it at") || strings.Contains(out, "also need") {
		t.Errorf("a guard named for every event install writes:\n%s", out)
	}
}
