package mcphook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxLineSize is the longest MCP message read from the client.
const MaxLineSize = 64 << 20

// JSONLines reads MCP messages from r, one per line as MCP's stdio transport
// frames them, and passes on only the lines that are JSON: the MCP SDK reads
// a stream of JSON values, so a line that is not JSON would end its session,
// and a truncated one would swallow the lines after it. Each dropped line,
// and each line over MaxLineSize, is told to drop.
func JSONLines(r io.Reader, drop func(line []byte, why string)) io.ReadCloser {
	return &jsonLines{r: bufio.NewReaderSize(r, 64<<10), drop: drop}
}

type jsonLines struct {
	r       *bufio.Reader
	pending []byte // the rest of the line being passed on
	drop    func([]byte, string)
	err     error
}

func (j *jsonLines) Read(p []byte) (int, error) {
	for len(j.pending) == 0 {
		if j.err != nil {
			return 0, j.err
		}
		line, err := j.readLine()
		j.err = err
		trimmed := bytes.TrimSpace(line)
		switch {
		case len(trimmed) == 0:
		case len(line) > MaxLineSize:
			j.drop(line[:64], "the line is longer than the limit")
		case !json.Valid(trimmed):
			j.drop(line, "the line is not JSON")
		default:
			j.pending = append(trimmed, '\n')
		}
	}
	n := copy(p, j.pending)
	j.pending = j.pending[n:]
	return n, nil
}

// readLine reads up to the next newline, keeping at most MaxLineSize+64
// bytes of it: enough to tell that it is too long, and to show its start.
func (j *jsonLines) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := j.r.ReadSlice('\n')
		if len(line) <= MaxLineSize {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

func (j *jsonLines) Close() error { return nil }
