//go:build !unix

package install

import (
	"io/fs"
	"os"
)

const nonBlock = 0

func owner(fs.FileInfo) (uid, gid int, known bool) { return 0, 0, false }

func euid() int { return -1 }

func writableByUs(info fs.FileInfo) bool { return info.Mode().Perm()&0o200 != 0 }

func keepOwner(*os.File, fs.FileInfo) error { return nil }

// syncDir: a folder is not opened to be synced here.
func syncDir(string) error { return nil }
