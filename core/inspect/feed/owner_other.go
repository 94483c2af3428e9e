//go:build !unix

package feed

import "io/fs"

// ownerOf knows no owner where files have no user id (Windows): there the
// folder is the user's own temporary folder, which others may not enter.
func ownerOf(fs.FileInfo) (int, bool) { return 0, false }
