package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// proc is one run of the hook, seen from the wire. It keeps every line the
// hook writes on stdout, so that checks can look at what arrived in any
// window, including what a reply-matching connection would drop: replies
// to notifications, ids nobody asked for, lines that are not JSON.
type proc struct {
	cmd     *exec.Cmd
	stdin   *os.File
	timeout time.Duration

	exited   chan struct{} // closed once the process has been waited for
	exitErr  error
	exitedAt time.Time
	readDone chan struct{} // closed when stdout has ended
	errDone  chan struct{} // closed when stderr has ended

	stopOnce sync.Once

	mu      sync.Mutex
	nextID  uint64
	sent    map[uint64]string // the method of each request sent, by id
	junk    [][]byte          // lines of stdout that are not JSON-RPC messages
	msgs    []message         // JSON-RPC messages from the hook, in order
	arrived chan struct{}     // closed, and replaced, when a message arrives
	stderr  []string          // the last lines of stderr
}

// message is one JSON-RPC message the hook wrote.
type message struct {
	raw    []byte
	id     *uint64 // nil when absent, null or not a non-negative integer
	rawID  string  // the id as written, "" when absent
	method string  // set when the hook sent a request or notification
	result json.RawMessage
	err    *protocol.RPCError
}

func (m message) String() string { return clip(m.raw) }

// start runs the hook with its own pipes, in a process group of its own so
// that stop can end whatever it started.
func start(cmd runtime.Command, timeout time.Duration, stderr io.Writer) (*proc, error) {
	pp, err := cmd.StartPiped(nil)
	if err != nil {
		return nil, err
	}
	c := pp.Cmd
	p := &proc{
		cmd:      c,
		stdin:    pp.Stdin,
		timeout:  timeout,
		exited:   make(chan struct{}),
		readDone: make(chan struct{}),
		errDone:  make(chan struct{}),
		sent:     map[uint64]string{},
		arrived:  make(chan struct{}),
	}
	go p.read(pp.Stdout)
	go p.readStderr(pp.Stderr, stderr)
	go func() {
		p.exitErr = c.Wait()
		p.exitedAt = time.Now()
		// The hook's last words on stderr explain its end best: let them
		// in before anyone asks how it ended.
		select {
		case <-p.errDone:
		case <-time.After(100 * time.Millisecond):
		}
		close(p.exited)
	}()
	return p, nil
}

func (p *proc) read(r io.ReadCloser) {
	defer close(p.readDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
			p.take(line)
		}
		if err != nil {
			return
		}
	}
}

// take files one line: a JSON-RPC message, or junk.
func (p *proc) take(line []byte) {
	var members map[string]json.RawMessage
	if json.Unmarshal(line, &members) != nil || members["jsonrpc"] == nil {
		p.mu.Lock()
		p.junk = append(p.junk, line)
		p.mu.Unlock()
		return
	}
	m := message{raw: line, result: members["result"]}
	if raw, ok := members["id"]; ok {
		m.rawID = clip(raw)
		var id uint64
		if json.Unmarshal(raw, &id) == nil {
			m.id = &id
		}
	}
	if raw, ok := members["method"]; ok {
		if json.Unmarshal(raw, &m.method) != nil || m.method == "" {
			m.method = clip(raw)
		}
	}
	if raw, ok := members["error"]; ok {
		var e protocol.RPCError
		if protocol.Unmarshal(raw, &e) == nil {
			m.err = &e
		} else {
			m.err = &protocol.RPCError{Code: protocol.CodeInternalError, Message: "unreadable error object " + clip(raw)}
		}
	}
	p.mu.Lock()
	p.msgs = append(p.msgs, m)
	close(p.arrived)
	p.arrived = make(chan struct{})
	p.mu.Unlock()
}

// readStderr passes the hook's log on, and keeps its last lines to explain a crash.
func (p *proc) readStderr(r io.ReadCloser, w io.Writer) {
	defer close(p.errDone)
	defer r.Close()
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if w != nil {
				io.WriteString(w, line)
			}
			p.mu.Lock()
			p.stderr = append(p.stderr, strings.TrimRight(line, "\r\n"))
			if len(p.stderr) > 3 {
				p.stderr = p.stderr[1:]
			}
			p.mu.Unlock()
		}
		if err != nil {
			return
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
	_ = p.stdin.SetWriteDeadline(time.Now().Add(p.timeout))
	if _, err := p.stdin.Write(lines); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("the hook did not read its stdin within %v", p.timeout)
		}
		return p.gone(fmt.Errorf("writing to the hook's stdin: %w", err))
	}
	return nil
}

// request encodes a request and records its method; it returns the line and its id.
func (p *proc) request(method string, params any) ([]byte, uint64) {
	raw, err := protocol.Marshal(params)
	if err != nil {
		panic(fmt.Sprintf("conformance: params of %s: %v", method, err))
	}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.sent[id] = method
	p.mu.Unlock()
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, raw), id
}

// notification encodes a notification; id, when not nil, is the id of 0
// that older hosts put on notifications.
func notification(method string, params json.RawMessage, id *int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0",`)
	if id != nil {
		fmt.Fprintf(&b, `"id":%d,`, *id)
	}
	fmt.Fprintf(&b, `"method":%q,"params":`, method)
	json.Compact(&b, params)
	b.WriteString("}\n")
	return b.Bytes()
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
	select {
	case <-p.exited:
		return errors.New(p.describeExit())
	case <-time.After(200 * time.Millisecond):
		return err
	}
}

// describeExit says how the process ended, with its last words on stderr.
// Call it only once the process has exited.
func (p *proc) describeExit() string {
	var what string
	var exit *exec.ExitError
	switch {
	case p.exitErr == nil:
		what = "the hook exited with status 0"
	case errors.As(p.exitErr, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			what = "the hook was killed by " + ws.Signal().String()
		} else {
			what = "the hook exited with status " + strconv.Itoa(exit.ExitCode())
		}
	default:
		what = "the hook exited: " + p.exitErr.Error()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.stderr); n > 0 {
		what += fmt.Sprintf(" (last stderr line: %q)", p.stderr[n-1])
	}
	return what
}

// closeStdin closes the hook's stdin and waits up to wait for it to exit.
func (p *proc) closeStdin(wait time.Duration) (exited bool, took time.Duration) {
	closed := time.Now()
	p.stdin.Close()
	if !p.waitExit(wait) {
		return false, wait
	}
	return true, p.exitedAt.Sub(closed)
}

// stop ends the hook and everything it started: stdin closed, then
// SIGTERM, then SIGKILL, to its whole process group. Once it returns, every
// line the hook wrote has been taken in.
func (p *proc) stop() { p.stopOnce.Do(p.end) }

func (p *proc) end() {
	p.stdin.Close()
	pgid := p.cmd.Process.Pid
	if !p.waitExit(time.Second) {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		if !p.waitExit(time.Second) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-p.exited
		}
	}
	// Children the hook left in its group must not outlive the run.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	for _, done := range []chan struct{}{p.readDone, p.errDone} {
		select {
		case <-done:
		case <-time.After(time.Second):
		}
	}
}

func (p *proc) waitExit(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	case <-time.After(d):
		return false
	}
}

// clip shortens a line for a report.
func clip(b []byte) string {
	const max = 120
	s := string(b)
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}
