//go:build !unix

package inspect

// noFollow is nothing where the system has no O_NOFOLLOW; O_EXCL still
// refuses a name that is there.
const noFollow = 0
