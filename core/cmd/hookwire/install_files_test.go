package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/install"
)

// The tests that run the built hookwire with HOME set to a folder of
// theirs keep its state folder there: the runner's XDG_STATE_HOME is not
// theirs to write.
func init() { os.Unsetenv("XDG_STATE_HOME") }

// stateOf is hookwire's state folder for home.
func stateOf(home string) string { return filepath.Join(home, ".local", "state", "hookwire") }

// put writes data at path, making its folder, with mode.
func put(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// contents is the file's text, "" when it cannot be read.
func contents(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

// trueHook is a hook command that resolves: true, with a word that makes
// it the n-th hook.
func trueHook(n int) []string { return []string{"true", fmt.Sprintf("hook%d", n)} }

// installArgs install the n-th true hook into agent's file of scope, for
// events.
func installArgs(scope, agent, events string, n int) []string {
	return append([]string{"install", "--scope", scope, "--events", events, agent, "--"}, trueHook(n)...)
}

// A repository that commits links at the names install once wrote beside
// the settings file (FILE.hookwire-backup, FILE.hookwire-tmp) does not get
// the user's files written through them.
func TestInstallFollowsNoPlantedLink(t *testing.T) {
	for _, side := range []string{".hookwire-backup", ".hookwire-tmp"} {
		t.Run(side, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), t.TempDir()
			bashrc := filepath.Join(home, ".bashrc")
			put(t, bashrc, "export PATH=$HOME/bin:$PATH\n", 0o644)
			file := filepath.Join(dir, ".claude", "settings.json")
			put(t, file, "{}\n", 0o644)
			if err := os.Symlink(bashrc, file+side); err != nil {
				t.Fatal(err)
			}

			code, out := installed(t, home, dir, installArgs("project", "claude-code", "PreToolUse", 1)...)
			if code != exitOK {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
			if got := contents(bashrc); got != "export PATH=$HOME/bin:$PATH\n" {
				t.Fatalf("install wrote ~/.bashrc through %s:\n%s", side, got)
			}
			if info, err := os.Lstat(file); err != nil || !info.Mode().IsRegular() || !strings.Contains(contents(file), "hook1") {
				t.Fatalf("the settings file: %v %v\n%s", info, err, contents(file))
			}
			if link, err := os.Readlink(file + side); err != nil || link != bashrc {
				t.Errorf("the planted link became %q (%v)", link, err)
			}
			if code, out = installed(t, home, dir, "uninstall", "--scope", "project", "claude-code"); code != exitOK {
				t.Fatalf("uninstall: exit %d\n%s", code, out)
			}
			if contents(bashrc) != "export PATH=$HOME/bin:$PATH\n" || contents(file) != "{}\n" {
				t.Fatalf("after uninstall: .bashrc %q, settings %q", contents(bashrc), contents(file))
			}
		})
	}
}

// Twenty installs at once into one settings file, each a process of the
// CLI installing another hook: each waits for the file's lock, so every
// hook is in the file, which parses.
func TestInstallConcurrentProcessesKeepEveryHook(t *testing.T) {
	bins, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	const n = 20
	outs := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		cmd := exec.Command(filepath.Join(bins, "hookwire"), installArgs("project", "claude-code", "PreToolUse,SessionEnd", i)...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+home)
		wg.Go(func() { outs[i], errs[i] = cmd.CombinedOutput() })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !strings.Contains(string(outs[i]), "installed") {
			t.Errorf("install %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	file := filepath.Join(dir, ".claude", "settings.json")
	var settings struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } }
	}
	if err := json.Unmarshal([]byte(contents(file)), &settings); err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, contents(file))
	}
	for _, event := range []string{"PreToolUse", "SessionEnd"} {
		var got []string
		for _, g := range settings.Hooks[event] {
			for _, h := range g.Hooks {
				got = append(got, h.Command)
			}
		}
		for i := range n {
			if !slices.ContainsFunc(got, func(c string) bool { return strings.HasSuffix(c, fmt.Sprintf(" hook%d", i)) }) {
				t.Errorf("%s: hook %d is not in the file", event, i)
			}
		}
		if len(got) != n {
			t.Errorf("%s: %d entries, want %d", event, len(got), n)
		}
	}
	if code, out := installed(t, home, dir, "uninstall", "--scope", "project", "claude-code"); code != exitOK || !strings.Contains(out, "removed") {
		t.Fatalf("uninstall: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the file install made is left: %v", err)
	}
}

// A user's settings file that is a link into a dotfiles repository stays
// a link: its target is written, and uninstall gives it back. A project's
// file that links out of the project is refused.
func TestInstallSymlinkedSettings(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	dotfile := filepath.Join(home, "dotfiles", "claude", "settings.json")
	original := "{\n  \"model\": \"opus\"\n}\n"
	put(t, dotfile, original, 0o600)
	file := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.Symlink("../dotfiles/claude/settings.json", file); err != nil {
		t.Fatal(err)
	}
	code, out := installed(t, home, dir, installArgs("user", "claude-code", "PreToolUse", 1)...)
	if code != exitOK {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	if link, err := os.Readlink(file); err != nil || link != "../dotfiles/claude/settings.json" {
		t.Fatalf("the link became %q (%v)", link, err)
	}
	if !strings.Contains(contents(dotfile), "hook1") {
		t.Fatalf("the dotfile holds\n%s", contents(dotfile))
	}
	if real, _ := filepath.EvalSymlinks(dotfile); !strings.Contains(out, file+" is a link: wrote its target "+real) {
		t.Errorf("install does not say it wrote the link's target:\n%s", out)
	}
	if code, out = installed(t, home, dir, "uninstall", "--scope", "user", "claude-code"); code != exitOK {
		t.Fatalf("uninstall: exit %d\n%s", code, out)
	}
	if link, err := os.Readlink(file); err != nil || link != "../dotfiles/claude/settings.json" || contents(dotfile) != original {
		t.Fatalf("after uninstall: link %q (%v), dotfile\n%s", link, err, contents(dotfile))
	}

	// The project's settings, a link to the user's.
	project := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(project), 0o755)
	if err := os.Symlink(file, project); err != nil {
		t.Fatal(err)
	}
	code, out = installed(t, home, dir, installArgs("project", "claude-code", "PreToolUse", 2)...)
	if code == exitOK || !strings.Contains(out, "out of the project's folder") || !strings.Contains(out, "--scope user") {
		t.Fatalf("install through a project's link out of it: exit %d\n%s", code, out)
	}
	if contents(dotfile) != original {
		t.Fatalf("the user's settings became\n%s", contents(dotfile))
	}
}

// The file as it was before the first install is kept once, in hookwire's
// state folder (never in the project), with the file's mode, and the CLI
// says where; a second install keeps that copy.
func TestInstallKeepsTheBackupOnce(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(home, ".claude", "settings.json")
	original := `{"env": {"API_KEY": "sk-secret"}}` + "\n"
	put(t, file, original, 0o600)
	kept := regexp.MustCompile(`(?m)^kept ` + regexp.QuoteMeta(file) + ` as it was in (\S+)$`)
	code, out := installed(t, home, dir, installArgs("user", "claude-code", "PreToolUse", 1)...)
	m := kept.FindStringSubmatch(out)
	if code != exitOK || m == nil {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	backup := m[1]
	if filepath.Dir(backup) != stateOf(home) {
		t.Fatalf("the backup %s is not in the state folder %s", backup, stateOf(home))
	}
	if info, err := os.Stat(stateOf(home)); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the state folder: %v %v", info, err)
	}
	code, out = installed(t, home, dir, installArgs("user", "claude-code", "PreToolUse", 2)...)
	if code != exitOK || !strings.Contains(out, "is kept in "+backup) {
		t.Fatalf("a second install: exit %d\n%s", code, out)
	}
	info, err := os.Stat(backup)
	if err != nil || info.Mode().Perm() != 0o600 || contents(backup) != original {
		t.Fatalf("the backup after two installs: %v %v\n%s", info, err, contents(backup))
	}
	if side, _ := filepath.Glob(file + "?*"); len(side) != 0 {
		t.Errorf("beside the settings file: %v", side)
	}

	// A project's file: nothing of hookwire's beside it, to be committed.
	github := filepath.Join(dir, ".github", "hooks", "hookwire.json")
	put(t, github, `{"version": 1, "hooks": {}}`, 0o644)
	if code, out = installed(t, home, dir, installArgs("project", "copilot-cli", "preToolUse", 1)...); code != exitOK || !strings.Contains(out, stateOf(home)) {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	if entries, _ := os.ReadDir(filepath.Dir(github)); len(entries) != 1 {
		t.Errorf("in .github/hooks: %v", entries)
	}
}

// A write that fails (ulimit -f) leaves no part of a backup, and the file
// as it was.
func TestInstallFailedWriteLeavesNoPart(t *testing.T) {
	bins, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(home, ".claude", "settings.json")
	original := `{"padding": "` + strings.Repeat("x", 16<<10) + `"}` + "\n"
	put(t, file, original, 0o644)
	os.MkdirAll(stateOf(home), 0o700)
	cmd := exec.Command("sh", "-c", `ulimit -f 4 && exec "$0" "$@"`, filepath.Join(bins, "hookwire"))
	cmd.Args = append(cmd.Args, installArgs("user", "claude-code", "PreToolUse", 1)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("install under ulimit -f 4 did not fail:\n%s", out)
	}
	if contents(file) != original {
		t.Fatal("the settings file changed")
	}
	if side, _ := filepath.Glob(file + "?*"); len(side) != 0 {
		t.Errorf("beside the settings file: %v", side)
	}
	entries, _ := os.ReadDir(stateOf(home))
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			t.Errorf("left in the state folder: %s (%d bytes)", e.Name(), len(contents(filepath.Join(stateOf(home), e.Name()))))
		}
	}
}

// Uninstall gives back a file that existed, byte for byte, where what is
// left would be nothing but what install adds; where the user edited the
// file since, it takes out the "version": 1 install added.
func TestUninstallGivesBackFilesThatExisted(t *testing.T) {
	cases := []struct{ agent, event, file string }{
		{"claude-code", "PreToolUse", "{}"},
		{"claude-code", "PreToolUse", ""},
		{"claude-code", "PreToolUse", `{"hooks":{}}`},
		{"cursor", "preToolUse", `{"version":1}`},
		{"copilot-cli", "preToolUse", "{\n  \"version\": 1\n}\n"},
		{"gemini-cli", "BeforeTool", "{\n  \"hooks\": {\n    // later\n  }\n}\n"},
		{"qwen-code", "PreToolUse", `{"hooks": {/* none yet */}}`},
		{"claude-code", "PreToolUse", "{\r\n  \"model\": \"opus\"\r\n}\r\n"},
	}
	for _, c := range cases {
		t.Run(c.agent+"/"+c.file, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), t.TempDir()
			file, _ := install.Agents[c.agent].Path(install.Project, home, dir)
			put(t, file, c.file, 0o644)
			if code, out := installed(t, home, dir, installArgs("project", c.agent, c.event, 1)...); code != exitOK {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
			if data := contents(file); strings.Contains(c.file, "\r\n") && strings.Count(data, "\n") != strings.Count(data, "\r\n") {
				t.Errorf("install wrote lines of LF alone into a CRLF file:\n%q", data)
			}
			code, out := installed(t, home, dir, "uninstall", "--scope", "project", c.agent)
			if code != exitOK {
				t.Fatalf("uninstall: exit %d\n%s", code, out)
			}
			if got, err := os.ReadFile(file); err != nil || string(got) != c.file {
				t.Fatalf("uninstall left %q (%v), want %q\n%s", got, err, c.file, out)
			}
		})
	}
	t.Run("cursor edited", func(t *testing.T) {
		t.Parallel()
		home, dir := t.TempDir(), t.TempDir()
		file := filepath.Join(dir, ".cursor", "hooks.json")
		put(t, file, "{\r\n  \"x\": 1\r\n}\r\n", 0o644)
		if code, out := installed(t, home, dir, installArgs("project", "cursor", "preToolUse", 1)...); code != exitOK {
			t.Fatalf("install: exit %d\n%s", code, out)
		}
		put(t, file, strings.Replace(contents(file), `"x": 1`, `"x": 2`, 1), 0o644)
		if code, out := installed(t, home, dir, "uninstall", "--scope", "project", "cursor"); code != exitOK {
			t.Fatalf("uninstall: exit %d\n%s", code, out)
		}
		if got := contents(file); got != "{\r\n  \"x\": 2\r\n}\r\n" {
			t.Fatalf("uninstall left %q", got)
		}
	})
}

// A read-only settings file is refused, with the file and the fix named,
// and not replaced.
func TestInstallRefusesReadOnlyFile(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(home, ".claude", "settings.json")
	put(t, file, "{}\n", 0o444)
	before, _ := os.Stat(file)
	code, out := installed(t, home, dir, installArgs("user", "claude-code", "PreToolUse", 1)...)
	if code == exitOK || !strings.Contains(out, file+" is read-only") || !strings.Contains(out, "chmod u+w "+file) {
		t.Fatalf("install into a read-only file: exit %d\n%s", code, out)
	}
	after, _ := os.Stat(file)
	if !os.SameFile(before, after) || after.Mode().Perm() != 0o444 || contents(file) != "{}\n" {
		t.Fatalf("the file was replaced (%v)", after.Mode())
	}
}

// A hook installed with --bridge of another name (the dist file's own) is
// found by doctor and uninstall, by what install recorded.
func TestInstallBridgeOfAnotherName(t *testing.T) {
	bins, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	hookCopy(t, dir)
	bridge := filepath.Join(dir, "dist", "hookwire-bridge-0.1.0-linux-amd64")
	data, _ := os.ReadFile(filepath.Join(bins, "hookwire-bridge"))
	put(t, bridge, string(data), 0o755)
	if code, out := installed(t, home, dir, "install", "--bridge", bridge, "claude-code", "--", "./guard"); code != exitOK {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	code, out := installed(t, home, dir, "doctor", "claude-code")
	if code != exitOK || !strings.Contains(out, "ready: 1 hook(s) would run") || !strings.Contains(out, "the bridge is "+bridge) {
		t.Fatalf("doctor: exit %d\n%s", code, out)
	}
	if code, out = installed(t, home, dir, "uninstall", "claude-code"); code != exitOK || !strings.Contains(out, "uninstalled from") {
		t.Fatalf("uninstall: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Fatalf("the hook's file is left: %v", err)
	}
}

// Uninstall without --scope looks in each of the agent's files: it
// uninstalls from the one that has hookwire's hooks, changes nothing where
// several have, and names the files it looked in where none has.
func TestUninstallWithoutScope(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".claude", "settings.json")
	project := filepath.Join(dir, ".claude", "settings.json")
	local := filepath.Join(dir, ".claude", "settings.local.json")

	if code, out := installed(t, home, dir, installArgs("project", "claude-code", "PreToolUse", 1)...); code != exitOK {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	code, out := installed(t, home, dir, "uninstall", "claude-code")
	if code != exitOK || !strings.Contains(out, "uninstalled from "+project+" (project scope)") {
		t.Fatalf("uninstall of a project's hook, no --scope: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(project); !os.IsNotExist(err) {
		t.Fatalf("the project's hook is left: %v\n%s", err, contents(project))
	}

	for _, scope := range []string{"user", "local"} {
		if code, out := installed(t, home, dir, installArgs(scope, "claude-code", "PreToolUse", 1)...); code != exitOK {
			t.Fatalf("install: exit %d\n%s", code, out)
		}
	}
	userBefore, localBefore := contents(user), contents(local)
	code, out = installed(t, home, dir, "uninstall", "claude-code")
	if code == exitOK || !strings.Contains(out, user) || !strings.Contains(out, local) || !strings.Contains(out, "--scope user") || !strings.Contains(out, "--scope local") {
		t.Fatalf("uninstall with hooks in two files, no --scope: exit %d\n%s", code, out)
	}
	if contents(user) != userBefore || contents(local) != localBefore {
		t.Fatal("uninstall changed a file while it should pick none")
	}
	for _, scope := range []string{"user", "local"} {
		if code, out := installed(t, home, dir, "uninstall", "--scope", scope, "claude-code"); code != exitOK {
			t.Fatalf("uninstall --scope %s: exit %d\n%s", scope, code, out)
		}
	}
	code, out = installed(t, home, dir, "uninstall", "claude-code")
	if code != exitOK || !strings.Contains(out, "nothing to change") || !strings.Contains(out, user) || !strings.Contains(out, project) || !strings.Contains(out, local) {
		t.Fatalf("uninstall with no hook anywhere: exit %d\n%s", code, out)
	}
}

// The state folder is $XDG_STATE_HOME/hookwire where that is set; one
// open to other users is refused with the fix.
func TestInstallStateFolder(t *testing.T) {
	bins, err := installBins()
	if err != nil {
		t.Fatal(err)
	}
	home, dir, xdg := t.TempDir(), t.TempDir(), t.TempDir()
	run := func(args ...string) (int, string) {
		cmd := exec.Command(filepath.Join(bins, "hookwire"), args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+xdg)
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	put(t, filepath.Join(home, ".claude", "settings.json"), "{}", 0o644)
	code, out := run(installArgs("user", "claude-code", "PreToolUse", 1)...)
	if code != exitOK || !strings.Contains(out, " as it was in "+filepath.Join(xdg, "hookwire")+string(filepath.Separator)) {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	os.Chmod(filepath.Join(xdg, "hookwire"), 0o755)
	code, out = run("uninstall", "claude-code")
	if code == exitOK || !strings.Contains(out, "chmod 700 "+filepath.Join(xdg, "hookwire")) {
		t.Fatalf("uninstall with a state folder open to others: exit %d\n%s", code, out)
	}
}

// install --help and uninstall --help say how the file is written and
// where hookwire keeps what it knows.
func TestInstallHelpSaysHowItWrites(t *testing.T) {
	code, out := installed(t, t.TempDir(), t.TempDir(), "install", "--help")
	for _, want := range []string{"$XDG_STATE_HOME/hookwire", "lock", "read-only", "out of the project"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("install --help does not say %q:\n%s", want, out)
		}
	}
	code, out = installed(t, t.TempDir(), t.TempDir(), "uninstall", "--help")
	for _, want := range []string{"Without --scope", "never", "removed"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("uninstall --help does not say %q:\n%s", want, out)
		}
	}
}

// Kimi CLI writes its config.toml again itself, without comments: the hooks
// install wrote are then outside any block of hookwire's, and uninstall,
// which takes none of them out, says they are left.
func TestUninstallSaysWhatItLeavesOfATOMLFileRewritten(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(home, ".kimi", "config.toml")
	put(t, file, "default_model = \"m\"\n", 0o644)
	if code, out := installed(t, home, dir, installArgs("user", "kimi-cli", "PreToolUse", 1)...); code != exitOK {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	var kept []string // the file as Kimi CLI writes it again: no comment line
	for _, line := range strings.Split(contents(file), "\n") {
		if !strings.HasPrefix(line, "#") {
			kept = append(kept, line)
		}
	}
	put(t, file, strings.Join(kept, "\n"), 0o644)
	code, out := installed(t, home, dir, "uninstall", "kimi-cli")
	if code != exitOK || !strings.Contains(out, "1 hook(s) of hookwire's are outside its block") || !strings.Contains(contents(file), "[[hooks]]") {
		t.Fatalf("uninstall: exit %d\n%s\n%s", code, out, contents(file))
	}
}
