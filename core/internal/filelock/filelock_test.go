package filelock

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The lock is a process's: a second process waits for it, and takes it
// once the first gives it back.
func TestASecondProcessWaitsForTheLock(t *testing.T) {
	if os.Getenv("FILELOCK_CHILD") != "" {
		f, err := os.OpenFile(os.Getenv("FILELOCK_CHILD"), os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		taken, err := Wait(f, 50*time.Millisecond, 5*time.Millisecond)
		os.Stdout.WriteString(map[bool]string{true: "taken\n", false: "busy\n"}[taken])
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	path := filepath.Join(t.TempDir(), "lock")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	child := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestASecondProcessWaitsForTheLock$")
		cmd.Env = append(os.Environ(), "FILELOCK_CHILD="+path)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if taken, err := TryLock(f); !taken || err != nil {
		t.Fatalf("TryLock of a free file: %v, %v", taken, err)
	}
	if out := child(); !strings.HasPrefix(out, "busy\n") {
		t.Errorf("a second process, while the lock is held: %q, want busy", out)
	}
	if err := Unlock(f); err != nil {
		t.Fatal(err)
	}
	if out := child(); !strings.HasPrefix(out, "taken\n") {
		t.Errorf("a second process, once the lock is given back: %q, want taken", out)
	}
}
