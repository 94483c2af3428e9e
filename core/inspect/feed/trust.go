package feed

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
)

// A session's lines carry what the host and its hooks see: a tool's
// arguments, a bearer token. Before it sends a byte, a producer makes sure
// that the inspector it dialed is this user's: the socket's folder is a
// folder (not a link) of this user's that no one else may enter, the
// socket is this user's, and the process that listens on it runs as this
// user (PeerIsUser). Another user who made the folder first, or planted a
// socket or a listener, gets nothing.

// CheckDir says why dir may not hold the inspector's socket: it must be a
// folder, not a symbolic link, that belongs to this user and that no other
// user may enter or write (mode 0700). The inspector refuses to listen in
// such a folder, and producers refuse to send to one.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if err := dirProblem(dir, fi, os.Getuid()); err != nil {
		return err
	}
	return ownedByUser(dir)
}

// dirProblem is CheckDir on what Lstat says of dir, for the user uid.
func dirProblem(dir string, fi fs.FileInfo, uid int) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, not a folder: remove it, and hookwire inspect makes the folder itself (mode 0700)", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder: remove it, and hookwire inspect makes the folder itself (mode 0700)", dir)
	}
	if owner, ok := ownerOf(fi); ok && owner != uid {
		return fmt.Errorf("%s belongs to user %d, not to this user (%d): another user may have made it to read your sessions; remove it, or set XDG_RUNTIME_DIR or HOOKWIRE_INSPECT_SOCKET to a folder of yours", dir, owner, uid)
	}
	if perm := fi.Mode().Perm(); modeBitsGuard && perm&0o077 != 0 {
		return fmt.Errorf("%s may be entered by other users (mode %#o): it must be 0700 (chmod 700 %s)", dir, perm, dir)
	}
	return nil
}

// errNoInspector is a socket, or its folder, that is not there: no
// inspector runs, which is no reason to warn.
var errNoInspector = errors.New("no inspector")

// checkSocket says why the socket at path may not be dialed: its folder
// fails CheckDir, or the socket belongs to another user. It is
// errNoInspector when the folder or the socket is not there.
func checkSocket(path string) error {
	dir := filepath.Dir(path)
	if err := CheckDir(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errNoInspector
		}
		return err
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return errNoInspector
	}
	if err != nil {
		return err
	}
	if owner, ok := ownerOf(fi); ok && owner != os.Getuid() {
		return fmt.Errorf("%s belongs to user %d, not to this user (%d): another user may listen there to read your sessions; remove it", path, owner, os.Getuid())
	}
	return nil
}

// sameUser says why a peer of user uid is not this user.
func sameUser(uid int) error {
	if uid != os.Getuid() {
		return fmt.Errorf("the process that listens runs as user %d, not as this user (%d)", uid, os.Getuid())
	}
	return nil
}

// PeerIsUser says why the process at the other end of conn (the inspector
// a producer dialed, or a client of the bridge's server) is not this
// user's, from the credentials the kernel recorded when it connected or
// listened.
func PeerIsUser(conn net.Conn) error {
	if peerCredentials == "" {
		return nil
	}
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var uid int
	var uidErr error
	if err := raw.Control(func(fd uintptr) { uid, uidErr = peerUID(int(fd)) }); err != nil {
		return err
	}
	if uidErr != nil {
		return fmt.Errorf("cannot read who is at the other end (%s): %w", peerCredentials, uidErr)
	}
	return sameUser(uid)
}
