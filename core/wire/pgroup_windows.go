package wire

import "time"

// groupAlive is false on Windows, which cannot list a process group
// cheaply: Kill ends the hook's whole process tree instead.
func groupAlive(pgid int) bool { return false }

// groupMembers lists nothing on Windows (see groupAlive).
func groupMembers(pgid int) []int { return nil }

// becomeSubreaper does nothing: only Linux has child subreapers.
func becomeSubreaper() {}

// stopDescendants does nothing: taskkill's process tree (killGroup) is
// what Windows has.
func stopDescendants(pid int, token string, grace time.Duration) {}
