package runtime

// groupAlive is false on Windows, which cannot list a process group
// cheaply: Kill ends the hook's whole process tree instead.
func groupAlive(pgid int) bool { return false }

// groupMembers lists nothing on Windows (see groupAlive).
func groupMembers(pgid int) []int { return nil }
