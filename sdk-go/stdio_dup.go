//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package hookwire

import (
	"os"
	"syscall"
)

// protectStdout points file descriptor 1 at stderr and returns the original
// stdout for the protocol, and a function that puts it back.
func protectStdout() (wire *os.File, restore func(), err error) {
	// Hold ForkLock so that no child started meanwhile inherits the
	// protocol's descriptor before it is marked close-on-exec.
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(1)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	if err := dup2(2, 1); err != nil {
		syscall.Close(fd)
		return nil, nil, err
	}
	wire = os.NewFile(uintptr(fd), "/dev/stdout (hookwire protocol)")
	return wire, func() {
		_ = dup2(fd, 1)
		wire.Close()
	}, nil
}
