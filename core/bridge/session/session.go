// Package session is where a session of the bridge lives and how an
// invocation reaches it: a session's server listens on a Unix socket in a
// folder only its user may enter, with its log beside it; an invocation
// finds the socket by the session's key, starts the server when there is
// none, sends the agent's event as one request line and reads one reply
// line. It knows nothing of agents or hooks: the bridge (core/bridge)
// names the session, gives the command that runs its server, and answers
// the events.
package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/internal/filelock"
)

// Session is where a session's server lives: its socket, its log.
type Session struct {
	Socket, Log, lock string
}

// DefaultDir is the folder of the bridge's sockets and logs:
// $XDG_RUNTIME_DIR/hookwire, or hookwire-UID in the temporary folder.
func DefaultDir() string { return feed.Dir() }

// Of is the server, in dir, of an agent's session for a hook: one per
// agent, session, working folder and server, the command that starts it
// but for its socket. That command holds every flag the server runs with
// and the hook's command, so that an event never reaches a server started
// with other flags: a settings file may name one hook twice, once with
// --failure-policy open or without --env-clear, and each entry must get
// the server its own flags ask for.
func Of(dir, agent, session string, server []string) Session {
	cwd, _ := os.Getwd()
	sum := sha256.Sum256([]byte(strings.Join(append([]string{agent, session, cwd}, server...), "\x00")))
	base := filepath.Join(dir, agent+"-"+hex.EncodeToString(sum[:8]))
	return Session{Socket: base + ".sock", Log: base + ".log", lock: filepath.Join(dir, "start.lock")}
}

// PrivateDir makes dir, or checks it: a folder of this user's that no
// one else may enter, so that no other user can reach a socket in it.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return feed.CheckDir(dir)
}

// Connect reaches the session's server, starting it when there is none:
// server is the command that runs it on a socket, and startTimeout bounds
// the wait until it listens (zero: 10 s). A lock file makes sure that two
// events at once start one server: one for the folder, held only until the
// new server listens, so that no file is left per session. started is true
// when this call started it.
func (s Session) Connect(ctx context.Context, server func(socket string) []string, startTimeout time.Duration) (conn net.Conn, started bool, err error) {
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
	conn, err = s.start(ctx, server(s.Socket), startTimeout)
	return conn, err == nil, err
}

// start runs a new server, argv, detached from this invocation, and waits
// until it listens.
func (s Session) start(ctx context.Context, argv []string, timeout time.Duration) (net.Conn, error) {
	sweep(filepath.Dir(s.Log), time.Now().Add(-LogsKept))
	log, err := os.OpenFile(s.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	detach(cmd) // it outlives this invocation
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the session's server: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
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

// lastLine is the last line of a file that is not empty.
func lastLine(path string) string {
	data, _ := os.ReadFile(path)
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(lines) == 0 {
		return ""
	}
	return string(lines[len(lines)-1])
}
