package bridge

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// samePeer refuses a connection from a process of another user: the
// socket's folder already keeps them out, this keeps them out should its
// mode ever be loosened.
func samePeer(conn net.Conn) error {
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
		return credErr
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the peer is user %d, not %d", cred.Uid, os.Getuid())
	}
	return nil
}
