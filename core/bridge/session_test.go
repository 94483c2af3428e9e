//go:build !windows

package bridge

import (
	"bytes"
	"context"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/bridge/session"
	"github.com/hookwire/hookwire/core/runtime"
)

// Every flag of the bridge but --dir (in the socket's path already) goes
// to the session's server and into the session's key: an event never
// reaches a server that runs with other flags than its own. A flag added
// later is covered without a line here.
func TestEveryFlagOfTheBridgeReachesTheServerAndKeysTheSession(t *testing.T) {
	fs := flag.NewFlagSet("hookwire-bridge", flag.ContinueOnError)
	Command(fs, nil, nil)
	hook := []string{"python3", "guard.py"}
	server := func(socket string) []string {
		return serverArgv(fs, []string{"hookwire-bridge"}, socket, "claude-code", hook)
	}
	key := func() string { return session.Of(t.TempDir(), claudeCode.Name, "s", server("")).Socket }
	base := filepath.Base(key())
	checked := 0
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "dir" || f.Name == "serve" || f.Name == "log" {
			return
		}
		before := f.Value.String()
		defer f.Value.Set(before)
		for _, v := range []string{"open", "7s", "true"} {
			if f.Value.Set(v) == nil && f.Value.String() != before {
				break
			}
		}
		if f.Value.String() == before {
			t.Fatalf("--%s: no test value changes it", f.Name)
		}
		if filepath.Base(key()) == base {
			t.Errorf("--%s=%s: the session's key is the same as without it", f.Name, f.Value.String())
		}
		// The server reads the flag back as it was given.
		argv := server(filepath.Join("d", "claude-code-1.sock"))
		back := flag.NewFlagSet("server", flag.ContinueOnError)
		Command(back, nil, nil)
		if err := back.Parse(argv[1:]); err != nil {
			t.Fatalf("the server's command line %q: %v", argv, err)
		}
		if got := back.Lookup(f.Name).Value.String(); got != f.Value.String() {
			t.Errorf("--%s: the server reads %q, given %q", f.Name, got, f.Value.String())
		}
		if got := back.Args(); strings.Join(got, " ") != "claude-code -- python3 guard.py" {
			t.Errorf("--%s: the server's agent and hook are %q", f.Name, got)
		}
		checked++
	})
	if checked < 8 {
		t.Errorf("%d flags checked: want every flag of the server's (failure policy, timeout, deadline, intercept, env-clear, env-passthrough, name, idle)", checked)
	}
}

// lockedBuffer is a log that goroutines write while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Without --idle, a session's server stops after its agent's idle time:
// an agent that ends some sessions without a session end (Qwen Code's
// headless runs) gets a short one, so that its hooks do not pile up.
func TestWithoutIdleASessionStopsAfterItsAgentsIdleTime(t *testing.T) {
	if qwenCode.IdleTime() >= DefaultIdle || qwenCode.IdleTime() > 10*time.Minute {
		t.Errorf("Qwen Code's sessions stop after %v with no event: want a few minutes, below the %v of the others", qwenCode.IdleTime(), DefaultIdle)
	}
	if claudeCode.IdleTime() != DefaultIdle {
		t.Errorf("Claude Code's sessions stop after %v: want %v", claudeCode.IdleTime(), DefaultIdle)
	}
	dir, err := os.MkdirTemp("", "hwi") // a socket's path is short
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	agent := *qwenCode
	agent.Idle = 300 * time.Millisecond // Qwen Code's table, with an idle time a test can wait for
	hook := `import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "hook.hello":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True, "modes": ["tool"]}}), flush=True)
`
	var log lockedBuffer
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		done <- Serve(ctx, ServeOptions{Agent: &agent, Socket: filepath.Join(dir, "s.sock"), Logger: slog.New(slog.NewTextHandler(&log, nil)),
			Process: runtime.ProcessConfig{Command: []string{"python3", "-c", hook}}})
	}()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(log.String(), "no event for the idle time") || !strings.Contains(log.String(), "idle=300ms") {
			t.Errorf("the server stopped with %v; its log:\n%s\nwant it stopped for the agent's idle time, 300ms", err, log.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the server still runs 20 s after the agent's idle time of 300ms; its log:\n%s", log.String())
	}
}
