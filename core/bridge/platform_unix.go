//go:build unix

package bridge

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// tryLock takes f's exclusive lock, or fails at once when another process
// holds it.
func tryLock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) }

// unlock gives f's lock back.
func unlock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// detach makes cmd a session of its own, so that it outlives the
// invocation that starts it and no signal of the agent's terminal reaches it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// checkPrivate says why the folder dir (info, from Lstat) is not this
// user's alone: another owner, or a mode that lets others in.
func checkPrivate(dir string, info fs.FileInfo) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d)", dir, st.Uid)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s may be entered by other users (mode %v): it must be 0700", dir, info.Mode().Perm())
	}
	return nil
}
