package feed

import "golang.org/x/sys/unix"

// peerCredentials names what the kernel recorded of a Unix socket's peer.
const peerCredentials = "LOCAL_PEERCRED"

// peerUID is the user of the process at the other end of the socket fd.
func peerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
