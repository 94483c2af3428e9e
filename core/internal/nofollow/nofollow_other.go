//go:build !unix

package nofollow

// Where there is no O_NOFOLLOW, Open checks the name with Lstat first.
const flagNoFollow = 0

func isLinkErr(error) bool { return false }
