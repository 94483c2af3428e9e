package bridge

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// tryLock takes f's exclusive lock (LockFileEx on its first byte), or
// fails at once when another process holds it.
func tryLock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
}

// unlock gives f's lock back.
func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}

// detach starts cmd in a process group of its own with no console, so
// that it outlives the invocation that starts it and the agent's Ctrl-C
// does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}
