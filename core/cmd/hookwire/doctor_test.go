package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/install"
)

// `cd cloned-repo && hookwire doctor` runs nothing the repository's files
// name, and --start-hooks runs nothing the agent would not run itself: a
// project's hook in a folder the agent does not trust, a hook whose bridge
// is not there.
func TestDoctorRunsNothingAClonedRepositoryNames(t *testing.T) {
	bins, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	home, repo := t.TempDir(), t.TempDir()
	marker := filepath.Join(t.TempDir(), "MARKER")
	write := func(rel, data string) {
		t.Helper()
		path := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hook := []string{"sh", "-c", "id > " + marker}
	grouped := func(agent, event, bridge string, timeout int) string {
		return fmt.Sprintf(`{"hooks": {%q: [{"matcher": "*", "hooks": [{"type": "command", "command": %q, "timeout": %d}]}]}}`,
			event, install.Command(bridge, agent, hook), timeout)
	}
	bridge := filepath.Join(bins, "hookwire-bridge")
	write(".claude/settings.json", grouped("claude-code", "PreToolUse", bridge, 60))
	write(".gemini/settings.json", grouped("gemini-cli", "BeforeTool", bridge, 60000))
	write(".qwen/settings.json", grouped("qwen-code", "PreToolUse", bridge, 60))
	write(".codex/hooks.json", grouped("codex-cli", "PreToolUse", bridge, 60))
	// The user turned Qwen Code's folder trust on, and trusts no folder.
	if err := os.MkdirAll(filepath.Join(home, ".qwen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(`{"security": {"folderTrust": {"enabled": true}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := func() bool { _, err := os.Stat(marker); return err == nil }

	_, out := installed(t, home, repo, "doctor")
	if ran() {
		t.Fatalf("hookwire doctor ran a command the repository names\n%s", out)
	}
	if n := strings.Count(out, "the hook was not started (doctor runs no command a configuration names unless asked)"); n != 4 {
		t.Errorf("doctor says of %d hooks that it did not start them, want 4\n%s", n, out)
	}
	for _, agent := range []string{"gemini-cli", "qwen-code", "codex-cli"} {
		code, out := installed(t, home, repo, "doctor", "--start-hooks", agent)
		if ran() {
			t.Fatalf("hookwire doctor --start-hooks %s ran a hook of an untrusted folder\n%s", agent, out)
		}
		if code != exitFail || !strings.Contains(out, "the hook was not started: "+agent+" does not load this file's hooks here") {
			t.Errorf("doctor --start-hooks %s: exit %d\n%s", agent, code, out)
		}
	}
	// A bridge that is not there, as a relative path the repository ships
	// none of: the agent's shell would not find it.
	write(".claude/settings.json", grouped("claude-code", "PreToolUse", "./tools/hookwire-bridge", 60))
	code, out := installed(t, home, repo, "doctor", "--start-hooks", "claude-code")
	if ran() || code != exitFail || !strings.Contains(out, "the hook was not started: its bridge is not there") {
		t.Fatalf("doctor --start-hooks with no bridge: exit %d, ran %v\n%s", code, ran(), out)
	}
}

// install says where the hook it wrote does not run, which plugin tools
// never reach the agent, and where a rewrite does not take effect as the
// agent's own rules would, by the host's rule.
func TestInstallSaysWhatTheAgentDoesNotRun(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	hookCopy(t, dir)
	code, out := installed(t, home, dir, "install", "--scope", "project", "--events", "preToolUse", "copilot-cli", "--", "./guard")
	if code != exitOK || !strings.Contains(out, "note: Copilot CLI 1.0.102 run with -p (scripts, CI) loads no .github/hooks: there the hook does not run: install it with --scope user") {
		t.Errorf("install into Copilot CLI's project scope: exit %d\n%s", code, out)
	}
	code, out = installed(t, home, dir, "install", "--events", "PreToolUse,UserPromptSubmit", "claude-code", "--", "./guard")
	for _, want := range []string{
		"note: if the hook serves plugin tools: tools change (added a_plugin_tool) dropped: Claude Code takes no tools from a hook (serve plugin tools with hookwire mcp)",
		"note: if the hook serves plugin tools: respond: Claude Code lets no hook answer a tool call",
	} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("install into Claude Code: exit %d, does not say %q\n%s", code, want, out)
		}
	}
	// Where a rewrite does not take effect as the agent's own rules would.
	for agent, want := range map[string]string{
		"qwen-code": "note: if the hook rewrites calls: modify: Qwen Code 0.24.4 takes no new arguments at PreToolUse: the call is denied",
		"codex-cli": "note: if the hook rewrites calls: modify: Codex CLI 0.171.0 takes new arguments only with an allow",
	} {
		code, out = installed(t, home, dir, "install", "--events", "PreToolUse", agent, "--", "./guard")
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("install into %s: exit %d, does not say %q\n%s", agent, code, want, out)
		}
	}
}

// With --start-hooks, doctor checks the hook the agent runs, as before.
func TestDoctorStartHooksChecksAnInstalledHook(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	hookCopy(t, dir)
	if code, out := installed(t, home, dir, "install", "claude-code", "--", "./guard"); code != exitOK {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	code, out := installed(t, home, dir, "doctor", "claude-code")
	if code != exitOK || strings.Contains(out, "passes conformance") || !strings.Contains(out, "ready: 1 hook(s) would run, as the files say (not started: --start-hooks checks them)") {
		t.Errorf("doctor: exit %d\n%s", code, out)
	}
	code, out = installed(t, home, dir, "doctor", "--start-hooks", "claude-code")
	if code != exitOK || !strings.Contains(out, "passes conformance") || !strings.Contains(out, "ready: 1 hook(s) would run\n") {
		t.Errorf("doctor --start-hooks: exit %d\n%s", code, out)
	}
}

// Run from a folder where no agent has a hooks file, doctor says which
// files it looked for, rather than nothing at all.
func TestDoctorNamesTheFilesItLookedFor(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	code, out := installed(t, home, dir, "doctor")
	want := []string{"no agent's hooks file here; looked for:",
		filepath.Join(home, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.json"),
		filepath.Join(dir, ".github", "hooks", "hookwire.json"), filepath.Join(home, ".qwen", "settings.json")}
	for _, w := range want {
		if code != exitOK || !strings.Contains(out, w) {
			t.Errorf("doctor with no hooks file: exit %d, want %q in:\n%s", code, w, out)
		}
	}
	code, out = installed(t, home, dir, "doctor", "cursor")
	if code != exitFail || !strings.Contains(out, "no hookwire hook installed (looked in "+filepath.Join(home, ".cursor", "hooks.json")+", "+filepath.Join(dir, ".cursor", "hooks.json")+")") {
		t.Errorf("doctor cursor with no hooks file: exit %d\n%s", code, out)
	}
}
