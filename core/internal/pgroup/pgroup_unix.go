//go:build unix

package pgroup

import (
	"os"
	"syscall"
)

// Attr puts a command in a process group of its own, led by the command.
func Attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// Terminate asks every process of the group led by pid to stop (SIGTERM).
func Terminate(pid int) { _ = syscall.Kill(-pid, syscall.SIGTERM) }

// Kill stops every process of the group led by pid at once (SIGKILL).
func Kill(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// Signal sends sig to every process of the group led by pid.
func Signal(pid int, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(-pid, s)
	}
}
