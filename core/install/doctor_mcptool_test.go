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

// Codex CLI runs a guarded call whose mcp_tool hook fails, and has no
// onFailure: doctor finds each guard's mcp_tool hook, whatever it says,
// and says why; another event's is not found.
func TestDoctorFindsEveryGuardsMCPToolHookOfAnAgentWhereTheyFailOpen(t *testing.T) {
	root := t.TempDir()
	home, dir := filepath.Join(root, "home"), filepath.Join(root, "repo")
	hook := `{"hooks": [{"type": "mcp_tool", "server": "hookwire", "tool": "event", "onFailure": "block"}]}`
	writeFile(t, filepath.Join(home, ".codex", "hooks.json"), `{"hooks": {"PreToolUse": [`+hook+`], "SessionStart": [`+hook+`]}}`)
	r := Doctor(context.Background(), Agents["codex-cli"], home, dir, DoctorOptions{})
	var found []Finding
	for _, f := range r.Findings {
		if strings.Contains(f.Text, "mcp_tool hook") {
			found = append(found, f)
		}
	}
	if len(found) != 1 || !found[0].Problem || !strings.Contains(found[0].Text, "on PreToolUse cannot guard: Codex CLI 0.171.0 runs the call") {
		t.Errorf("doctor found %+v; want the PreToolUse hook alone, as a problem, with the reason", found)
	}
}
