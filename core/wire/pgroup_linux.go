package wire

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// procStat is what /proc/PID/stat says of a process that matters here.
type procStat struct {
	pid, ppid, pgrp int
	running         bool // not a zombie
}

// processes lists every process of the system, read from /proc.
func processes() []procStat {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []procStat
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
		if len(fields) < 3 {
			continue
		}
		s := procStat{running: fields[0][0] != 'Z' && fields[0][0] != 'X'}
		s.pid, _ = strconv.Atoi(filepath.Base(filepath.Dir(f)))
		s.ppid, _ = strconv.Atoi(string(fields[1]))
		s.pgrp, _ = strconv.Atoi(string(fields[2]))
		out = append(out, s)
	}
	return out
}

// groupAlive reports whether a process group has a member that is still
// running. Zombies do not count: they have stopped, and reaping them is
// their parent's business, not ours.
func groupAlive(pgid int) bool {
	return len(groupMembers(pgid)) > 0
}

// groupMembers lists the running processes of a process group, read from
// /proc. Tests use it to prove that a hook left nothing behind.
func groupMembers(pgid int) []int {
	var pids []int
	for _, p := range processes() {
		if p.running && p.pgrp == pgid {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

var subreaper sync.Once

// becomeSubreaper makes this process the child subreaper of everything it
// starts: a descendant of a hook whose parent exits is given to us, not to
// init, even when it left the hook's process group and session (setsid),
// so that stopping the hook still finds it.
func becomeSubreaper() {
	subreaper.Do(func() {
		const prSetChildSubreaper = 36
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}

// descendants lists the processes a hook left: those below pid, and those
// given to this process (its subreaper) whose environment carries the
// hook's token, with everything below them. A descendant that has both
// emptied its environment and lost its parent cannot be told from this
// program's own children, and is not listed.
func descendants(pid int, token string) []procStat {
	all := processes()
	self := os.Getpid()
	below := map[int]bool{pid: true}
	for _, p := range all {
		if p.ppid == self && p.pid != pid && carries(p.pid, token) {
			below[p.pid] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for _, p := range all {
			if !below[p.pid] && below[p.ppid] {
				below[p.pid], grew = true, true
			}
		}
	}
	var out []procStat
	for _, p := range all {
		if below[p.pid] && p.pid != pid {
			out = append(out, p)
		}
	}
	return out
}

// carries reports whether a process's environment holds the hook's token.
func carries(pid int, token string) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00"+tokenVar+"="+token+"\x00"))
}

// stopDescendants stops what a hook left anywhere below it, whatever its
// group or session: SIGTERM, then SIGKILL after grace; then it reaps those
// given to this process.
func stopDescendants(pid int, token string, grace time.Duration) {
	deadline := time.Now().Add(grace)
	sig := syscall.SIGTERM
	var seen []int
	for {
		running := 0
		for _, p := range descendants(pid, token) {
			if !slices.Contains(seen, p.pid) {
				seen = append(seen, p.pid)
			}
			if p.running {
				running++
				syscall.Kill(p.pid, sig)
			}
		}
		if running == 0 || time.Now().After(deadline.Add(5*time.Second)) {
			break
		}
		if time.Now().After(deadline) {
			sig = syscall.SIGKILL
		}
		time.Sleep(10 * time.Millisecond)
	}
	reap(seen)
}

// reap waits for the stopped processes that were given to this process,
// only those: the program's own children are its business. A process is
// given to us a moment after its parent dies, hence the few tries.
func reap(pids []int) {
	for try := 0; try < 50 && len(pids) > 0; try++ {
		pids = slices.DeleteFunc(pids, func(pid int) bool {
			var ws syscall.WaitStatus
			n, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			if n == pid {
				return true
			}
			_, gone := os.Stat("/proc/" + strconv.Itoa(pid))
			return err != nil && gone != nil
		})
		if len(pids) > 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// dieWithParent has the kernel kill a hook when the process that started it
// dies, SIGKILL included, which leaves no one to close its stdin or stop it:
// a hook that ignores EOF would otherwise run on, adopted by init.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
