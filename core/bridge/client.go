package bridge

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/internal/filelock"
)

// Options say how an invocation reaches its session's server.
type Options struct {
	Agent *Agent
	// Dir is the folder of the sockets and logs; empty means DefaultDir.
	Dir string
	// Server is the command that runs a session's server on a socket
	// (this program, with its bridge flags and --serve, then the agent and
	// the hook's command). With no socket, it is the session's key.
	Server func(socket string) []string
	// StartTimeout bounds the wait for a new server to listen.
	StartTimeout time.Duration
	// Deadline bounds the whole invocation: connecting, starting the
	// session's server, sending the event and reading the decision. It is
	// below the agents' own hook timeouts, so that the agent reads our
	// answer, never its own timeout (which lets a tool run). Zero means
	// the agent's Deadline.
	Deadline time.Duration
	// FailOpen gives the events that guard a tool no decision when the hook
	// cannot be asked, instead of blocking them: the agent's own permission
	// rules decide, as without a hook.
	FailOpen bool
}

// DefaultDeadline is the longest an invocation takes, for an agent that
// sets none (agents.DefaultDeadline).
const DefaultDeadline = agents.DefaultDeadline

// Session is where a session's server lives: its socket, its log.
type Session struct {
	Socket, Log, lock string
}

// DefaultDir is the folder of the bridge's sockets and logs:
// $XDG_RUNTIME_DIR/hookwire, or hookwire-UID in the temporary folder.
func DefaultDir() string { return feed.Dir() }

// SessionOf is the server of an event's session for a hook: one per agent,
// session, working folder and server, the command that starts it but for
// its socket. That command holds every flag the server runs with and the
// hook's command, so that an event never reaches a server started with
// other flags: a settings file may name one hook twice, once with
// --failure-policy open or without --env-clear, and each entry must get
// the server its own flags ask for.
func SessionOf(dir string, agent *Agent, ev Event, server []string) Session {
	cwd, _ := os.Getwd()
	sum := sha256.Sum256([]byte(strings.Join(append([]string{agent.Name, ev.Session, cwd}, server...), "\x00")))
	base := filepath.Join(dir, agent.Name+"-"+hex.EncodeToString(sum[:8]))
	return Session{Socket: base + ".sock", Log: base + ".log", lock: filepath.Join(dir, "start.lock")}
}

// privateDir makes dir, or checks it: a folder of this user's that no
// one else may enter, so that no other user can reach a socket in it.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return feed.CheckDir(dir)
}

// Invoke answers one event of the agent: it reads the event from stdin,
// hands it to its session's server (starting one for the session's first
// event), and writes the reply. It returns the exit code the agent reads.
// Whatever goes wrong, within opts.Deadline or when ctx ends (SIGTERM,
// Ctrl-C), an event that guards a tool is blocked; under opts.FailOpen it
// gets no decision, and the agent's own permission rules decide.
func Invoke(ctx context.Context, opts Options, stdin io.Reader, stdout, stderr io.Writer) int {
	deadline := opts.Deadline
	if deadline <= 0 {
		deadline = opts.Agent.EventDeadline()
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	// Until the event says which it is, it may guard a tool: a failure
	// before then blocks it.
	ev := Event{}
	step := Step{Guard: true}
	fail := func(err error) int {
		o := outcome{step: step, failure: err.Error(), failOpen: opts.FailOpen}
		return write(opts.Agent.decide(ev, o), stdout, stderr)
	}
	data, err := readEvent(ctx, stdin)
	if name := eventName(data); name != "" {
		ev.Name, step = name, opts.Agent.Events[name]
	}
	if err != nil {
		return fail(err)
	}
	parsed, err := opts.Agent.Parse(data)
	if err != nil {
		return fail(fmt.Errorf("%w (an event is the JSON object an agent writes on a hook's stdin)", err))
	}
	ev = parsed
	dir := opts.Dir
	if dir == "" {
		dir = DefaultDir()
	}
	if err := privateDir(dir); err != nil {
		return fail(fmt.Errorf("%w; name a folder of your own with --dir, or set XDG_RUNTIME_DIR", err))
	}
	s := SessionOf(dir, opts.Agent, ev, opts.Server(""))
	conn, started, err := s.connect(ctx, opts)
	if err != nil {
		return fail(fmt.Errorf("%w (its log: %s)", cause(ctx, err), s.Log))
	}
	defer conn.Close()
	if started {
		// Said once, when the session's hook starts: what this agent cannot do.
		for _, line := range opts.Agent.Cannot {
			fmt.Fprintf(stderr, "hookwire bridge: %s: %s\n", opts.Agent.Name, line)
		}
		if opts.FailOpen {
			fmt.Fprintf(stderr, "hookwire bridge: --failure-policy open: when the hook cannot be asked, a tool call gets no decision, and %s's own permission rules decide\n", opts.Agent.Title)
		}
	}
	reply, err := exchange(ctx, conn, data)
	if err != nil {
		return fail(fmt.Errorf("the session's server did not answer: %w (its log: %s)", cause(ctx, err), s.Log))
	}
	return write(reply, stdout, stderr)
}

// readEvent reads the event from stdin, up to MaxEventSize. What it returns
// with an error is the start of what it read, for eventName.
func readEvent(ctx context.Context, stdin io.Reader) ([]byte, error) {
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		data, err := readAtMost(stdin, MaxEventSize)
		done <- read{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("reading the event: %w", cause(ctx, ctx.Err()))
	}
}

// readAtMost reads r whole when it holds at most max bytes. Read in chunks
// of its own, it never holds much more than max (no doubling of a growing
// buffer); past max it keeps only the first chunk, and reads no further.
func readAtMost(r io.Reader, max int) ([]byte, error) {
	const chunk = 1 << 20
	var chunks [][]byte
	total := 0
	for {
		buf := make([]byte, chunk)
		n, err := io.ReadFull(r, buf)
		chunks = append(chunks, buf[:n])
		total += n
		if total > max {
			return chunks[0], fmt.Errorf("the event is over %d bytes", max)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bytes.Join(chunks, nil), nil
		}
		if err != nil {
			return chunks[0], fmt.Errorf("reading the event: %w", err)
		}
	}
}

// cause names why ctx ended, when it did: the invocation's deadline, or a
// signal; otherwise err. A connection's deadline is the invocation's, and
// may fire a moment before ctx's own timer does.
func cause(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("no decision within the bridge's deadline (--deadline): %w", err)
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted (%v): %w", context.Cause(ctx), err)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("no decision within the bridge's deadline (--deadline): %w", err)
	}
	return err
}

func write(r Reply, stdout, stderr io.Writer) int {
	if r.Stdout != "" {
		fmt.Fprintln(stdout, r.Stdout)
	}
	if r.Stderr != "" {
		fmt.Fprintln(stderr, r.Stderr)
	}
	return r.Exit
}

// connect reaches the session's server, starting it when there is none.
// A lock file makes sure that two events at once start one server: one
// for the folder, held only until the new server listens, so that no file
// is left per session.
// started is true when this call started it.
func (s Session) connect(ctx context.Context, opts Options) (conn net.Conn, started bool, err error) {
	var dialer net.Dialer
	if conn, err := dialer.DialContext(ctx, "unix", s.Socket); err == nil {
		return conn, false, nil
	}
	lock, err := os.OpenFile(s.lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	defer lock.Close()
	// Polled, not waited for: the wait must end with ctx.
	for {
		taken, err := filelock.TryLock(lock)
		if err != nil {
			return nil, false, fmt.Errorf("the lock of the sessions' folder, %s: %w", s.lock, err)
		}
		if taken {
			break
		}
		select {
		case <-ctx.Done():
			return nil, false, fmt.Errorf("waiting for another event to start the session's server: %w", ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	defer filelock.Unlock(lock)
	if conn, err := dialer.DialContext(ctx, "unix", s.Socket); err == nil {
		return conn, false, nil // another event started it meanwhile
	}
	conn, err = s.start(ctx, opts)
	return conn, err == nil, err
}

// start runs a new server, detached from this invocation, and waits until
// it listens.
func (s Session) start(ctx context.Context, opts Options) (net.Conn, error) {
	sweep(filepath.Dir(s.Log), time.Now().Add(-LogsKept))
	log, err := os.OpenFile(s.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	argv := opts.Server(s.Socket)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	detach(cmd) // it outlives this invocation
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the session's server: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	deadline := time.After(timeout)
	for {
		if conn, err := net.Dial("unix", s.Socket); err == nil {
			return conn, nil
		}
		select {
		case err := <-exited:
			return nil, fmt.Errorf("the session's server stopped (%v): %s", err, lastLine(s.Log))
		case <-deadline:
			cmd.Process.Kill()
			return nil, fmt.Errorf("the session's server did not listen within %v", timeout)
		case <-ctx.Done():
			cmd.Process.Kill()
			return nil, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// LogsKept is how long the log of a session that has ended is kept, for
// the errors that name it: older ones are removed when a session starts.
const LogsKept = 24 * time.Hour

// sweep removes what sessions left in dir before the time given: logs,
// and sockets no server listens on any more.
func sweep(dir string, before time.Time) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || info.ModTime().After(before) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		switch filepath.Ext(e.Name()) {
		case ".log", ".1":
			base := strings.TrimSuffix(strings.TrimSuffix(path, ".1"), ".log")
			if conn, err := net.Dial("unix", base+".sock"); err == nil {
				conn.Close() // its session still runs
				continue
			}
			os.Remove(path)
		case ".sock":
			if conn, err := net.Dial("unix", path); err == nil {
				conn.Close()
			} else {
				os.Remove(path)
			}
		}
	}
}

// exchange sends the event and reads the reply, within ctx.
func exchange(ctx context.Context, conn net.Conn, event []byte) (Reply, error) {
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

// lastLine is the last line of a file that is not empty.
func lastLine(path string) string {
	data, _ := os.ReadFile(path)
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(lines) == 0 {
		return ""
	}
	return string(lines[len(lines)-1])
}
