//go:build windows

package pgroup

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Attr starts a command in a new process group.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// Terminate asks the process tree of pid to stop. Windows has no SIGTERM:
// taskkill without /F asks, which only processes with a window heed; Kill
// follows when they do not.
func Terminate(pid int) { _ = exec.Command("taskkill", "/T", "/PID", strconv.Itoa(pid)).Run() }

// Kill ends the process tree of pid at once.
func Kill(pid int) { _ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run() }

// Signal passes an interrupt on as Terminate, and anything else as Kill:
// Windows cannot send a process tree a signal.
func Signal(pid int, sig os.Signal) {
	if sig == os.Interrupt {
		Terminate(pid)
	} else {
		Kill(pid)
	}
}
