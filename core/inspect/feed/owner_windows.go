package feed

import (
	"errors"
	"fmt"
	"io/fs"
	"unsafe"

	"golang.org/x/sys/windows"
)

// modeBitsGuard is false: Windows keeps others out with access lists, and
// Go shows every folder as 0777. The default folder is in the user's
// profile (%LOCALAPPDATA%, see dirOf), whose access list lets no other
// user in.
const modeBitsGuard = false

// ownerOf knows no user id on Windows: ownedByUser reads the owner's SID.
func ownerOf(fs.FileInfo) (int, bool) { return 0, false }

// ownedByUser says why dir's owner is not this user, by their SIDs. What
// an elevated administrator makes belongs to the Administrators group,
// the token's default owner, rather than to the user: that owner is this
// user's too.
func ownedByUser(dir string) error {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("%s: reading its owner: %w", dir, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("%s: reading its owner: %w", dir, err)
	}
	token := windows.GetCurrentProcessToken()
	user, err := token.GetTokenUser()
	if err != nil {
		return fmt.Errorf("who this user is: %w", err)
	}
	if owner != nil && owner.Equals(user.User.Sid) {
		return nil
	}
	if byDefault, err := defaultOwner(token); err == nil && owner != nil && owner.Equals(byDefault) {
		return nil
	}
	return errors.New(dir + " belongs to another user: remove it, or set HOOKWIRE_INSPECT_SOCKET to a folder of yours")
}

// defaultOwner is the owner the token gives what this process makes
// (TokenOwner), which x/sys/windows has no method for.
func defaultOwner(token windows.Token) (*windows.SID, error) {
	var n uint32
	windows.GetTokenInformation(token, windows.TokenOwner, nil, 0, &n) // its size, in n
	if n < uint32(unsafe.Sizeof(uintptr(0))) {
		return nil, errors.New("no token owner")
	}
	buf := make([]byte, n)
	if err := windows.GetTokenInformation(token, windows.TokenOwner, &buf[0], n, &n); err != nil {
		return nil, err
	}
	// TOKEN_OWNER: one pointer to a SID that lies in buf.
	return (*struct{ Owner *windows.SID })(unsafe.Pointer(&buf[0])).Owner, nil
}
