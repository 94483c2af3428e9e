//go:build unix && !linux

package wire

import (
	"syscall"
	"time"
)

// groupAlive reports whether a process group still has a member.
func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

// groupMembers cannot list a group without /proc; it returns the group id
// while the group has a member.
func groupMembers(pgid int) []int {
	if groupAlive(pgid) {
		return []int{pgid}
	}
	return nil
}

// becomeSubreaper does nothing: only Linux has child subreapers.
func becomeSubreaper() {}

// stopDescendants does nothing: without a subreaper, what left the hook's
// process group cannot be found.
func stopDescendants(pid int, token string, grace time.Duration) {}

// dieWithParent does nothing where the kernel has no parent-death signal:
// the process group is stopped when the runtime stops it.
func dieWithParent(*syscall.SysProcAttr) {}
