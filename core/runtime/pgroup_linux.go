package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// groupAlive reports whether a process group has a member that is still
// running. Zombies do not count: they have stopped, and reaping them is
// their parent's business, not ours.
func groupAlive(pgid int) bool {
	return len(groupMembers(pgid)) > 0
}

// groupMembers lists the running processes of a process group, read from
// /proc. Tests use it to prove that a hook left nothing behind.
func groupMembers(pgid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var pids []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // the process has gone meanwhile
		}
		// The command name, in parentheses, may hold spaces: fields start after its last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fields := bytes.Fields(b[i+1:]) // state, ppid, pgrp, ...
		if len(fields) < 3 || fields[0][0] == 'Z' || fields[0][0] == 'X' {
			continue
		}
		if g, err := strconv.Atoi(string(fields[2])); err == nil && g == pgid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			pids = append(pids, pid)
		}
	}
	return pids
}
