//go:build linux

package bridge

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/runtime"
)

// The sockets' folder keeps other users out; should its mode ever be
// loosened, the server still refuses a client of another user before it
// reads a byte of it. A process of user 65534 (nobody) connects here to a
// server whose folder and socket it may reach.
func TestTheServerRefusesAClientOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("acting as a second user needs root, as CI runs; TestASocketFolderOthersMayEnterIsNamedWithTheWayOut covers the folder's mode")
	}
	dir, err := os.MkdirTemp("", "hwp") // a socket's path is short
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o711) // loosened: others may reach the socket
	socket := filepath.Join(dir, "s.sock")
	var log lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ServeOptions{Agent: claudeCode, Socket: socket, Logger: slog.New(slog.NewTextHandler(&log, nil)),
			Process: runtime.ProcessConfig{Command: []string{"python3", "-c", "import sys; sys.stdin.read()"}}})
	}()
	defer func() { cancel(); <-done }()
	// Listening, and its mode restricted: the server binds, then sets 0600,
	// which would undo a chmod made between the two.
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if fi, err := os.Stat(socket); err == nil && fi.Mode().Perm() == 0o600 {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the server does not listen after 10 s; its log:\n%s", log.String())
		}
	}
	os.Chmod(socket, 0o777)
	// Debian's own Python, which every user may run (a pyenv's lives in
	// root's home folder).
	client := exec.Command("/usr/bin/python3", "-c", `import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
got = b""
try:  # the server may have closed the connection already
    s.sendall(b'{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"id"}}\n')
    while True:
        chunk = s.recv(4096)
        if not chunk:
            break
        got += chunk
except (BrokenPipeError, ConnectionResetError):
    pass
print(len(got))`, socket)
	client.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := client.CombinedOutput()
	if err != nil {
		t.Fatalf("the client of user 65534 could not connect (%v): %s", err, out)
	}
	if strings.TrimSpace(string(out)) != "0" {
		t.Errorf("the client of user 65534 received %s bytes: want none", strings.TrimSpace(string(out)))
	}
	if !strings.Contains(log.String(), "refused a connection") || !strings.Contains(log.String(), "65534") {
		t.Errorf("the server's log does not say it refused user 65534:\n%s", log.String())
	}
}
