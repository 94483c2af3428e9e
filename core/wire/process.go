package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// Default timings of a process's life.
const (
	DefaultHelloTimeout = 5 * time.Second
	DefaultStopTimeout  = 2 * time.Second
)

// Command says how to start a hook process.
type Command struct {
	// Name is the hook's name: sent in hook.hello and used in logs.
	Name string
	// Argv is the program and its arguments. It is run directly, with no shell.
	Argv []string
	// Dir is the working directory; empty means the runtime's own.
	Dir string
	// Env holds variables set on top of the runtime's own environment.
	Env map[string]string
	// EnvPassthrough, when not nil, lists the variables of the runtime's
	// environment the hook gets, by name or glob ("LC_*"); the others are
	// kept from it. Nil passes every one, as PicoClaw does.
	EnvPassthrough []string
	// EnvClear passes none of the runtime's variables but those that
	// EnvPassthrough names: the hook gets Env and nothing else.
	EnvClear bool
	// Modes are the capabilities announced in hook.hello.
	Modes []protocol.Mode
	// Extensions are the protocol extensions announced in hook.hello (see
	// the protocol.Ext* constants). Announce only those the caller applies:
	// a Process on its own applies none.
	Extensions []string
	// MaxLineBytes, when set, is announced in hook.hello as the longest
	// reply line read, so that the hook may send replies up to it.
	MaxLineBytes int64
	// ReadHello, when set, reads the hook.hello reply (or the error of the
	// call) in the host's way instead of requiring {"ok": true}: an error
	// it returns fails the start.
	ReadHello func(raw json.RawMessage, err error) error
}

// Exec is the command ready to start: run directly (no shell) in Dir, with
// Env on top of the variables of this process's environment that
// EnvPassthrough and EnvClear let through, in a process group of its own
// so that stopping it reaches every process it started.
func (cmd Command) Exec() *exec.Cmd {
	c := exec.Command(cmd.Argv[0], cmd.Argv[1:]...)
	c.Dir = cmd.Dir
	c.Env = []string{} // not nil, which would mean this process's environment
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if cmd.passes(name) {
			c.Env = append(c.Env, kv)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cmd.Env)) {
		c.Env = append(c.Env, k+"="+cmd.Env[k])
	}
	c.SysProcAttr = groupAttr()
	return c
}

// passes reports whether the runtime's variable of that name goes to the hook.
func (cmd Command) passes(name string) bool {
	if cmd.EnvPassthrough == nil {
		return !cmd.EnvClear
	}
	return slices.ContainsFunc(cmd.EnvPassthrough, func(glob string) bool {
		ok, _ := path.Match(glob, name)
		return ok
	})
}

// ProcessOptions tune a Process. The zero value is ready to use.
type ProcessOptions struct {
	// Conn tunes the connection. Its Logger also receives the hook's stderr,
	// one record per line, and Conn.OnEOF is set by the process.
	Conn ConnOptions
	// HelloTimeout bounds the handshake. Zero means DefaultHelloTimeout.
	HelloTimeout time.Duration
	// StopTimeout is how long Close waits at each step of a shutdown: after
	// closing stdin, then after SIGTERM, before SIGKILL. Zero means
	// DefaultStopTimeout.
	StopTimeout time.Duration
}

// Process is a running hook process and its connection.
type Process struct {
	cmd   Command
	opts  ProcessOptions
	log   *slog.Logger
	child *Child
	conn  *Conn
	hello protocol.HelloResult

	closeOnce sync.Once
}

// Spawn starts a hook process and completes the hook.hello handshake with
// it. The process runs in a process group of its own, so that Close can stop
// every process it started. A failed handshake stops the process.
func Spawn(ctx context.Context, cmd Command, opts ProcessOptions) (*Process, error) {
	p, err := start(cmd, opts)
	if err != nil {
		return nil, err
	}
	timeout := opts.HelloTimeout
	if timeout <= 0 {
		timeout = DefaultHelloTimeout
	}
	hctx, cancel := context.WithTimeoutCause(ctx, timeout, NoReply(timeout))
	defer cancel()
	if err := p.handshake(hctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("hook %s: %w", cmd.Name, err)
	}
	return p, nil
}

func start(cmd Command, opts ProcessOptions) (*Process, error) {
	if len(cmd.Argv) == 0 || cmd.Argv[0] == "" {
		return nil, fmt.Errorf("hook %s: no command", cmd.Name)
	}
	log := opts.Conn.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("hook", cmd.Name)
	child, err := cmd.StartChild(func(line string) { log.Info(line, "stream", "stderr") }, log)
	if err != nil {
		return nil, fmt.Errorf("hook %s: %w", cmd.Name, err)
	}
	p := &Process{cmd: cmd, opts: opts, log: log, child: child}
	connOpts := opts.Conn
	connOpts.Logger = log
	connOpts.OnEOF = func() error {
		// A crash closes stdout a moment before the exit can be waited for;
		// wait for it, so that calls fail with the exit status.
		select {
		case <-child.Exited():
			return child.Exit()
		case <-time.After(time.Second):
			return errors.New("hook closed its stdout but is still running")
		}
	}
	p.conn = NewConn(child.Stdout, child.Stdin, connOpts)
	go func() {
		// The connection ends with the exit status.
		<-child.Exited()
		p.conn.fail(child.Exit())
	}()
	return p, nil
}

func (p *Process) handshake(ctx context.Context) error {
	modes := p.cmd.Modes
	if modes == nil {
		modes = []protocol.Mode{}
	}
	hello := protocol.HelloParams{Name: p.cmd.Name, Version: protocol.Version, Modes: modes, Extensions: p.cmd.Extensions}
	if p.cmd.MaxLineBytes > 0 {
		hello.MaxLineBytes = &p.cmd.MaxLineBytes
	}
	raw, err := p.conn.Call(ctx, protocol.MethodHello, hello)
	if p.cmd.ReadHello != nil {
		_ = json.Unmarshal(raw, &p.hello) // what the host does not read may be anything
		return p.cmd.ReadHello(raw, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", protocol.MethodHello, err)
	}
	if err := protocol.Unmarshal(raw, &p.hello); err != nil {
		return fmt.Errorf("%s result: %w", protocol.MethodHello, err)
	}
	if !p.hello.OK {
		return fmt.Errorf("%s: the hook answered ok: false", protocol.MethodHello)
	}
	return nil
}

// Call sends a request to the hook and waits for its reply; see Conn.Call.
func (p *Process) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return p.conn.Call(ctx, method, params)
}

// Notify sends a notification to the hook; see Conn.Notify.
func (p *Process) Notify(ctx context.Context, method string, params any) error {
	return p.conn.Notify(ctx, method, params)
}

// Hello is what the hook answered to hook.hello.
func (p *Process) Hello() protocol.HelloResult { return p.hello }

// Name is the hook's name.
func (p *Process) Name() string { return p.cmd.Name }

// Pid is the process id of the hook, which is also its process group id.
func (p *Process) Pid() int { return p.child.Pid() }

// Done is closed when the connection ends: the hook exited, closed its
// stdout, or was closed.
func (p *Process) Done() <-chan struct{} { return p.conn.Done() }

// Err says why the connection ended, or is nil while it is open.
func (p *Process) Err() error { return p.conn.Err() }

// Close stops the hook: it closes the hook's stdin, which asks it to finish;
// waits; sends SIGTERM to its process group; waits; then sends SIGKILL.
// Processes the hook started in its group are stopped the same way, even
// when the hook itself exits cleanly. Calls still in flight fail.
func (p *Process) Close() error {
	p.closeOnce.Do(p.stop)
	return nil
}

func (p *Process) stop() {
	grace := p.opts.StopTimeout
	if grace <= 0 {
		grace = DefaultStopTimeout
	}
	p.child.Stop(grace)
	p.conn.fail(ErrClosed)
	// The hook's last lines are read to the end of its stdout before the
	// pipe is closed, unless something it left holds the pipe open.
	select {
	case <-p.conn.readEnd:
	case <-time.After(grace):
	}
	_ = p.conn.Close()
	select {
	case <-p.child.StderrDone():
	case <-time.After(grace):
	}
}

// NoReply is the error of a call that met its deadline, d.
type NoReply time.Duration

func (e NoReply) Error() string { return fmt.Sprintf("no reply within %v", time.Duration(e)) }
func (e NoReply) Unwrap() error { return context.DeadlineExceeded }

// Exited is closed when the hook's process has exited, which may be a
// moment after its connection ended.
func (p *Process) Exited() <-chan struct{} { return p.child.Exited() }

// CallUntil is Call bounded by deadline as well as ctx: a caller that has
// a deadline of its own need not make a context for it. A zero deadline
// bounds nothing.
func (p *Process) CallUntil(ctx context.Context, deadline time.Time, method string, params any) (json.RawMessage, error) {
	return p.conn.call(ctx, deadline, method, params)
}

// NotifyAll sends one notification of method per element of params, as few
// writes as the pipe allows; see Conn.Notify. It returns how many were
// sent.
func NotifyAll[T any](ctx context.Context, p *Process, method string, params []T) (int, error) {
	return notifyAll(ctx, p.conn, method, params)
}
