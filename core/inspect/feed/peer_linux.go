package feed

import (
	"fmt"
	"net"
	"syscall"
)

// peerIsUser says why the process listening at the other end of conn is
// not this user's, from the credentials the kernel recorded when it
// listened (SO_PEERCRED).
func peerIsUser(conn net.Conn) error {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("cannot read who listens (SO_PEERCRED): %w", credErr)
	}
	return sameUser(int(cred.Uid))
}
