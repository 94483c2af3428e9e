//go:build unix

package skillhooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// openNoFollow opens base/names[0]/.../names[n-1] one step at a time, each
// relative to the folder opened before it and with O_NOFOLLOW, so that a
// link swapped in at any step is refused rather than followed; the file is
// opened with O_NONBLOCK, so that a FIFO or a device cannot hold the reader.
func openNoFollow(base string, names []string) (*os.File, error) {
	fd, err := unix.Open(base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: base, Err: err}
	}
	for i, name := range names {
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i < len(names)-1 {
			flags |= unix.O_DIRECTORY
		} else {
			flags |= unix.O_NONBLOCK
		}
		next, err := unix.Openat(fd, name, flags, 0)
		unix.Close(fd)
		at := filepath.ToSlash(filepath.Join(names[:i+1]...))
		switch {
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR) && isLink(base, names[:i+1]):
			return nil, fmt.Errorf("%s is %w", at, errLink)
		case err != nil:
			return nil, &fs.PathError{Op: "open", Path: at, Err: err}
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), filepath.Join(append([]string{base}, names...)...)), nil
}

// isLink says whether a name that could not be opened as a folder is a
// link, for the error message alone.
func isLink(base string, names []string) bool {
	info, err := os.Lstat(filepath.Join(append([]string{base}, names...)...))
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// links is the number of hard links of an opened file.
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
