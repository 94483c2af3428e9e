//go:build unix

package wire

import (
	"os"
	"syscall"
)

// groupAttr puts a command in a process group of its own, led by the command.
func groupAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(attr)
	return attr
}

// terminateGroup asks every process of the group led by pid to stop (SIGTERM).
func terminateGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGTERM) }

// killGroup stops every process of the group led by pid at once (SIGKILL).
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// SignalGroup sends sig to every process of the group led by pid.
func SignalGroup(pid int, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(-pid, s)
	}
}

// tieToParent adds nothing on Unix: groupAttr asked the kernel to kill the
// hook with its parent where it can (Linux); elsewhere the hook reads the
// end of its stdin when its parent dies.
func tieToParent(*os.Process) (release func(), err error) { return func() {}, nil }
