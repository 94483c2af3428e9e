//go:build unix

package bridge

import (
	"os/exec"
	"syscall"
)

// detach makes cmd a session of its own, so that it outlives the
// invocation that starts it and no signal of the agent's terminal reaches it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
