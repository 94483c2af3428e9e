package feed

import (
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/windows"
)

// modeBitsGuard is false: Windows keeps others out with access lists, and
// Go shows every folder as 0777. The default folder is in the user's own
// temporary folder, whose access list lets no other user in.
const modeBitsGuard = false

// ownerOf knows no user id on Windows: ownedByUser reads the owner's SID.
func ownerOf(fs.FileInfo) (int, bool) { return 0, false }

// ownedByUser says why dir's owner is not this user, by their SIDs.
func ownedByUser(dir string) error {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("%s: reading its owner: %w", dir, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("%s: reading its owner: %w", dir, err)
	}
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("who this user is: %w", err)
	}
	if owner == nil || !owner.Equals(user.User.Sid) {
		return errors.New(dir + " belongs to another user: remove it, or set HOOKWIRE_INSPECT_SOCKET to a folder of yours")
	}
	return nil
}
