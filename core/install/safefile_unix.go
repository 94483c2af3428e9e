//go:build unix

package install

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// nonBlock is an open flag: a FIFO or a device does not hold the opener.
const nonBlock = unix.O_NONBLOCK

// owner is the uid and gid of a file.
func owner(info fs.FileInfo) (uid, gid int, known bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// euid is the user hookwire runs as.
func euid() int { return os.Geteuid() }

// writableByUs says whether the mode of the file lets this user write it:
// its owner (or root) by the owner's bit, a member of its group by the
// group's, anyone else by the others'. Root is held to the owner's bit
// too: a file made read-only is so on purpose.
func writableByUs(info fs.FileInfo) bool {
	perm := info.Mode().Perm()
	uid, gid, known := owner(info)
	me := os.Geteuid()
	switch {
	case !known || uid == me || me == 0:
		return perm&0o200 != 0
	case gid == os.Getegid():
		return perm&0o020 != 0
	}
	if groups, err := os.Getgroups(); err == nil {
		for _, g := range groups {
			if g == gid {
				return perm&0o020 != 0
			}
		}
	}
	return perm&0o002 != 0
}

// keepOwner gives f the owner of the file it replaces, where root writes a
// file of another user (sudo hookwire install): the user keeps their file.
func keepOwner(f *os.File, was fs.FileInfo) error {
	uid, gid, known := owner(was)
	if !known || os.Geteuid() != 0 || (uid == 0 && gid == 0) {
		return nil
	}
	return f.Chown(uid, gid)
}

// syncDir makes a rename or a removal in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOTSUP) {
		return err
	}
	return nil
}
