package mcphook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/hookwire/core/internal/jsonscan"
)

// MaxLineSize is the longest MCP message read from the client, on the whole
// path: the line filter and the MCP SDK's frame limit.
const MaxLineSize = 64 << 20

// DrainTimeout bounds the wait, once the client's input ends, for the
// replies to the requests read before: each is answered, or it is given up
// after this long.
const DrainTimeout = time.Minute

// JSON-RPC's error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// Stdio is MCP's stdio transport with a JSON-RPC check in front of the MCP
// SDK: a line that is not JSON is answered with a parse error, one that is
// JSON but not a JSON-RPC message with an invalid request error (for its
// id, when it has one that can be echoed), a line over MaxLineSize with an
// error for its id when its start shows one, and none of them ends the
// session. When the input ends, the reader returns EOF only once every
// request it passed on has been answered (or DrainTimeout has passed), so
// that no reply is lost. With AnswerTool, it answers the calls of one tool
// itself.
type Stdio struct {
	in   *bufio.Reader
	out  io.Writer
	drop func(line []byte, why string)

	mu      sync.Mutex // guards out, pending and partial
	pending map[string]bool
	partial []byte // what the SDK has written of its current line
	drained chan struct{}
	// wait bounds the wait for the replies once the input ends.
	wait time.Duration

	next []byte // the rest of the line being passed on
	err  error

	tool string // the tool whose calls s answers itself, with call
	call func(arguments json.RawMessage) *mcp.CallToolResult
}

// NewStdio reads the client's messages from r and writes the server's to
// w; drop is told of each line refused.
func NewStdio(r io.Reader, w io.Writer, drop func(line []byte, why string)) *Stdio {
	return &Stdio{in: bufio.NewReaderSize(r, 64<<10), out: w, drop: drop, pending: map[string]bool{}, wait: DrainTimeout}
}

// Transport is the MCP transport over s.
func (s *Stdio) Transport() mcp.Transport {
	return &mcp.IOTransport{Reader: stdioReader{s}, Writer: stdioWriter{s}, MaxLineLength: MaxLineSize + 1}
}

// AnswerTool makes s answer each tools/call of the tool named name itself,
// with call's result, in a goroutine of its own (calls may overlap), and
// not pass it to the SDK, which still serves the rest (initialize,
// tools/list, a call of another tool, a call whose params it cannot read),
// and must list the tool. This is the path of a warm hook's every event
// (core/bridge/mcptool): the SDK's own is three goroutines, five decodes
// into fresh 32 KiB buffers and a check of the arguments against the
// tool's schema, which made a call 0.2 to 0.3 ms slower (BENCHMARKS.md,
// section 8). Call it before the transport is used.
func (s *Stdio) AnswerTool(name string, call func(arguments json.RawMessage) *mcp.CallToolResult) {
	s.tool, s.call = name, call
}

type stdioReader struct{ s *Stdio }

func (r stdioReader) Read(p []byte) (int, error) { return r.s.read(p) }
func (r stdioReader) Close() error               { return nil }

type stdioWriter struct{ s *Stdio }

func (w stdioWriter) Write(p []byte) (int, error) { return w.s.write(p) }
func (w stdioWriter) Close() error                { return nil }

func (s *Stdio) read(p []byte) (int, error) {
	for len(s.next) == 0 {
		if s.err != nil {
			if errors.Is(s.err, io.EOF) {
				s.drain()
			}
			return 0, s.err
		}
		line, long, err := s.readLine()
		s.err = err
		trimmed := bytes.TrimSpace(line)
		switch {
		case long:
			s.refuse(line[:min(len(line), 64)], "the line is longer than the limit", idOf(line), codeInvalidRequest,
				fmt.Sprintf("the message is over %d bytes", MaxLineSize))
		case len(trimmed) == 0:
		case !json.Valid(trimmed):
			s.refuse(line, "the line is not JSON", nil, codeParseError, "parse error: the line is not JSON")
		default:
			msg, why := checkEnvelope(trimmed)
			if why != "" {
				s.refuse(line, why, msg.id, codeInvalidRequest, "invalid request: "+why)
				continue
			}
			if msg.id != nil {
				s.mu.Lock()
				s.pending[string(msg.id)] = true
				s.mu.Unlock()
				if s.answers(msg) {
					continue
				}
			}
			s.next = append(trimmed, '\n')
		}
	}
	n := copy(p, s.next)
	s.next = s.next[n:]
	return n, nil
}

// answers takes a call of the tool s answers itself (AnswerTool), and
// answers it.
func (s *Stdio) answers(msg envelope) bool {
	if s.call == nil || msg.method != "tools/call" {
		return false
	}
	var params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(msg.params, &params) != nil || params.Name != s.tool {
		return false
	}
	go func() {
		reply, _ := json.Marshal(struct {
			JSONRPC string              `json:"jsonrpc"`
			ID      json.RawMessage     `json:"id"`
			Result  *mcp.CallToolResult `json:"result"`
		}{"2.0", msg.id, s.call(params.Arguments)})
		s.mu.Lock()
		defer s.mu.Unlock()
		s.out.Write(append(reply, '\n'))
		s.answered(msg.id) // once written: the end of input waits for it
	}()
	return true
}

// readLine reads up to the next newline. It keeps the line in chunks of
// its own, so that it never holds much more than MaxLineSize (no doubling
// of a growing buffer), and of a longer line only the first chunk: enough
// to show its start and read its id.
func (s *Stdio) readLine() (line []byte, long bool, err error) {
	const chunk = 1 << 20
	var chunks [][]byte
	size := 0
	for {
		frag, err := s.in.ReadSlice('\n')
		size += len(frag)
		if size > MaxLineSize+1 && !long {
			long, chunks = true, chunks[:min(len(chunks), 1)]
		}
		for !long && len(frag) > 0 {
			if len(chunks) == 0 || len(chunks[len(chunks)-1]) == chunk {
				// The line's last fragment gets a chunk of its size: a
				// short message costs no MiB to allocate and clear.
				size := chunk
				if !errors.Is(err, bufio.ErrBufferFull) {
					size = min(chunk, len(frag))
				}
				chunks = append(chunks, make([]byte, 0, size))
			}
			last := &chunks[len(chunks)-1]
			n := min(len(frag), chunk-len(*last))
			*last, frag = append(*last, frag[:n]...), frag[n:]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			return chunks[0], true, err
		}
		line = bytes.TrimSuffix(bytes.Join(chunks, nil), []byte("\n"))
		return line, len(line) > MaxLineSize, err
	}
}

// refuse answers a line the SDK is not given: with an error for id, or
// for the null id when the line has none that can be echoed.
func (s *Stdio) refuse(line []byte, why string, id json.RawMessage, code int, message string) {
	s.drop(line, why)
	if id == nil {
		id = json.RawMessage("null")
	}
	reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(append(reply, '\n'))
}

// write passes the SDK's messages on, and notes each reply's id answered
// once it is written: the end of input waits for that.
func (s *Stdio) write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.out.Write(p)
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if json.Unmarshal(s.partial[:i], &msg) == nil && msg.Method == nil && msg.ID != nil {
			s.answered(msg.ID)
		}
		s.partial = s.partial[i+1:]
	}
	return n, err
}

// answered notes the request id has its reply; s.mu is held.
func (s *Stdio) answered(id json.RawMessage) {
	delete(s.pending, string(id))
	if len(s.pending) == 0 && s.drained != nil {
		close(s.drained)
		s.drained = nil
	}
}

// drain waits until every request passed on has its reply, within
// s.wait.
func (s *Stdio) drain() {
	s.mu.Lock()
	if len(s.pending) == 0 {
		s.mu.Unlock()
		return
	}
	done := make(chan struct{})
	s.drained = done
	s.mu.Unlock()
	select {
	case <-done:
	case <-time.After(s.wait):
	}
}

// integer is a JSON number an id may be: MCP's ids are strings or integers.
var integer = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// envelope is what a JSON-RPC message's line is read for: its id, as the
// SDK will write it back (nil when it has none that can be echoed), its
// method and its params.
type envelope struct {
	id     json.RawMessage
	method string
	params json.RawMessage
}

// checkEnvelope says what makes a JSON line not a JSON-RPC 2.0 message the
// SDK may be given, and reads its envelope.
func checkEnvelope(line []byte) (msg envelope, why string) {
	if line[0] != '{' {
		return msg, "not a JSON object"
	}
	// Member names are matched exactly, as JSON-RPC names them; a struct
	// would take "jsonrpC" for "jsonrpc".
	var members map[string]json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		return msg, "not a JSON-RPC message: " + err.Error()
	}
	var version string
	versionOK := json.Unmarshal(members["jsonrpc"], &version) == nil && version == "2.0"
	rawID, method := members["id"], members["method"]
	msg.id, msg.params = usableID(rawID), members["params"]
	switch {
	case !versionOK:
		return msg, `"jsonrpc" is not "2.0"`
	case rawID != nil && msg.id == nil:
		return msg, "the id is not a string or an integer"
	case method == nil && (members["result"] != nil || members["error"] != nil) && msg.id != nil:
		return envelope{}, "" // a reply to a request of the server's
	case len(method) == 0 || method[0] != '"' || json.Unmarshal(method, &msg.method) != nil:
		return msg, `"method" is not a string`
	}
	return msg, ""
}

// usableID is an id as the SDK writes it back: a string as its JSON
// string, an integer as its digits; nil for anything else.
func usableID(raw json.RawMessage) json.RawMessage {
	var v any
	if raw == nil || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string:
		out, _ := json.Marshal(v)
		return out
	case float64:
		if integer.Match(raw) {
			return raw
		}
	}
	return nil
}

// idOf reads the id of a message from its start, for a line too long to
// decode: the id of a request that comes before its params.
func idOf(start []byte) json.RawMessage {
	return usableID(jsonscan.Member(start, "id"))
}
