package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestALinkAtTheNameIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f, err := Open(link, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		f.Write([]byte("planted\n"))
		f.Close()
	}
	if !errors.Is(err, ErrLink) {
		t.Errorf("Open through a link: err = %v, want ErrLink", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "mine\n" {
		t.Errorf("the file the link points at was written: %q", b)
	}
}

func TestAPlainFileOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	f, err := Open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
