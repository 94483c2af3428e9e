// Package wiretap sees what a host and a hook say to each other: it stands
// between them and records every line (Tap), replays the host's side of a
// recording to a hook and compares the replies (Replay), and shows the wire
// as it goes (Live).
//
// A recording is JSON Lines, one record per line exchanged, in the order
// the lines went:
//
//	{"hook":"weather_plugin","dir":"send","time":"2026-11-23T20:01:02.000003Z","message":{"jsonrpc":"2.0","id":2,...}}
//	{"hook":"weather_plugin","dir":"recv","time":"2026-11-23T20:01:02.000410Z","latency_ns":407000,"message":{"jsonrpc":"2.0","id":2,...}}
//
// dir is "send" from host to hook and "recv" from hook to host; message is
// the line as it was on the wire, or text holds it as a string when it is
// not JSON; latency_ns, on a reply, is the time since its request went.
// The records of `hookwire run --trace` have the same shape without time
// and latency, and read as a recording too.
package wiretap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
)

// Directions of a line.
const (
	Send = "send" // from host to hook
	Recv = "recv" // from hook to host
)

// Record is one line exchanged.
type Record struct {
	// Hook is the name the host gave the hook in hook.hello; empty before it.
	Hook string `json:"hook"`
	// Dir is Send or Recv.
	Dir string `json:"dir"`
	// Time is when the line went; zero when the recording has no times.
	Time time.Time `json:"time,omitzero"`
	// Latency is, on a reply, the time since its request was sent.
	Latency time.Duration `json:"latency_ns,omitzero"`
	// Message is the line as it was on the wire, when it is JSON.
	Message json.RawMessage `json:"message,omitempty"`
	// Text is the line when it is not JSON.
	Text *string `json:"text,omitempty"`
}

// envelope is what a recording's reader and a replay need of a message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// idKey is the id of a message as a map key; "" when it has none.
func (m envelope) idKey() string {
	if len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	return string(m.ID)
}

func (m envelope) isRequest() bool { return m.Method != nil && m.idKey() != "" }

// Writer appends records to a recording. It is safe for concurrent use;
// each record is one write.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewWriter returns a Writer that appends to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write appends one record. The line goes in as it was: a JSON line under
// "message", byte for byte; anything else as a string under "text".
func (w *Writer) Write(r Record) error {
	b := append(make([]byte, 0, len(r.Message)+len(r.Hook)+96), `{"hook":`...)
	b = wirefmt.AppendString(b, r.Hook)
	b = append(b, `,"dir":`...)
	b = wirefmt.AppendString(b, r.Dir)
	if !r.Time.IsZero() {
		b = append(b, `,"time":"`...)
		b = r.Time.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	if r.Latency != 0 {
		b = append(b, `,"latency_ns":`...)
		b = strconv.AppendInt(b, int64(r.Latency), 10)
	}
	switch {
	case r.Text != nil:
		b = append(b, `,"text":`...)
		b = wirefmt.AppendString(b, *r.Text)
	case json.Valid(r.Message):
		b = append(b, `,"message":`...)
		if bytes.ContainsAny(r.Message, "\r\n") {
			// Whitespace between tokens, which a record of one line cannot
			// hold as it is; the message stays the same JSON value.
			var c bytes.Buffer
			json.Compact(&c, r.Message)
			b = append(b, c.Bytes()...)
		} else {
			b = append(b, r.Message...)
		}
	default:
		b = append(b, `,"text":`...)
		b = wirefmt.AppendString(b, string(r.Message))
	}
	b = append(b, "}\n"...)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	_, w.err = w.w.Write(b)
	return w.err
}

// MaxRecordSize is the longest record a Reader takes: a line of the wire
// of 64 MiB (the runtime's limit), and room for the rest of the record.
const MaxRecordSize = 64<<20 + 4096

// RecordError is a record that cannot be read, and where it is.
type RecordError struct {
	Line int // 1-based
	Err  error
}

func (e *RecordError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *RecordError) Unwrap() error { return e.Err }

// Read reads a whole recording. Blank lines are skipped. The first record
// that is not one (not JSON, no dir or a wrong one, neither message nor
// text, a message that is not a JSON object, a negative latency) ends the
// read with a *RecordError naming its line.
func Read(r io.Reader) ([]Record, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var recs []Record
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			rec, derr := decodeRecord(line)
			if derr != nil {
				return recs, &RecordError{Line: n, Err: derr}
			}
			recs = append(recs, rec)
		}
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, &RecordError{Line: n, Err: err}
		}
	}
}

// readLine reads one line, without its line ending, refusing one longer
// than MaxRecordSize.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > MaxRecordSize {
			return nil, fmt.Errorf("record longer than %d bytes", MaxRecordSize)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

func decodeRecord(line []byte) (Record, error) {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			return rec, fmt.Errorf("not a JSON record: %v", err)
		case errors.As(err, &typ):
			return rec, fmt.Errorf("member %q: %s where %s belongs", typ.Field, typ.Value, typ.Type)
		}
		return rec, err
	}
	if rec.Dir != Send && rec.Dir != Recv {
		return rec, fmt.Errorf(`"dir" is %q: want "send" or "recv"`, rec.Dir)
	}
	if rec.Latency < 0 {
		return rec, fmt.Errorf(`"latency_ns" is negative (%d)`, rec.Latency)
	}
	hasMessage := len(rec.Message) > 0 && string(rec.Message) != "null"
	switch {
	case hasMessage && rec.Text != nil:
		return rec, errors.New(`both "message" and "text": a line is one or the other`)
	case !hasMessage && rec.Text == nil:
		return rec, errors.New(`neither "message" nor "text": the record holds no line`)
	case hasMessage:
		if rec.Message[0] != '{' {
			return rec, fmt.Errorf(`"message" is not a JSON-RPC message (a JSON object): %s`, wirefmt.Clip(string(rec.Message), 200))
		}
		var m envelope
		if err := json.Unmarshal(rec.Message, &m); err != nil {
			return rec, fmt.Errorf(`"message" is not a JSON-RPC message: %v`, err)
		}
	}
	return rec, nil
}

func (r Record) envelope() envelope {
	var m envelope
	if r.Text == nil {
		_ = json.Unmarshal(r.Message, &m) // checked when read
	}
	return m
}
