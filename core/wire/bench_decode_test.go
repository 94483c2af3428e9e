package wire

import "github.com/hookwire/hookwire/core/protocol"

// decodeReply decodes a reply line as Conn.dispatch does.
func decodeReply(line []byte) (protocol.Response, error) {
	var msg protocol.Response
	err := protocol.Unmarshal(line, &msg)
	return msg, err
}
