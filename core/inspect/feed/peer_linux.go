package feed

import "golang.org/x/sys/unix"

// peerCredentials names what the kernel recorded of a Unix socket's peer.
const peerCredentials = "SO_PEERCRED"

// peerUID is the user of the process at the other end of the socket fd.
func peerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
