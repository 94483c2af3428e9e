//go:build !windows

package bridge

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

// Every flag of the bridge but --dir (in the socket's path already) goes
// to the session's server and into the session's key: an event never
// reaches a server that runs with other flags than its own. A flag added
// later is covered without a line here.
func TestEveryFlagOfTheBridgeReachesTheServerAndKeysTheSession(t *testing.T) {
	fs := flag.NewFlagSet("hookwire-bridge", flag.ContinueOnError)
	Command(fs)
	hook := []string{"python3", "guard.py"}
	server := func(socket string) []string {
		return serverArgv(fs, []string{"hookwire-bridge"}, socket, "claude-code", hook)
	}
	key := func() string { return SessionOf(t.TempDir(), claudeCode, Event{Session: "s"}, server("")).Socket }
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
		Command(back)
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
