// Package wire is the bottom layer of a hookwire host: the hook protocol's
// lines and the hook process. It starts a hook (directly, no shell, in a
// process group of its own), completes its hook.hello handshake, carries
// JSON-RPC calls and notifications over its stdin and stdout (Conn: line
// reading with a size limit, ids matched to replies, deadlines), and stops
// it with every process it started. It knows no stage, chain or host:
// the runtime's chain engine, the conformance suite, the wiretap, the bridge
// and the MCP server all build on it.
package wire
