//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package hookwire

import (
	"errors"
	"os"
	"syscall"
)

// protectStdio gives the protocol stdin and stdout to itself: it moves
// them to new descriptors, points descriptor 1 at stderr and descriptor 0
// at /dev/null, so that whatever else in the process, or a child it
// starts, writes to stdout or reads stdin, it cannot touch the protocol.
// restore puts them back.
func protectStdio() (in, out *os.File, restore func(), err error) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, nil, nil, err
	}
	defer null.Close()
	inFD, err := dupCloseOnExec(0)
	if err != nil {
		return nil, nil, nil, err
	}
	outFD, err := dupCloseOnExec(1)
	if err != nil {
		syscall.Close(inFD)
		return nil, nil, nil, err
	}
	if err := errors.Join(dup2(2, 1), dup2(int(null.Fd()), 0)); err != nil {
		dup2(outFD, 1)
		dup2(inFD, 0)
		syscall.Close(inFD)
		syscall.Close(outFD)
		return nil, nil, nil, err
	}
	in, out = os.NewFile(uintptr(inFD), "/dev/stdin (hookwire protocol)"), os.NewFile(uintptr(outFD), "/dev/stdout (hookwire protocol)")
	return in, out, func() {
		dup2(outFD, 1)
		dup2(inFD, 0)
		in.Close()
		out.Close()
	}, nil
}

// dupCloseOnExec duplicates fd, marked close-on-exec, so that no child
// process inherits the protocol's descriptors. ForkLock keeps a child
// started meanwhile from inheriting it before it is marked.
func dupCloseOnExec(fd int) (int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	nfd, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(nfd)
	}
	return nfd, err
}
