//go:build unix

package nofollow

import (
	"errors"

	"golang.org/x/sys/unix"
)

const flagNoFollow = unix.O_NOFOLLOW

// isLinkErr says whether an open with O_NOFOLLOW failed on a link.
func isLinkErr(err error) bool { return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) }
