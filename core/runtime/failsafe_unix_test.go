//go:build unix

package runtime

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// A hook's grandchild that starts a session of its own (setsid), and whose
// parent exits, is out of the hook's process group and would be given to
// init: the runtime, its subreaper, stops it with the hook.
func TestAGrandchildThatCallsSetsidDoesNotOutliveItsHook(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	h := startRuntime(t, map[string]ProcessConfig{"daemon": proc(0, []string{"before_tool"}, "-daemon", pidFile)})
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("the grandchild %d is not running", pid)
	}
	defer syscall.Kill(pid, syscall.SIGKILL) // should the runtime fail to
	h.Close()
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Errorf("the grandchild %d outlived its hook (kill 0: %v)", pid, err)
	}
}
