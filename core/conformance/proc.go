package conformance

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/wire"
)

// proc is one run of the hook, seen from the wire. It keeps every line the
// hook writes on stdout, so that checks can look at what arrived in any
// window, including what a reply-matching connection would drop: replies
// to notifications, ids nobody asked for, lines that are not JSON.
type proc struct {
	*wire.Child
	timeout  time.Duration
	readDone chan struct{} // closed when stdout has ended
	// limit bounds the bytes read from stdout; overflow says that the
	// hook wrote more, once read has stopped for it.
	limit    int64
	overflow error

	stopOnce sync.Once

	mu      sync.Mutex
	nextID  uint64
	sent    map[uint64]string // the method of each request sent, by id
	junk    [][]byte          // lines of stdout that are not JSON-RPC messages
	msgs    []message         // JSON-RPC messages from the hook, in order
	arrived chan struct{}     // closed, and replaced, when a message arrives
	// stderr are the last lines the hook wrote on stderr, at most
	// maxStderrLines; stderrDropped counts those let go before them, so
	// that a mark (stderrMark) stays a line's number from the start.
	stderr        []string
	stderrDropped int
}

// maxStderrLines bounds the stderr lines a run keeps, for the failing
// checks' report: a hook may log without end.
const maxStderrLines = 4096

// start runs the hook with its own pipes, in a process group of its own so
// that stop can end whatever it started; its stderr goes on to stderr.
func start(cmd wire.Command, timeout time.Duration, stderr io.Writer, limit int64) (*proc, error) {
	p := &proc{
		timeout:  timeout,
		limit:    cmp.Or(limit, DefaultMaxOutput),
		readDone: make(chan struct{}),
		sent:     map[uint64]string{},
		arrived:  make(chan struct{}),
	}
	// Every line is kept, so that a failing check can show what the hook
	// said meanwhile (a handler's traceback), and passed on when asked.
	c, err := cmd.StartChild(func(line string) {
		p.mu.Lock()
		p.stderr = append(p.stderr, line)
		if len(p.stderr) > maxStderrLines {
			p.stderrDropped += len(p.stderr) - maxStderrLines
			p.stderr = slices.Delete(p.stderr, 0, len(p.stderr)-maxStderrLines)
		}
		p.mu.Unlock()
		if stderr != nil {
			io.WriteString(stderr, line+"\n")
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	p.Child = c
	go p.read(c.Stdout)
	return p, nil
}

// stderrMark is the number of the next line to come on stderr.
func (p *proc) stderrMark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderrDropped + len(p.stderr)
}

// stderrSince returns the lines of stderr from the mark on, those kept.
func (p *proc) stderrSince(mark int) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.stderr[max(mark-p.stderrDropped, 0):])
}

// stderrSettles waits until the hook has written nothing on stderr for
// idle, its stderr has ended, or max has passed. Stderr and stdout are two
// pipes: a traceback written before a reply may be read after it.
func (p *proc) stderrSettles(idle, max time.Duration) {
	deadline := time.Now().Add(max)
	last, quietSince := p.stderrMark(), time.Now()
	for time.Now().Before(deadline) {
		select {
		case <-p.StderrDone():
			return
		case <-time.After(idle / 5):
		}
		if n := p.stderrMark(); n != last {
			last, quietSince = n, time.Now()
		} else if time.Since(quietSince) >= idle {
			return
		}
	}
}

func (p *proc) read(r io.ReadCloser) {
	defer close(p.readDone)
	defer r.Close()
	// Every line is kept, so what the hook may write is bounded, each line
	// counted with what keeping it costs besides its bytes: past the
	// limit, reading stops (the hook's next write fails) and each wait
	// ends with the overflow as its error.
	const lineCost = 64
	br := bufio.NewReaderSize(r, 64<<10)
	var read int64
	for {
		line, err := readLine(br, p.limit-read)
		if read += int64(len(line)) + lineCost; read > p.limit {
			p.mu.Lock()
			p.overflow = fmt.Errorf("the hook wrote more than %d bytes on stdout: a host stops reading such a hook", p.limit)
			p.mu.Unlock()
			return
		}
		if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
			p.take(line)
		}
		if err != nil {
			return
		}
	}
}

// readLine reads up to a newline, or max bytes and one more when there is
// none within them.
func readLine(br *bufio.Reader, max int64) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull || int64(len(line)) > max {
			return line, err
		}
	}
}

// mark is the index of the next message to arrive, for await.
func (p *proc) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.msgs)
}

// since returns the messages that arrived after mark.
func (p *proc) since(mark int) []message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.msgs[mark:])
}

// write sends lines, giving up when the hook does not read them in time.
func (p *proc) write(lines []byte) error {
	_ = p.Stdin.SetWriteDeadline(time.Now().Add(p.timeout))
	if _, err := p.Stdin.Write(lines); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("the hook did not read its stdin within %v", p.timeout)
		}
		return p.gone(fmt.Errorf("writing to the hook's stdin: %w", err))
	}
	return nil
}

// call sends a request and waits for the first reply that carries its id.
func (p *proc) call(ctx context.Context, method string, params any) (message, error) {
	line, id := p.request(method, params)
	mark := p.mark()
	if err := p.write(line); err != nil {
		return message{}, err
	}
	return p.await(ctx, mark, time.Now().Add(p.timeout), func(m message) bool { return m.id != nil && *m.id == id && m.method == "" })
}

// await waits for a message after mark that satisfies match, until deadline.
func (p *proc) await(ctx context.Context, mark int, deadline time.Time, match func(message) bool) (message, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		p.mu.Lock()
		for _, m := range p.msgs[mark:] {
			if match(m) {
				p.mu.Unlock()
				return m, nil
			}
		}
		mark = len(p.msgs)
		arrived := p.arrived
		p.mu.Unlock()
		select {
		case <-arrived:
		case <-p.readDone:
			// Nothing more can come; one last look at what did.
			p.mu.Lock()
			for _, m := range p.msgs[mark:] {
				if match(m) {
					p.mu.Unlock()
					return m, nil
				}
			}
			p.mu.Unlock()
			return message{}, p.gone(errors.New("the hook closed its stdout"))
		case <-timer.C:
			return message{}, fmt.Errorf("no reply within %v", p.timeout)
		case <-ctx.Done():
			return message{}, ctx.Err()
		}
	}
}

// gone explains a broken pipe by the hook's exit, when it has exited.
func (p *proc) gone(err error) error {
	p.mu.Lock()
	overflow := p.overflow
	p.mu.Unlock()
	if overflow != nil {
		return overflow
	}
	select {
	case <-p.Exited():
		return errors.New(p.describeExit())
	case <-time.After(200 * time.Millisecond):
		return err
	}
}

// describeExit says how the process ended, with its last words on stderr.
// Call it only once the process has exited.
func (p *proc) describeExit() string { return "the " + p.Exit().Error() }

// closeStdin closes the hook's stdin and waits up to wait for it to exit.
func (p *proc) closeStdin(wait time.Duration) (exited bool, took time.Duration) {
	closed := time.Now()
	p.Stdin.Close()
	select {
	case <-p.Exited():
		return true, p.ExitedAt().Sub(closed)
	case <-time.After(wait):
		return false, wait
	}
}

// stop ends the hook and everything it started (see wire.Child.Stop).
// Once it returns, every line the hook wrote has been taken in.
func (p *proc) stop() {
	p.stopOnce.Do(func() {
		p.Stop(time.Second)
		for _, done := range []<-chan struct{}{p.readDone, p.StderrDone()} {
			select {
			case <-done:
			case <-time.After(time.Second):
			}
		}
	})
}
