package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"
)

// MaxEventSize bounds an event read from the agent, and so a request.
const MaxEventSize = 64 << 20

// Reply is what the agent reads back: stdout, an exit code, and stderr.
type Reply struct {
	Stdout string `json:"stdout"`
	Exit   int    `json:"exit"`
	Stderr string `json:"stderr,omitempty"`
}

// request is what an invocation sends: the agent's event.
type request struct {
	Event json.RawMessage `json:"event"`
}

// Exchange sends the agent's event to the server on conn and reads the
// reply, within ctx.
func Exchange(ctx context.Context, conn net.Conn, event []byte) (Reply, error) {
	if d, ok := ctx.Deadline(); ok {
		conn.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	var req bytes.Buffer
	enc := json.NewEncoder(&req)
	enc.SetEscapeHTML(false) // <, > and & as they came, not six bytes each
	if err := enc.Encode(request{Event: event}); err != nil {
		return Reply{}, err
	}
	if _, err := conn.Write(req.Bytes()); err != nil {
		return Reply{}, err
	}
	line, err := readLine(bufio.NewReader(conn), MaxEventSize+64)
	if err != nil {
		return Reply{}, err
	}
	var r Reply
	if err := json.Unmarshal(line, &r); err != nil {
		return Reply{}, fmt.Errorf("a reply that is not JSON: %w", err)
	}
	return r, nil
}

// Answer answers one invocation on conn: it reads the request line and
// writes the reply answer gives for the event in it, or for the error of
// a request that is not JSON. A line that cannot be read gets no reply:
// its error is returned. A reply the invocation is no longer there to
// read is no error of the server's.
func Answer(conn net.Conn, answer func(event json.RawMessage, err error) Reply) error {
	line, err := readLine(bufio.NewReaderSize(conn, 64<<10), MaxEventSize+64)
	if err != nil {
		return err
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		err = fmt.Errorf("a request that is not JSON: %w", err)
	}
	out, _ := json.Marshal(answer(req.Event, err))
	conn.Write(append(out, '\n'))
	return nil
}

// readLine reads one line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("a line over %d bytes", max)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && len(line) == 0:
			return nil, err
		}
		return slices.Clip(line), nil
	}
}
