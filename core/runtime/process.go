package runtime

import (
	"bufio"
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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/internal/pgroup"
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
	// IgnoreHello reads nothing of the hook.hello reply, as PicoClaw does:
	// a reply that is an error, says ok: false or never comes is logged
	// and the hook runs.
	IgnoreHello bool
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
	c.SysProcAttr = pgroup.Attr()
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
	proc  *exec.Cmd
	conn  *Conn
	hello protocol.HelloResult

	exited     chan struct{} // closed once the process has been waited for
	exitErr    error
	stderrDone chan struct{}

	mu         sync.Mutex
	lastStderr string

	closeOnce sync.Once
	token     string // marks the hook's descendants (tokenVar)
}

// tokenVar is the variable that marks every process a hook starts, so that
// one which left the hook's process group and lost its parent is still
// known as the hook's when the hook stops (Linux).
const tokenVar = "HOOKWIRE_HOOK_TOKEN"

// spawned counts the hook processes started, for their tokens.
var spawned atomic.Uint64

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
	hctx, cancel := context.WithTimeoutCause(ctx, timeout, noReply(timeout))
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
	p := &Process{
		cmd:        cmd,
		opts:       opts,
		log:        log,
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}

	// Pipes of our own rather than exec's: Wait must return when the hook
	// exits, even while a child it forked still holds its stdout or stderr.
	var pipes [6]*os.File
	closeAll := func() {
		for _, f := range pipes {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := 0; i < len(pipes); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("hook %s: %w", cmd.Name, err)
		}
		pipes[i], pipes[i+1] = r, w
	}
	stdinR, stdinW, stdoutR, stdoutW, stderrR, stderrW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]

	c := cmd.Exec()
	c.Stdin, c.Stdout, c.Stderr = stdinR, stdoutW, stderrW
	becomeSubreaper()
	p.token = strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(spawned.Add(1), 10)
	c.Env = append(c.Env, tokenVar+"="+p.token)
	if cmd.Dir != "" {
		// exec blames the program for a missing working directory.
		if info, err := os.Stat(cmd.Dir); err != nil || !info.IsDir() {
			closeAll()
			return nil, fmt.Errorf("hook %s: its directory %s does not exist or is not a directory", cmd.Name, cmd.Dir)
		}
	}
	if err := c.Start(); err != nil {
		closeAll()
		return nil, fmt.Errorf("hook %s: %w", cmd.Name, err)
	}
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()
	p.proc = c

	connOpts := opts.Conn
	connOpts.Logger = log
	connOpts.OnEOF = func() error {
		// A crash closes stdout a moment before the exit can be waited for;
		// wait for it, so that calls fail with the exit status.
		select {
		case <-p.exited:
			return p.exitErr
		case <-time.After(time.Second):
			return errors.New("hook closed its stdout but is still running")
		}
	}
	p.conn = NewConn(stdoutR, stdinW, connOpts)
	go p.readStderr(stderrR)
	go p.wait()
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
	if p.cmd.IgnoreHello {
		if err == nil && (json.Unmarshal(raw, &p.hello) != nil || !p.hello.OK) {
			err = fmt.Errorf("the reply is not {\"ok\": true}: %s", raw)
		}
		if err != nil {
			p.log.Warn("hook.hello failed; the hook runs anyway, as its host does not read the reply", "error", err)
		}
		return nil
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

// wait reaps the process and ends the connection with its exit status.
func (p *Process) wait() {
	err := p.proc.Wait()
	// The hook's last words on stderr explain a crash best; give the reader
	// a moment to take them in.
	select {
	case <-p.stderrDone:
	case <-time.After(100 * time.Millisecond):
	}
	p.exitErr = p.describeExit(err)
	close(p.exited)
	p.conn.fail(p.exitErr)
}

func (p *Process) describeExit(err error) error {
	var what string
	var exit *exec.ExitError
	switch {
	case err == nil:
		what = "hook exited with status 0"
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			what = "hook was killed by " + ws.Signal().String()
		} else {
			what = fmt.Sprintf("hook exited with status %d", exit.ExitCode())
		}
	default:
		what = "hook exited: " + err.Error()
	}
	p.mu.Lock()
	last := p.lastStderr
	p.mu.Unlock()
	if last != "" {
		return fmt.Errorf("%s (last stderr line: %q)", what, last)
	}
	return errors.New(what)
}

// readStderr logs the hook's stderr, one record per line.
func (p *Process) readStderr(f *os.File) {
	defer close(p.stderrDone)
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		line, err := readLine(br, 1<<20)
		var tooLong *LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			p.log.Warn("stderr line dropped", "bytes", tooLong.Size)
			continue
		case err != nil:
			return
		}
		s := string(line)
		p.mu.Lock()
		p.lastStderr = s
		p.mu.Unlock()
		p.log.Info(s, "stream", "stderr")
	}
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
func (p *Process) Pid() int { return p.proc.Process.Pid }

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
	pgid := p.Pid()
	_ = p.conn.CloseWrite()
	if !p.waitExit(grace) {
		p.log.Warn("hook did not exit after its stdin closed; sending SIGTERM", "after", grace)
		pgroup.Terminate(pgid)
		if !p.waitExit(grace) {
			p.log.Warn("hook did not exit after SIGTERM; sending SIGKILL", "after", grace)
			pgroup.Kill(pgid)
			<-p.exited
		}
	}
	// What the hook started must not outlive it: in its group, and
	// anywhere below it (setsid).
	if groupAlive(pgid) {
		pgroup.Terminate(pgid)
		if !waitGroupGone(pgid, grace) {
			pgroup.Kill(pgid)
			waitGroupGone(pgid, 5*time.Second)
		}
	}
	stopDescendants(pgid, p.token, grace)
	p.conn.fail(ErrClosed)
	// The hook's last lines are read to the end of its stdout before the
	// pipe is closed, unless something it left holds the pipe open.
	select {
	case <-p.conn.readEnd:
	case <-time.After(grace):
	}
	_ = p.conn.Close()
	select {
	case <-p.stderrDone:
	case <-time.After(grace):
	}
}

func (p *Process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

func waitGroupGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
