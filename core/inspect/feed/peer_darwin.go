package feed

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// PeerIsUser says why the process at the other end of conn (the inspector
// a producer dialed, or a client of the bridge's server) is
// not this user's, from the credentials the kernel recorded
// (LOCAL_PEERCRED).
func PeerIsUser(conn net.Conn) error {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Xucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("cannot read who listens (LOCAL_PEERCRED): %w", credErr)
	}
	return sameUser(int(cred.Uid))
}
