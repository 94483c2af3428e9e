package session

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// detach starts cmd in a process group of its own with no console, so
// that it outlives the invocation that starts it and the agent's Ctrl-C
// does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}

// restrictSocket adds nothing on Windows, where a file's mode is only its
// read-only flag: a socket file takes its folder's access list, and
// connecting to it needs the right to write it, which the user's profile
// (the default folder) gives no other user.
func restrictSocket(string) error { return nil }
