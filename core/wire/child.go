package wire

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Child is a hook command started with pipes of our own (see StartPiped),
// in a process group of its own: it is waited for as soon as it exits, its
// stderr is read line by line, and Stop ends it and whatever it started. A
// Process is a Child spoken to over a connection; the conformance suite
// reads a Child's stdout for itself.
type Child struct {
	Piped
	log   *slog.Logger
	token string // marks the child's descendants (tokenVar)

	exited     chan struct{} // closed once the process has been waited for
	exit       error         // how it exited, set before exited is closed
	exitedAt   time.Time
	stderrDone chan struct{}

	mu         sync.Mutex
	lastStderr string
}

// tokenVar is the variable that marks every process a hook starts, so that
// one which left the hook's process group and lost its parent is still
// known as the hook's when the hook stops (Linux).
const tokenVar = "HOOKWIRE_HOOK_TOKEN"

// spawned counts the hook processes started, for their tokens.
var spawned atomic.Uint64

// StartChild starts the command (see Exec). onStderr, when set, is given
// each line of the command's stderr, without its line break. log, when not
// nil, is told when Stop has to resort to signals.
func (cmd Command) StartChild(onStderr func(line string), log *slog.Logger) (*Child, error) {
	if cmd.Dir != "" {
		// exec blames the program for a missing working directory.
		if info, err := os.Stat(cmd.Dir); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("its directory %s does not exist or is not a directory", cmd.Dir)
		}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	becomeSubreaper()
	c := &Child{
		log:        log,
		token:      strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(spawned.Add(1), 10),
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	env := map[string]string{}
	for k, v := range cmd.Env {
		env[k] = v
	}
	env[tokenVar] = c.token // last, so that it wins
	cmd.Env = env
	pp, err := cmd.StartPiped(nil)
	if err != nil {
		return nil, err
	}
	c.Piped = pp
	go c.readStderr(onStderr)
	go c.wait()
	return c, nil
}

// Pid is the process id of the command, which is also its process group id.
func (c *Child) Pid() int { return c.Cmd.Process.Pid }

// Exited is closed once the command has exited and been waited for.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Exit says how the command exited, with its last line on stderr: "hook
// exited with status 1 (last stderr line: ...)". Only once Exited is closed.
func (c *Child) Exit() error { return c.exit }

// ExitedAt is when the command exited. Only once Exited is closed.
func (c *Child) ExitedAt() time.Time { return c.exitedAt }

// Success reports whether the command exited with status 0. Only once
// Exited is closed.
func (c *Child) Success() bool { return c.Cmd.ProcessState.Success() }

// StderrDone is closed once the command's stderr has ended.
func (c *Child) StderrDone() <-chan struct{} { return c.stderrDone }

func (c *Child) wait() {
	err := c.Cmd.Wait()
	c.exitedAt = time.Now()
	// The last words on stderr explain an exit best; give the reader a
	// moment to take them in.
	select {
	case <-c.stderrDone:
	case <-time.After(100 * time.Millisecond):
	}
	c.exit = c.describeExit(err)
	close(c.exited)
}

func (c *Child) describeExit(err error) error {
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
	c.mu.Lock()
	last := c.lastStderr
	c.mu.Unlock()
	if last != "" {
		return fmt.Errorf("%s (last stderr line: %q)", what, last)
	}
	return errors.New(what)
}

// readStderr hands the command's stderr on, one line at a time.
func (c *Child) readStderr(onStderr func(string)) {
	defer close(c.stderrDone)
	defer c.Stderr.Close()
	br := bufio.NewReader(c.Stderr)
	for {
		line, err := readLine(br, 1<<20)
		var tooLong *LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			c.log.Warn("stderr line dropped", "bytes", tooLong.Size)
			continue
		case err != nil:
			return
		}
		s := string(line)
		c.mu.Lock()
		c.lastStderr = s
		c.mu.Unlock()
		if onStderr != nil {
			onStderr(s)
		}
	}
}

// Stop ends the command: it closes the command's stdin, which asks it to
// finish; waits grace; sends SIGTERM to its process group; waits grace;
// then sends SIGKILL. Processes it started, in its group or anywhere below
// it, are stopped the same way, even when the command itself exits
// cleanly. Stop returns once the command has exited; call it once.
func (c *Child) Stop(grace time.Duration) {
	pgid := c.Pid()
	_ = c.Stdin.Close()
	if !c.waitExit(grace) {
		c.log.Warn("hook did not exit after its stdin closed; sending SIGTERM", "after", grace)
		terminateGroup(pgid)
		if !c.waitExit(grace) {
			c.log.Warn("hook did not exit after SIGTERM; sending SIGKILL", "after", grace)
			killGroup(pgid)
			<-c.exited
		}
	}
	// What the command started must not outlive it: in its group, and
	// anywhere below it (setsid).
	if groupAlive(pgid) {
		terminateGroup(pgid)
		if !waitGroupGone(pgid, grace) {
			killGroup(pgid)
			waitGroupGone(pgid, 5*time.Second)
		}
	}
	stopDescendants(pgid, c.token, grace)
	c.release()
}

// waitExit reports whether the command exits within d.
func (c *Child) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.exited:
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
