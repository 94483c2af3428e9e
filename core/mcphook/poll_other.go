//go:build !unix

package mcphook

import "io"

// Polled is r as it is: Windows' console and pipe handles are read as
// os reads them.
func Polled(r io.Reader) (polled io.Reader, done func()) {
	return r, func() {}
}
