//go:build !unix

package audit

import (
	"fmt"
	"io/fs"
	"os"
)

// checkDir says why dir may not hold the log. On Windows the folder's
// access list, inherited from the user's profile, keeps other users out.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, not a folder: remove it, and hookwire makes the folder", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}
