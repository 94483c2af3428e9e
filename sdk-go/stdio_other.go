//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package hookwire

import "os"

// protectStdio redirects os.Stdout only: without dup2, what a child process
// or a C library writes to the real stdout cannot be caught.
func protectStdio() (in, out *os.File, restore func(), err error) {
	out = os.Stdout
	os.Stdout = os.Stderr
	return os.Stdin, out, func() { os.Stdout = out }, nil
}
