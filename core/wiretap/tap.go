package wiretap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// Tap stands in for a hook command: it starts the command, passes every
// line between the host and the hook both ways, unchanged and in order,
// and tells Record and Trace about each. It adds nothing a host or a hook
// can see: no line is held back longer than it takes to read it whole, the
// end of either side's output is passed on, and the hook's exit status is
// the tap's. The zero value is not usable: set Cmd.
type Tap struct {
	// Cmd is the hook. It runs in a process group of its own, with the
	// tap's stderr as its stderr.
	Cmd wire.Command
	// Record, when set, gets every line, with its time and, on a reply,
	// the latency since its request.
	Record *Writer
	// Trace, when set, sees every line, with the hook's name from hello.
	Trace func(hook string, out bool, line []byte)
	// Stderr is the hook's stderr; nil means the tap's own.
	Stderr io.Writer
	// Signals, when set, are passed on to the hook's process group.
	Signals <-chan os.Signal
}

// exitGrace is how long the tap reads what is left of the hook's stdout
// once the hook has exited: lines it wrote before its exit are passed on,
// even when a child it left behind keeps the pipe open.
const exitGrace = 500 * time.Millisecond

// Run passes lines between host (from hostIn to hostOut) and hook until the
// hook exits, and returns how it exited. It closes hostOut, when it is an
// io.Closer, as soon as the hook's stdout ends, as the hook's own end would.
// A recording that cannot be written is an error only once the hook is done:
// the lines go on meanwhile.
func (t *Tap) Run(hostIn io.Reader, hostOut io.Writer) (*os.ProcessState, error) {
	stderr := t.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	pp, err := t.Cmd.StartPiped(stderr)
	if err != nil {
		return nil, err
	}
	c, stdinW, stdoutR := pp.Cmd, pp.Stdin, pp.Stdout

	s := &session{tap: t, sent: map[string]time.Time{}, hook: t.Cmd.Name}
	exited := make(chan struct{})
	var state *os.ProcessState
	go func() {
		c.Wait()
		state = c.ProcessState
		close(exited)
	}()
	stopSignals := make(chan struct{})
	defer close(stopSignals)
	go func() {
		for {
			select {
			case sig := <-t.Signals:
				wire.SignalGroup(c.Process.Pid, sig)
			case <-stopSignals:
				return
			}
		}
	}()

	// Host to hook: the end of the host's output closes the hook's stdin.
	go func() {
		s.pass(hostIn, stdinW, true)
		stdinW.Close()
	}()
	// Hook to host: the end of the hook's stdout is the end of the tap's.
	var endOnce sync.Once
	end := func() {
		endOnce.Do(func() {
			if cl, ok := hostOut.(io.Closer); ok {
				cl.Close()
			}
		})
	}
	down := make(chan struct{})
	go func() {
		defer close(down)
		s.pass(stdoutR, hostOut, false)
		end()
	}()

	select {
	case <-down:
		<-exited
	case <-exited:
		select {
		case <-down:
		case <-time.After(exitGrace):
		}
	}
	stdoutR.Close()
	end()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.recordErr != nil {
		return state, fmt.Errorf("recording: %w", s.recordErr)
	}
	return state, nil
}

// session is the state of one run of a tap.
type session struct {
	tap *Tap

	mu        sync.Mutex
	hook      string               // the hook's name, from hello
	sent      map[string]time.Time // requests waiting for a reply, by id
	recordErr error
}

// pass copies lines from r to w, one write per line, and notes each.
func (s *session) pass(r io.Reader, w io.Writer, out bool) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			// Noted before it is passed on: the other side can answer only
			// once it has the line, so the recording keeps cause before effect.
			s.note(out, time.Now(), trimEOL(line))
			if _, werr := w.Write(line); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// note records a line that has been passed on.
func (s *session) note(out bool, at time.Time, line []byte) {
	t := s.tap
	if t.Record == nil && t.Trace == nil {
		return
	}
	rec := Record{Dir: Recv, Time: at}
	var m envelope
	if json.Unmarshal(line, &m) == nil && len(line) > 0 && line[0] == '{' {
		rec.Message = line
	} else {
		text := string(line)
		rec.Text = &text
	}
	s.mu.Lock()
	if out {
		rec.Dir = Send
		if m.Method != nil && *m.Method == protocol.MethodHello {
			var hello struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(m.Params, &hello) == nil && hello.Name != "" {
				s.hook = hello.Name
			}
		}
		if m.isRequest() {
			s.sent[m.idKey()] = at
		}
	} else if id := m.idKey(); id != "" && m.Method == nil {
		if sent, ok := s.sent[id]; ok {
			rec.Latency = max(at.Sub(sent), 1) // a reply has a latency, however small
			delete(s.sent, id)
		}
	}
	rec.Hook = s.hook
	s.mu.Unlock()
	if t.Trace != nil {
		t.Trace(rec.Hook, out, line)
	}
	if t.Record != nil {
		if err := t.Record.Write(rec); err != nil {
			s.mu.Lock()
			if s.recordErr == nil {
				s.recordErr = err
			}
			s.mu.Unlock()
		}
	}
}
