package install

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A guard's mcp_tool hook without onFailure "block" lets the call run when
// its server cannot answer: doctor says so, for the guard events only.
func TestDoctorFindsAGuardsMCPToolHookThatFailsOpen(t *testing.T) {
	root := t.TempDir()
	home, dir := filepath.Join(root, "home"), filepath.Join(root, "repo")
	hook := func(onFailure string) string {
		return `{"hooks": [{"type": "mcp_tool", "server": "hookwire", "tool": "event"` + onFailure + `}]}`
	}
	writeFile(t, filepath.Join(dir, ".claude", "settings.json"), `{"hooks": {
		"PreToolUse": [`+hook("")+`],
		"PermissionRequest": [`+hook(`, "onFailure": "block"`)+`],
		"SessionEnd": [`+hook("")+`]}}`)
	r := Doctor(context.Background(), Agents["claude-code"], home, dir, DoctorOptions{})
	var found []string
	for _, f := range r.Findings {
		if strings.Contains(f.Text, "mcp_tool hook") {
			found = append(found, f.Text)
			if !f.Problem {
				t.Errorf("not a problem: %s", f.Text)
			}
		}
	}
	if len(found) != 1 || !strings.Contains(found[0], "on PreToolUse") {
		t.Errorf("doctor found %q; want the PreToolUse hook alone", found)
	}
}
