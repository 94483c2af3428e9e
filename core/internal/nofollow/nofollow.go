// Package nofollow opens files without following a symbolic link at their
// last name: a link planted beside a user's file (a backup, a log) must
// not turn a write into a write of the file it points at.
package nofollow

import (
	"errors"
	"io/fs"
	"os"
)

// ErrLink is a symbolic link where hookwire follows none.
var ErrLink = errors.New("a symbolic link")

// Open opens path with flag, never through a link at its last name:
// O_NOFOLLOW where the system has it, else a check before the open (a new
// file is made with O_EXCL, which follows no link either). An open that
// meets a link fails with a *fs.PathError wrapping ErrLink.
func Open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	if flagNoFollow == 0 {
		if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLink}
		}
	}
	f, err := os.OpenFile(path, flag|flagNoFollow, perm)
	if err != nil && isLinkErr(err) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLink}
	}
	return f, err
}
