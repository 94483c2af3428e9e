//go:build unix

package skillhooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/skillhooks"
)

const oneHook = `{"hooks": [{"name": "x", "file": "x.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`

// A writer swaps hooks/x.md between a file of its own and a link to a
// secret while the loader reads it: the secret is never read.
func TestARacingSwapOfFileAndLinkNeverYieldsTheLinkedFile(t *testing.T) {
	dir := skillsDir(t, map[string]string{"s/hooks/hooks.json": oneHook, "s/hooks/plain.md": "harmless\n"})
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("TOP SECRET\n"), 0o600)
	md := filepath.Join(dir, "s", "hooks", "x.md")
	link, plain := md+".link", md+".plain"
	os.Symlink(secret, link)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			os.WriteFile(plain, []byte("harmless\n"), 0o644)
			os.Rename(plain, md)
			os.Symlink(secret, link)
			os.Rename(link, md)
		}
	}()
	deadline := time.Now().Add(30 * time.Second)
	loaded, refused := 0, 0
	for i := 0; i < 20000 && time.Now().Before(deadline); i++ {
		hooks, err := skillhooks.Load(dir, []string{"s"})
		switch {
		case err == nil && strings.Contains(hooks[0].Content, "SECRET"):
			stop.Store(true)
			t.Fatalf("load %d read the secret through the link", i)
		case err == nil:
			loaded++
		default:
			refused++
		}
	}
	stop.Store(true)
	<-done
	if loaded == 0 || refused == 0 {
		t.Errorf("the race was not run: %d loads, %d refusals", loaded, refused)
	}
	t.Logf("%d loads read the file, %d were refused as links, none read the secret", loaded, refused)
}

func TestAFIFOAHugeFileAndAHardLinkAreRefusedAtOnce(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("TOP SECRET\n"), 0o600)
	for _, tc := range []struct {
		about, want string
		make        func(path string) error
	}{
		{"FIFO", "is not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"1 GiB", "over the 1048576", func(p string) error { return os.Truncate(p, 1<<30) }},
		{"hard link", "hard links", func(p string) error { return os.Link(secret, p) }},
	} {
		t.Run(tc.about, func(t *testing.T) {
			dir := skillsDir(t, map[string]string{"s/hooks/hooks.json": oneHook})
			md := filepath.Join(dir, "s", "hooks", "x.md")
			if tc.about == "1 GiB" {
				os.WriteFile(md, nil, 0o644)
			}
			if err := tc.make(md); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := skillhooks.Load(dir, []string{"s"}); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "hooks/x.md") {
					t.Errorf("got %v, want an error naming hooks/x.md and %q", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the loader hangs")
			}
		})
	}
}
