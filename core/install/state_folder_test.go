// Tests of the state folder itself: its mode and owner, links and names
// planted in it, and the lock that orders concurrent installs.

package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The state folder is made 0700, and one that is a link, open to others
// or another user's is refused, with the folder and the fix named.
func TestStateFolderChecked(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_STATE_HOME", base)
	dir := filepath.Join(base, "hookwire")
	s, err := OpenState(false)
	if err != nil || s.Dir != dir {
		t.Fatalf("%+v %v", s, err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Fatalf("OpenState(false) made the folder: %v", err)
	}
	if _, err := OpenState(true); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(dir); !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("the state folder is %v", info.Mode())
	}

	elsewhere := t.TempDir()
	os.Remove(dir)
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenState(true); err == nil || !strings.Contains(err.Error(), dir+" is a symbolic link") || !strings.Contains(err.Error(), "remove the link") {
		t.Errorf("a linked state folder: %v", err)
	}
	os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	if _, err := OpenState(true); err == nil || !strings.Contains(err.Error(), "chmod 700 "+dir) {
		t.Errorf("a state folder open to others: %v", err)
	}
	os.Chmod(dir, 0o700)
	if os.Geteuid() == 0 {
		if err := os.Chown(dir, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenState(true); err == nil || !strings.Contains(err.Error(), "belongs to uid 12345") {
			t.Errorf("another user's state folder: %v", err)
		}
		os.Chown(dir, 0, 0)
	}
	// What install refuses, it refuses before touching the settings file.
	os.Chmod(dir, 0o755)
	tg := projectTarget(t, "claude-code")
	if _, err := OpenState(true); err == nil {
		t.Fatal("no error")
	}
	if _, err := os.Stat(tg.File); !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// A link planted in the state folder, at the names hookwire keeps a
// settings file's lock and record under, is not followed: install stops,
// naming it, and the file it points at is untouched.
func TestStateFolderPlantedLink(t *testing.T) {
	for _, suffix := range []string{".lock", ".record"} {
		t.Run(suffix, func(t *testing.T) {
			s := newState(t)
			victim := filepath.Join(t.TempDir(), "victim")
			putFile(t, victim, "precious\n", 0o600)
			tg := projectTarget(t, "claude-code")
			putFile(t, tg.File, "{}\n", 0o644)
			abs, _ := filepath.Abs(tg.File)
			link := filepath.Join(s.Dir, key(abs)+suffix)
			if err := os.Symlink(victim, link); err != nil {
				t.Fatal(err)
			}
			_, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false)
			if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
				t.Fatalf("install with %s planted: %v", link, err)
			}
			if got := readString(t, victim); got != "precious\n" {
				t.Fatalf("the link's target became %q", got)
			}
			if got := readString(t, tg.File); got != "{}\n" {
				t.Fatalf("the settings file became %q", got)
			}
		})
	}
}

// The links a repository plants at the side names install once used are
// neither followed nor touched, and nothing is written beside the file but
// the file.
func TestInstallIgnoresPlantedSideNames(t *testing.T) {
	s := newState(t)
	home := t.TempDir()
	victim := filepath.Join(home, ".bashrc")
	putFile(t, victim, "export PATH=$HOME/bin:$PATH\n", 0o644)
	tg := projectTarget(t, "claude-code")
	putFile(t, tg.File, "{}\n", 0o644)
	for _, side := range []string{".hookwire-backup", ".hookwire-tmp"} {
		if err := os.Symlink(victim, tg.File+side); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, victim); got != "export PATH=$HOME/bin:$PATH\n" {
		t.Fatalf("install wrote the user's .bashrc through a planted link:\n%s", got)
	}
	if info, _ := os.Lstat(tg.File); !info.Mode().IsRegular() || !strings.Contains(readString(t, tg.File), "guard.py") {
		t.Fatalf("the settings file is %v, holding\n%s", info.Mode(), readString(t, tg.File))
	}
	entries, _ := os.ReadDir(filepath.Dir(tg.File))
	if len(entries) != 3 {
		t.Errorf("beside the file: %v", entries)
	}
	if _, err := s.Uninstall(tg, "", false); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, victim); got != "export PATH=$HOME/bin:$PATH\n" || readString(t, tg.File) != "{}\n" {
		t.Fatalf("after uninstall: .bashrc %q, settings %q", got, readString(t, tg.File))
	}
}

// Twenty installs at once into one file, each of another hook, through the
// entry point the CLI uses: every hook is in the file, which parses, and
// uninstall takes out all twenty.
func TestConcurrentInstallsKeepEveryHook(t *testing.T) {
	s := newState(t)
	tg := projectTarget(t, "claude-code")
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = s.Install(tg, hookN("claude-code", i), []string{"PreToolUse", "SessionEnd"}, false)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("install %d: %v", i, err)
		}
	}
	data := readString(t, tg.File)
	if !json.Valid([]byte(data)) {
		t.Fatalf("the file does not parse:\n%s", data)
	}
	got := commands(Agents["claude-code"], standard(t, []byte(data)), "PreToolUse")
	for i := range n {
		if !slices.Contains(got, hookN("claude-code", i).Command) {
			t.Errorf("hook %d is not in the file", i)
		}
	}
	if len(got) != n {
		t.Errorf("%d entries, want %d", len(got), n)
	}
	ch, err := s.Uninstall(tg, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Restored || ch.After != nil {
		t.Fatalf("uninstall restored %v, left\n%s", ch.Restored, ch.After)
	}
	if _, err := os.Stat(tg.File); !os.IsNotExist(err) {
		t.Fatalf("the file install made is still there: %v", err)
	}
}

// A second hookwire waits for the lock, and says who holds it when that
// lasts.
func TestLockWaitsBounded(t *testing.T) {
	s := newState(t)
	tg := projectTarget(t, "claude-code")
	abs, _ := filepath.Abs(tg.File)
	unlock, err := s.lock(abs)
	if err != nil {
		t.Fatal(err)
	}
	defer func(w time.Duration) { lockWait = w }(lockWait)
	lockWait = 200 * time.Millisecond
	_, err = s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false)
	if err == nil || !strings.Contains(err.Error(), "another hookwire has been changing "+abs) {
		t.Fatalf("install while another holds the lock: %v", err)
	}
	unlock()
	if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err != nil {
		t.Fatal(err)
	}
}
