package install

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/internal/nofollow"
)

// lockWait is how long install and uninstall wait for another hookwire
// changing the same settings file; lockPoll how often they look.
var lockWait = 10 * time.Second

const lockPoll = 20 * time.Millisecond

// errLink is a symbolic link where hookwire follows none.
var errLink = nofollow.ErrLink

// openNoFollow opens path with flag, never through a link at its last name.
var openNoFollow = nofollow.Open

// createExcl makes a new file in dir, named prefix, a random part and
// suffix, with O_CREATE|O_EXCL|O_NOFOLLOW: nothing planted at a name it
// picks is opened, let alone followed.
func createExcl(dir, prefix, suffix string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		var r [8]byte
		rand.Read(r[:])
		f, err := openNoFollow(filepath.Join(dir, prefix+hex.EncodeToString(r[:])+suffix), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) || errors.Is(err, errLink) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: no free name for a new file", dir)
}

// writeNew writes data into a new file of dir (createExcl), with mode perm
// when was is nil and else the mode of was (and its owner, where
// takeOwner), syncs it and renames it to name, then syncs dir: a reader of
// name sees the old bytes or the new, never a part, and a failure leaves
// name as it was.
func writeNew(dir, name, prefix string, data []byte, perm fs.FileMode, was fs.FileInfo, takeOwner bool) (err error) {
	create := perm
	if was != nil {
		create = 0o600 // until it has the mode of was
	}
	f, err := createExcl(dir, prefix, ".hookwire-tmp", create)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if was != nil {
		if err = f.Chmod(was.Mode().Perm()); err != nil {
			return err
		}
		if takeOwner {
			if err = keepOwner(f, was); err != nil {
				return err
			}
		}
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// replaceFile puts data in place of the file target (a new file, of mode
// perm or else 0644, when was is nil), through writeNew in target's folder.
func replaceFile(target string, data []byte, was fs.FileInfo, perm fs.FileMode) error {
	dir, base := filepath.Split(target)
	if was == nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if perm == 0 {
		perm = 0o644
	}
	return writeNew(filepath.Clean(dir), base, "."+base+".", data, perm, was, true)
}

// removeFile removes target and syncs its folder.
func removeFile(target string) error {
	if err := os.Remove(target); err != nil {
		return err
	}
	return syncDir(filepath.Dir(target))
}

// readTarget reads a settings file that resolve has found: nil when it
// does not exist. It is opened without following a link (one put there
// since is refused) and without waiting on a FIFO, and must be a regular
// file of a settings file's size.
func readTarget(path string) ([]byte, fs.FileInfo, error) {
	f, err := openNoFollow(path, os.O_RDONLY|nonBlock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file (%v): hookwire writes into a settings file only", path, info.Mode().Type())
	}
	if info.Size() > MaxFileSize {
		return nil, nil, fmt.Errorf("%s: %d bytes, more than a settings file has", path, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > MaxFileSize {
		return nil, nil, fmt.Errorf("%s: more than %d bytes, more than a settings file has", path, MaxFileSize)
	}
	return data, info, nil
}

// resolve is the file that path names, every link followed, in its
// folders and at its end, also a link whose target does not exist yet (the
// file install would make). path is absolute.
func resolve(path string) (string, error) {
	for range 40 {
		dir, err := resolveDir(filepath.Dir(path))
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, filepath.Base(path))
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && info.Mode()&fs.ModeSymlink == 0) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(dir, link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// resolveDir is dir with its links followed: those of the part that
// exists, the rest as it is (no link is there yet).
func resolveDir(dir string) (string, error) {
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		parent := filepath.Dir(dir)
		if !errors.Is(err, fs.ErrNotExist) || parent == dir {
			return "", err
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
		dir = parent
	}
}

// within says whether path is folder or lies under it; both are clean.
func within(path, folder string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// crlf says whether every line of data ends with CR LF.
func crlf(data []byte) bool {
	n := strings.Count(string(data), "\n")
	return n > 0 && strings.Count(string(data), "\r\n") == n
}

// toCRLF ends with CR LF each line of data that ends with LF alone.
func toCRLF(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/16)
	for i, c := range data {
		if c == '\n' && (i == 0 || data[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}
