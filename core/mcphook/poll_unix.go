//go:build unix

package mcphook

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Polled is r read through the Go runtime's poller, where r is a pipe or
// a socket in blocking mode, as the stdin an agent gives its MCP server
// is: os.Stdin reads such a file with a blocking read(2), which holds a
// thread, and the scheduler's P with it, for as long as the agent is
// quiet, so that every message then wakes a second thread; polled, the
// reading goroutine parks until the message comes, and the whole answer
// runs on one thread. done closes the copy Polled reads and puts the file
// back in blocking mode (its mode is shared with every copy of it).
// Anything else (a terminal, a file, an io.Reader, a file that is
// non-blocking already, and so polled by os itself) is returned as it is.
func Polled(r io.Reader) (polled io.Reader, done func()) {
	nothing := func() {}
	f, ok := r.(*os.File)
	if !ok {
		return r, nothing
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return r, nothing
	}
	dup := -1
	raw.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil {
			return
		}
		if kind := st.Mode & unix.S_IFMT; kind != unix.S_IFIFO && kind != unix.S_IFSOCK {
			return
		}
		if flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0); err != nil || flags&unix.O_NONBLOCK != 0 {
			return
		}
		// A copy of our own, closed on exec so that the hook does not
		// inherit it, which os can poll without taking f from its owner.
		if dup, err = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0); err != nil {
			dup = -1
			return
		}
		if err := unix.SetNonblock(dup, true); err != nil {
			unix.Close(dup)
			dup = -1
		}
	})
	if dup < 0 {
		return r, nothing
	}
	// os.NewFile polls a descriptor that is in non-blocking mode.
	copied := os.NewFile(uintptr(dup), f.Name())
	return copied, func() {
		copied.Close()
		raw.Control(func(fd uintptr) { unix.SetNonblock(int(fd), false) })
	}
}
