//go:build !unix

package skillhooks

import (
	"io/fs"
	"os"
	"path/filepath"
)

// openNoFollow opens base/names...: where there is no O_NOFOLLOW, each step
// is checked not to be a link before the file is opened.
func openNoFollow(base string, names []string) (*os.File, error) {
	if err := noLink(base, names...); err != nil {
		return nil, err
	}
	return os.Open(filepath.Join(append([]string{base}, names...)...))
}

// links is the number of hard links of an opened file, where the system
// tells it; 1 elsewhere.
func links(fs.FileInfo) uint64 { return 1 }
