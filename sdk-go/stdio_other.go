//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package hookwire

import "os"

// protectStdout redirects os.Stdout only: without dup2, what a child
// process or a C library writes to the real stdout cannot be caught.
func protectStdout() (wire *os.File, restore func(), err error) {
	wire = os.Stdout
	os.Stdout = os.Stderr
	return wire, func() { os.Stdout = wire }, nil
}
