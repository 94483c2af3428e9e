//go:build unix

package feed

import (
	"io/fs"
	"syscall"
)

// ownerOf is the user a file belongs to.
func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
