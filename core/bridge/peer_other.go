//go:build !linux

package bridge

import "net"

// samePeer relies on the socket's folder, which only this user may enter,
// where the system has no SO_PEERCRED.
func samePeer(net.Conn) error { return nil }
