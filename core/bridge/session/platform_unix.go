//go:build unix

package session

import (
	"os"
	"os/exec"
	"syscall"
)

// detach makes cmd a session of its own, so that it outlives the
// invocation that starts it and no signal of the agent's terminal reaches it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// restrictSocket lets only this user connect to the socket at path.
func restrictSocket(path string) error { return os.Chmod(path, 0o600) }
