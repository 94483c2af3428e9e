//go:build !unix

package install

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// Where there is no O_NOFOLLOW, a name is checked not to be a link (Lstat)
// before it is opened, and a new file is made with O_EXCL, which never
// follows a link either.
const (
	noFollow = 0
	nonBlock = 0
)

func isLinkErr(error) bool { return false }

func owner(fs.FileInfo) (uid, gid int, known bool) { return 0, 0, false }

func euid() int { return -1 }

func writableByUs(info fs.FileInfo) bool { return info.Mode().Perm()&0o200 != 0 }

func keepOwner(*os.File, fs.FileInfo) error { return nil }

// syncDir: a folder is not opened to be synced here.
func syncDir(string) error { return nil }

// lockFile: without flock, the lock is a second file made with O_EXCL
// beside the lock file and removed when released; one left by a hookwire
// that died is named in the error, to be removed by hand.
func lockFile(_ *os.File, path string, wait time.Duration) (release func(), ok bool, err error) {
	held := path + ".held"
	deadline := time.Now().Add(wait)
	for {
		f, err := os.OpenFile(held, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(held) }, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
		if time.Now().After(deadline) {
			return nil, false, nil
		}
		time.Sleep(lockPoll)
	}
}
