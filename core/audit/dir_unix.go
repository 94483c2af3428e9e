//go:build unix

package audit

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkDir says why dir may not hold the log: it must be a folder, not a
// link, of this user's, that no other user may write, so that no one else
// can plant, replace or remove a file of the log.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if err := dirKind(dir, fi); err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s belongs to user %d, not to this user (%d): set %s to a file in a folder of yours", dir, st.Uid, os.Geteuid(), EnvPath)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("%s may be written by other users (mode %#o): chmod go-w %s", dir, perm, dir)
	}
	return nil
}

func dirKind(dir string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, not a folder: remove it, and hookwire makes the folder (mode 0700)", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}
