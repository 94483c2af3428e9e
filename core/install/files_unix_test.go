//go:build unix

package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A FIFO where the settings file should be is refused, and
// install does not wait on it.
func TestNotARegularFile(t *testing.T) {
	s := newState(t)
	tg := projectTarget(t, "claude-code")
	os.MkdirAll(filepath.Dir(tg.File), 0o755)
	if err := unix.Mkfifo(tg.File, 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := s.Install(tg, testHook("claude-code"), []string{"PreToolUse"}, false); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("install into a FIFO: %v", err)
	}
}
