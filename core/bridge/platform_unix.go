//go:build unix

package bridge

import (
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
