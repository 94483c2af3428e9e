package wire

import (
	"os"
	"syscall"
)

// The platform layer: what starting and stopping a hook's processes needs
// of the system, one file set per platform (signal_unix.go and
// pgroup_*.go, or signal_windows.go, job_windows.go and
// pgroup_windows.go). Everything else here is shared. Declared here so that
// every platform's build checks that it has them all, with these
// signatures.
var (
	// groupAttr starts a command in a process group of its own (and, on
	// Linux, has the kernel kill it when its parent dies).
	_ func() *syscall.SysProcAttr = groupAttr
	// tieToParent, right after the start, ends the process with this one
	// where the start could not (a job object on Windows); release ends
	// it and what is left of its processes.
	_ func(*os.Process) (release func(), err error) = tieToParent
	// terminateGroup asks the group to stop; killGroup ends it.
	_ func(pid int) = terminateGroup
	_ func(pid int) = killGroup
	// groupAlive and groupMembers find what is left of a group.
	_ func(pgid int) bool  = groupAlive
	_ func(pgid int) []int = groupMembers
)
