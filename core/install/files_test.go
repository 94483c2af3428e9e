package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// newState is a state folder of the test's own.
func newState(t *testing.T) *State {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s, err := OpenState(true)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// putFile writes data at path, making its folder.
func putFile(t *testing.T, path, data string, mode os.FileMode) {
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

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// projectTarget is the agent's project file in a new project folder.
func projectTarget(t *testing.T, agent string) Target {
	t.Helper()
	a := Agents[agent]
	dir := t.TempDir()
	file, err := a.Path(Project, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	return Target{Agent: a, Scope: Project, File: file, Project: dir}
}

// userTarget is the agent's user file under home.
func userTarget(t *testing.T, agent, home string) Target {
	t.Helper()
	a := Agents[agent]
	file, err := a.Path(User, home, "")
	if err != nil {
		t.Fatal(err)
	}
	return Target{Agent: a, Scope: User, File: file}
}

// hookN is the n-th of several hooks of agent.
func hookN(agent string, n int) Hook {
	h := testHook(agent)
	h.Command = Command("/opt/hook wire/hookwire-bridge", agent, []string{"/srv/venv/bin/python", fmt.Sprintf("/srv/guard%d.py", n)})
	return h
}

// A settings file that is a link (a dotfiles repository's) stays one in the
// user's scope: its target is written, and uninstall gives it back.
func TestInstallUserLinkWritesThrough(t *testing.T) {
	s := newState(t)
	home := t.TempDir()
	tg := userTarget(t, "claude-code", home)
	dotfile := filepath.Join(home, "dotfiles", "claude.json")
	original := `{"model": "opus"}` + "\n"
	putFile(t, dotfile, original, 0o600)
	os.MkdirAll(filepath.Dir(tg.File), 0o755)
	if err := os.Symlink("../dotfiles/claude.json", tg.File); err != nil {
		t.Fatal(err)
	}
	ch, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dotfile) // macOS: /var is /private/var
	if link, err := os.Readlink(tg.File); err != nil || link != "../dotfiles/claude.json" || ch.Target != real || !ch.Linked {
		t.Fatalf("the link became %q (%v); written %s (linked %v)", link, err, ch.Target, ch.Linked)
	}
	if !strings.Contains(readString(t, dotfile), "guard.py") {
		t.Fatalf("the dotfile holds\n%s", readString(t, dotfile))
	}
	if info, _ := os.Stat(dotfile); info.Mode().Perm() != 0o600 {
		t.Errorf("the dotfile's mode became %v", info.Mode().Perm())
	}
	if _, err := s.Uninstall(tg, "", false); err != nil {
		t.Fatal(err)
	}
	if link, err := os.Readlink(tg.File); err != nil || link != "../dotfiles/claude.json" || readString(t, dotfile) != original {
		t.Fatalf("after uninstall: link %q (%v), dotfile\n%s", link, err, readString(t, dotfile))
	}

	// A link to a file not made yet: install makes it, where it points.
	tg = userTarget(t, "gemini-cli", home)
	os.MkdirAll(filepath.Dir(tg.File), 0o755)
	os.Symlink(filepath.Join(home, "dotfiles", "gemini", "settings.json"), tg.File)
	if _, err := s.Install(tg, testHook("gemini-cli"), []string{"BeforeTool"}, false); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(tg.File); err != nil || info.Mode()&os.ModeSymlink == 0 || !strings.Contains(readString(t, tg.File), "guard.py") {
		t.Fatalf("a link to a new file: %v %v", info, err)
	}
}

// In a project's scope, a link that leads out of the project (the file's,
// or a folder's on its way) is refused, and its target untouched; one that
// stays in the project is written through.
func TestInstallProjectLinkOutRefused(t *testing.T) {
	s := newState(t)
	home := t.TempDir()
	victim := filepath.Join(home, ".claude", "settings.json")
	putFile(t, victim, "{}\n", 0o600)

	tg := projectTarget(t, "claude-code")
	os.MkdirAll(filepath.Dir(tg.File), 0o755)
	if err := os.Symlink(victim, tg.File); err != nil {
		t.Fatal(err)
	}
	_, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false)
	if real, _ := filepath.EvalSymlinks(victim); err == nil || !strings.Contains(err.Error(), "out of the project's folder") || !strings.Contains(err.Error(), real) {
		t.Fatalf("a project's link to the user's settings: %v", err)
	}
	if _, err := s.Uninstall(tg, "", false); err == nil {
		t.Fatal("uninstall wrote through it")
	}

	tg = projectTarget(t, "claude-code")
	if err := os.Symlink(filepath.Join(home, ".claude"), filepath.Dir(tg.File)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err == nil || !strings.Contains(err.Error(), "out of the project's folder") {
		t.Fatalf("a project's .claude linked to the user's: %v", err)
	}
	if got := readString(t, victim); got != "{}\n" {
		t.Fatalf("the user's settings became\n%s", got)
	}

	tg = projectTarget(t, "claude-code")
	shared := filepath.Join(tg.Project, "config", "claude.json")
	putFile(t, shared, "{}\n", 0o644)
	os.MkdirAll(filepath.Dir(tg.File), 0o755)
	os.Symlink("../config/claude.json", tg.File)
	if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err != nil {
		t.Fatalf("a link within the project: %v", err)
	}
	if info, _ := os.Lstat(tg.File); info.Mode()&os.ModeSymlink == 0 || !strings.Contains(readString(t, shared), "guard.py") {
		t.Fatalf("a link within the project is %v", info.Mode())
	}
}

// The file as it was before the first install is kept once, in the state
// folder, with its mode: a second install keeps that copy.
func TestBackupKeptOnce(t *testing.T) {
	s := newState(t)
	home := t.TempDir()
	tg := userTarget(t, "claude-code", home)
	original := `{"env": {"API_KEY": "secret"}}` + "\n"
	putFile(t, tg.File, original, 0o600)
	first, err := s.Install(tg, hookN("claude-code", 1), []string{"PreToolUse"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !first.NewBackup || filepath.Dir(first.Backup) != s.Dir {
		t.Fatalf("backup %q (new %v), want one in %s", first.Backup, first.NewBackup, s.Dir)
	}
	second, err := s.Install(tg, hookN("claude-code", 2), []string{"PreToolUse"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if second.NewBackup || second.Backup != first.Backup {
		t.Fatalf("the second install's backup: %q (new %v), the first's %q", second.Backup, second.NewBackup, first.Backup)
	}
	info, err := os.Stat(first.Backup)
	if err != nil || info.Mode().Perm() != 0o600 || readString(t, first.Backup) != original {
		t.Fatalf("the backup: %v %v\n%s", info.Mode(), err, readString(t, first.Backup))
	}
	backups, _ := filepath.Glob(filepath.Join(s.Dir, "*.backup"))
	if len(backups) != 1 {
		t.Errorf("backups: %v", backups)
	}
	if side, _ := filepath.Glob(tg.File + "*"); len(side) != 1 {
		t.Errorf("beside the settings file: %v", side)
	}
	// Each file's own mode.
	other := userTarget(t, "gemini-cli", home)
	putFile(t, other.File, "{}\n", 0o640)
	ch, err := s.Install(other, testHook("gemini-cli"), []string{"BeforeTool"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(ch.Backup); info.Mode().Perm() != 0o640 {
		t.Errorf("the backup of a 0640 file is %v", info.Mode().Perm())
	}
	// Uninstall of both gives the original back, and the copy goes.
	if ch, err := s.Uninstall(tg, "", false); err != nil || !ch.Restored || readString(t, tg.File) != original {
		t.Fatalf("uninstall: restored %v, %v\n%s", ch.Restored, err, readString(t, tg.File))
	}
	if _, err := os.Stat(first.Backup); !os.IsNotExist(err) {
		t.Errorf("the backup of a file given back is still there: %v", err)
	}
}

// Uninstall gives back a file that existed before install, byte for byte,
// where what is left is nothing but what install would add.
func TestUninstallKeepsFilesThatExisted(t *testing.T) {
	for _, c := range []struct{ agent, event, file string }{
		{"claude-code", "PreToolUse", "{}"},
		{"claude-code", "PreToolUse", ""},
		{"claude-code", "PreToolUse", "{}\n"},
		{"claude-code", "PreToolUse", `{"hooks":{}}`},
		{"codex-cli", "PreToolUse", `{"hooks": {}}` + "\n"},
		{"cursor", "preToolUse", `{"version":1}`},
		{"cursor", "preToolUse", "{\n  \"version\": 1\n}\n"},
		{"copilot-cli", "preToolUse", `{"version": 1}`},
		{"copilot-cli", "preToolUse", `{"version": 1, "hooks": {}}`},
		{"gemini-cli", "BeforeTool", "{\n  \"hooks\": {\n    // mine, later\n  }\n}\n"},
		{"qwen-code", "PreToolUse", "{\"hooks\": { /* none yet */ }}"},
	} {
		t.Run(c.agent+"/"+c.file, func(t *testing.T) {
			s := newState(t)
			tg := projectTarget(t, c.agent)
			putFile(t, tg.File, c.file, 0o644)
			if _, err := s.Install(tg, testHook(c.agent), []string{c.event}, false); err != nil {
				t.Fatal(err)
			}
			ch, err := s.Uninstall(tg, "", false)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(tg.File)
			if err != nil || string(got) != c.file {
				t.Fatalf("uninstall (restored %v) left %q (%v), want %q", ch.Restored, got, err, c.file)
			}
		})
	}
}

// Where the file has changed since install, uninstall takes out the
// entries and what install added (Flat's "version": 1, the hooks section)
// and keeps the rest, and never removes a file that existed; a file
// install made and that is left with nothing goes.
func TestUninstallAfterTheUserEdits(t *testing.T) {
	s := newState(t)
	edit := func(t *testing.T, file, old, new string) {
		data := readString(t, file)
		if !strings.Contains(data, old) {
			t.Fatalf("no %q in\n%s", old, data)
		}
		putFile(t, file, strings.Replace(data, old, new, 1), 0o644)
	}
	t.Run("cursor", func(t *testing.T) {
		tg := projectTarget(t, "cursor")
		putFile(t, tg.File, `{"x": 1}`+"\n", 0o644)
		if _, err := s.Install(tg, testHook("cursor"), []string{"preToolUse"}, false); err != nil {
			t.Fatal(err)
		}
		edit(t, tg.File, `"x": 1`, `"x": 1, "y": 2`)
		if _, err := s.Uninstall(tg, "", false); err != nil {
			t.Fatal(err)
		}
		got := standard(t, []byte(readString(t, tg.File)))
		if len(got) != 2 || got["x"] != 1.0 || got["y"] != 2.0 {
			t.Fatalf("uninstall left %v, want x and y alone", got)
		}
	})
	t.Run("existed", func(t *testing.T) {
		tg := projectTarget(t, "claude-code")
		putFile(t, tg.File, "{}", 0o644)
		if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err != nil {
			t.Fatal(err)
		}
		edit(t, tg.File, "{", "{ ")
		if _, err := s.Uninstall(tg, "", false); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(tg.File); err != nil || !bytes.HasPrefix(got, []byte("{")) {
			t.Fatalf("uninstall left %q (%v)", got, err)
		}
	})
	t.Run("made", func(t *testing.T) {
		tg := projectTarget(t, "copilot-cli")
		if _, err := s.Install(tg, testHook("copilot-cli"), []string{"preToolUse"}, false); err != nil {
			t.Fatal(err)
		}
		edit(t, tg.File, "\n}", "\n}\n")
		if _, err := s.Uninstall(tg, "", false); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(tg.File); !os.IsNotExist(err) {
			t.Fatalf("the file install made is left: %v\n%s", err, readString(t, tg.File))
		}
	})
	t.Run("user's hooks", func(t *testing.T) {
		tg := projectTarget(t, "claude-code")
		original := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`
		putFile(t, tg.File, original, 0o644)
		if _, err := s.Install(tg, hookN("claude-code", 1), []string{"PreToolUse", "Stop"}, false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Install(tg, hookN("claude-code", 2), []string{"PreToolUse"}, false); err != nil {
			t.Fatal(err)
		}
		// One hook of two: the other stays, and the file is not given back.
		if ch, err := s.Uninstall(tg, hookN("claude-code", 2).Command, false); err != nil || ch.Restored {
			t.Fatalf("restored %v, %v", ch.Restored, err)
		}
		if got := commands(Agents["claude-code"], standard(t, []byte(readString(t, tg.File))), "PreToolUse"); !slices.Equal(got, []string{hookN("claude-code", 1).Command}) {
			t.Fatalf("PreToolUse holds %v", got)
		}
		if _, err := s.Uninstall(tg, "", false); err != nil || readString(t, tg.File) != original {
			t.Fatalf("%v: uninstall left\n%s", err, readString(t, tg.File))
		}
	})
}

// Without its record (lost, damaged), uninstall takes the entries out
// and keeps the file, whatever is left.
func TestUninstallWithoutRecordKeepsTheFile(t *testing.T) {
	for _, damage := range []string{"", "{not json", `{"format": 1, "file": "/elsewhere", "commands": [], "written_sha256": "absent"}`} {
		t.Run(damage, func(t *testing.T) {
			s := newState(t)
			for _, existed := range []bool{true, false} {
				tg := projectTarget(t, "claude-code")
				if existed {
					putFile(t, tg.File, "{}", 0o644)
				}
				if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err != nil {
					t.Fatal(err)
				}
				abs, _ := filepath.Abs(tg.File)
				rec := filepath.Join(s.Dir, key(abs)+".record")
				if damage == "" {
					os.Remove(rec)
				} else {
					putFile(t, rec, damage, 0o600)
				}
				ch, err := s.Uninstall(tg, "", false)
				if err != nil {
					t.Fatal(err)
				}
				if damage != "" && (len(ch.Notes) == 0 || !strings.Contains(ch.Notes[0], "is damaged")) {
					t.Errorf("no note of the damaged record: %q", ch.Notes)
				}
				want := "{}" // as it was
				if !existed {
					want = "{}\n" // what is left, kept: without a record, no file is removed
				}
				got, err := os.ReadFile(tg.File)
				if err != nil || string(got) != want {
					t.Fatalf("existed %v: uninstall left %q (%v)", existed, got, err)
				}
			}
		})
	}
}

// A CRLF file keeps CR LF on every line, through install and uninstall.
func TestCRLFStays(t *testing.T) {
	s := newState(t)
	original := "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  }\r\n}\r\n"
	for _, edited := range []bool{false, true} {
		tg := projectTarget(t, "claude-code")
		putFile(t, tg.File, original, 0o644)
		if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse", "Stop"}, false); err != nil {
			t.Fatal(err)
		}
		data := readString(t, tg.File)
		if strings.Count(data, "\n") != strings.Count(data, "\r\n") || !strings.Contains(data, "guard.py") {
			t.Fatalf("install wrote lines of LF alone:\n%q", data)
		}
		if edited {
			putFile(t, tg.File, strings.Replace(data, `"opus"`, `"sonnet"`, 1), 0o644)
		}
		if _, err := s.Uninstall(tg, "", false); err != nil {
			t.Fatal(err)
		}
		want := original
		if edited {
			want = strings.Replace(original, `"opus"`, `"sonnet"`, 1)
		}
		if got := readString(t, tg.File); got != want {
			t.Fatalf("edited %v: uninstall left\n%q\nwant\n%q", edited, got, want)
		}
	}
}

// A read-only settings file is refused, not replaced through rename.
func TestReadOnlyFileRefused(t *testing.T) {
	s := newState(t)
	tg := projectTarget(t, "claude-code")
	putFile(t, tg.File, "{}\n", 0o444)
	before, _ := os.Stat(tg.File)
	_, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false)
	if err == nil || !strings.Contains(err.Error(), tg.File+" is read-only") || !strings.Contains(err.Error(), "chmod u+w "+tg.File) {
		t.Fatalf("install into a read-only file: %v", err)
	}
	after, _ := os.Stat(tg.File)
	if !os.SameFile(before, after) || after.Mode().Perm() != 0o444 || readString(t, tg.File) != "{}\n" {
		t.Fatalf("the file was replaced: %v", after.Mode())
	}
	if _, err := s.Uninstall(tg, "", false); err != nil {
		t.Fatalf("an uninstall that changes nothing: %v", err)
	}
}

// A hook installed with a bridge of another name is found by uninstall,
// and by doctor, by what install recorded.
func TestRecordedBridgeOfAnyName(t *testing.T) {
	s := newState(t)
	tg := projectTarget(t, "claude-code")
	h := testHook("claude-code")
	h.Command = Command("/opt/dist/hookwire-bridge-0.1.0-linux-amd64", "claude-code", []string{"/srv/guard"})
	if _, err := s.Install(tg, h, []string{"PreToolUse"}, false); err != nil {
		t.Fatal(err)
	}
	doc, err := decode([]byte(readString(t, tg.File)), false)
	if err != nil {
		t.Fatal(err)
	}
	found := Agents["claude-code"].installed(doc, Project, tg.File, nil)
	if len(found) != 1 || found[0].Command != h.Command {
		t.Fatalf("doctor finds %+v", found)
	}
	b, ok := ParseCommand(h.Command, nil)
	if !ok || b.Agent != "claude-code" || !slices.Equal(b.Hook, []string{"/srv/guard"}) {
		t.Fatalf("the recorded line reads as %+v %v", b, ok)
	}
	ch, err := s.Uninstall(tg, "", false)
	if err != nil || !slices.Equal(ch.Events, []string{"PreToolUse"}) {
		t.Fatalf("uninstall cleared %v: %v", ch.Events, err)
	}
	if _, err := os.Stat(tg.File); !os.IsNotExist(err) {
		t.Fatalf("the hook's file is left: %v", err)
	}
}

// A dry run writes nothing, not even the state folder.
func TestDryRunWritesNothing(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_STATE_HOME", base)
	s, err := OpenState(false)
	if err != nil {
		t.Fatal(err)
	}
	tg := projectTarget(t, "claude-code")
	putFile(t, tg.File, "{}", 0o644)
	ch, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, true)
	if err != nil || !ch.Changed() {
		t.Fatalf("%v %v", ch, err)
	}
	if readString(t, tg.File) != "{}" {
		t.Fatal("a dry run wrote the file")
	}
	if entries, _ := os.ReadDir(base); len(entries) != 0 {
		t.Fatalf("a dry run made %v", entries)
	}
}
