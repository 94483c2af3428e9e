package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/bridge/session"
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

// DefaultDir is the folder of the bridge's sockets and logs
// (session.DefaultDir).
func DefaultDir() string { return session.DefaultDir() }

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
	if name := eventName(data, opts.Agent.eventKey()); name != "" {
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
	if err := session.PrivateDir(dir); err != nil {
		return fail(fmt.Errorf("%w; name a folder of your own with --dir, or set XDG_RUNTIME_DIR", err))
	}
	s := session.Of(dir, opts.Agent.Name, ev.Session, opts.Server(""))
	conn, started, err := s.Connect(ctx, opts.Server, opts.StartTimeout)
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
	reply, err := session.Exchange(ctx, conn, data)
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
