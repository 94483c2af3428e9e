package wire

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// DefaultMaxLineSize is the longest line read from a hook when no limit is
// set: 64 MiB, well above what a before_llm request with a long history needs.
const DefaultMaxLineSize = 64 << 20

// LineTooLongError reports a line longer than the configured limit. The line
// was read to its end and dropped; the connection goes on.
type LineTooLongError struct {
	// Size is how many bytes the line had, without its newline.
	Size int
	// Limit is the configured limit.
	Limit int
	// ID is the id the line carried at its top level, when it had one.
	ID *uint64
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("reply line of %d bytes is over the limit of %d bytes (MaxLineSize)", e.Size, e.Limit)
}

// readLine reads one line, without its line ending, into a slice of its own.
// A line longer than limit is read to its end without being kept, and comes
// back as a *LineTooLongError naming the id it carried, so that the one call
// it answers fails and the reader goes on. A last line without a newline is
// returned before io.EOF.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	lr := lineReader{br: br, limit: limit}
	return lr.next()
}

// lineReader reads lines as readLine does, and can be stopped at any point:
// when a read fails with an error that leaves the stream usable (a read
// deadline), the part of the line read so far is kept, and the next call
// goes on from there. This is what lets readers of a connection take turns.
type lineReader struct {
	br    *bufio.Reader
	limit int
	// parts are the fragments of the line read so far, each kept as read:
	// a long line is joined once at its end, never copied into a growing
	// buffer, and one over the limit is dropped having cost at most the
	// limit.
	parts [][]byte
	n     int        // their length
	skip  *idScanner // set while an over-long line is read to its end
	size  int        // the over-long line's size so far
}

func (lr *lineReader) next() ([]byte, error) {
	for {
		frag, err := lr.br.ReadSlice('\n')
		if lr.skip != nil {
			lr.skip.feed(frag)
			lr.size += len(frag)
			switch err {
			case bufio.ErrBufferFull:
				continue
			case nil, io.EOF:
				return nil, lr.tooLong(err)
			}
			return nil, err
		}
		size := lr.n + len(frag)
		if err == nil {
			size = lr.n + len(bytes.TrimRight(frag, "\r\n"))
		}
		if size > lr.limit {
			lr.skip = new(idScanner)
			for _, part := range lr.parts {
				lr.skip.feed(part)
			}
			lr.skip.feed(frag)
			lr.size = lr.n + len(frag)
			lr.parts, lr.n = nil, 0
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == nil || err == io.EOF {
				return nil, lr.tooLong(err)
			}
			return nil, err
		}
		if len(frag) > 0 {
			lr.parts = append(lr.parts, bytes.Clone(frag))
			lr.n += len(frag)
		}
		switch err {
		case nil:
			return bytes.TrimRight(lr.take(), "\r\n"), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if lr.n > 0 {
				return lr.take(), nil
			}
		}
		return nil, err
	}
}

// take is the line read, its parts joined, and starts the next.
func (lr *lineReader) take() []byte {
	line := lr.parts[0]
	if len(lr.parts) > 1 {
		line = bytes.Join(lr.parts, nil)
		lr.parts, lr.n = nil, 0 // let the fragments go
		return line
	}
	lr.parts[0] = nil
	lr.parts, lr.n = lr.parts[:0], 0
	return line
}

// tooLong ends the skipping of an over-long line; err is how its last
// fragment ended: nil at a newline, io.EOF at the end of the stream.
func (lr *lineReader) tooLong(err error) error {
	e := &LineTooLongError{Size: lr.size, Limit: lr.limit}
	if err == nil {
		e.Size-- // the newline
	}
	if id, ok := lr.skip.id(); ok {
		e.ID = &id
	}
	lr.skip = nil
	return e
}

// idScanner finds the integer value of the top-level "id" member of a JSON
// object streamed through it in pieces, keeping nothing else: it is how an
// over-long reply is matched to its call without holding the line in memory.
type idScanner struct {
	depth     int
	inString  bool
	escaped   bool
	expectKey bool   // at depth 1, the next string is a member name
	key       []byte // the member name being read, up to a few bytes
	keyIsID   bool   // the last member name read at depth 1 was "id"
	inID      bool   // reading the id's value
	digits    bool   // the value has begun
	value     uint64
	found     bool
	overflow  bool
}

func (s *idScanner) feed(p []byte) {
	for _, b := range p {
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
			case b == '\\':
				s.escaped = true
			case b == '"':
				s.inString = false
				if s.key != nil {
					s.keyIsID = string(s.key) == `"id`
					s.key = nil
				}
			default:
				if s.key != nil && len(s.key) < 4 {
					s.key = append(s.key, b)
				}
			}
			continue
		}
		if s.inID {
			if b >= '0' && b <= '9' {
				d := uint64(b - '0')
				if s.value > (1<<64-1-d)/10 {
					s.overflow = true
				}
				s.value = s.value*10 + d
				s.digits = true
				continue
			}
			if !s.digits && (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
				continue
			}
			s.inID = false
			s.found = s.digits && !s.overflow
		}
		switch b {
		case '"':
			s.inString = true
			if s.depth == 1 && s.expectKey {
				s.key = append(make([]byte, 0, 4), '"')
				s.expectKey = false
			}
		case '{':
			s.depth++
			s.expectKey = s.depth == 1
		case '[':
			s.depth++
		case '}', ']':
			s.depth--
		case ',':
			s.expectKey = s.depth == 1
		case ':':
			if s.depth == 1 && s.keyIsID {
				s.keyIsID = false
				s.value, s.overflow, s.found, s.digits = 0, false, false, false
				s.inID = true
			}
		case ' ', '\t', '\r', '\n':
		default:
			if s.depth == 1 {
				s.keyIsID = false
			}
		}
	}
}

func (s *idScanner) id() (uint64, bool) {
	if s.inID && s.digits && !s.overflow {
		return s.value, true
	}
	return s.value, s.found
}
