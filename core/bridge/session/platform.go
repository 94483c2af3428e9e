package session

import "os/exec"

// The platform layer: what a session needs of the system, in
// platform_unix.go and platform_windows.go. The rest is shared, and so are
// the checks it borrows: feed.CheckDir of the sockets' folder and
// feed.PeerIsUser of a server's clients (core/inspect/feed), and the tie
// of a hook to its server, which core/wire makes when it starts the hook
// (Pdeathsig on Linux, a job object on Windows). Declared here so that
// every platform's build checks that it has them all.
var (
	// detach starts the session's server so that it outlives the
	// invocation that starts it.
	_ func(*exec.Cmd) = detach
	// restrictSocket lets only this user connect to a server's socket.
	_ func(path string) error = restrictSocket
)
