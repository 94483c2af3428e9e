//go:build windows

package wire

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// groupAttr starts a command in a new process group.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminateGroup asks the process tree of pid to stop. Windows has no SIGTERM:
// taskkill without /F asks, which only processes with a window heed; Kill
// follows when they do not.
func terminateGroup(pid int) { _ = exec.Command("taskkill", "/T", "/PID", strconv.Itoa(pid)).Run() }

// killGroup ends the process tree of pid at once.
func killGroup(pid int) { _ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run() }

// SignalGroup passes an interrupt on as Terminate, and anything else as Kill:
// Windows cannot send a process tree a signal.
func SignalGroup(pid int, sig os.Signal) {
	if sig == os.Interrupt {
		terminateGroup(pid)
	} else {
		killGroup(pid)
	}
}
