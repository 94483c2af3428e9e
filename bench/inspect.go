package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// inspect times hook.before_tool through the runtime to the Go SDK hook
// with the hook-in that `hookwire run` gives the runtime for `hookwire
// inspect` (OnCall, the hook's stderr): without it; with it and no
// inspector running, which must cost nothing; and with an inspector
// listening, taking every call: `hookwire inspect`, in its own process as
// a user runs it.
func (b *bench) inspect() error {
	dir, err := os.MkdirTemp("", "hookwire-bench-inspect")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o700)
	cli := filepath.Join(b.env.bin, "hookwire")
	if err := build(filepath.Join(b.env.root, "core"), "go", "build", "-o", cli, "./cmd/hookwire"); err != nil {
		return err
	}
	inspector := exec.Command(cli, "inspect")
	inspector.Env = append(os.Environ(), "HOOKWIRE_INSPECT_SOCKET="+filepath.Join(dir, "inspect.sock"))
	out, err := inspector.StdoutPipe()
	if err != nil {
		return err
	}
	if err := inspector.Start(); err != nil {
		return err
	}
	defer func() {
		inspector.Process.Signal(os.Interrupt)
		inspector.Wait()
	}()
	url, err := bufio.NewReader(out).ReadString('\n') // once it listens
	if err != nil {
		return fmt.Errorf("hookwire inspect: %v", err)
	}

	call := toolCall()
	var cs []*contender
	var closers []func() // the runtimes, then the sessions: the last item is the session's end
	for _, c := range []struct {
		id, label string
		socket    string // "": no hook-in
	}{
		{"inspect-none", "no hook-in", ""},
		{"inspect-idle", "hook-in, no inspector running", filepath.Join(dir, "none.sock")},
		{"inspect-listening", "hook-in, hookwire inspect listening", filepath.Join(dir, "inspect.sock")},
	} {
		opts := runtime.Options{Logger: b.env.log.logger(), NoSessionEvents: true}
		if c.socket != "" {
			pub := feed.OpenAt(c.socket, feed.Info{Kind: "run", Host: "reference", Command: "bench"})
			if !pub.Active() { // as feed.Listening does
				pub = nil
			}
			closers = append(closers, pub.Close)
			pub.Attach(&opts)
		}
		h, err := b.env.startWith(b.ctx, "go", sdk, modeContinue, c.id, opts)
		if err != nil {
			return err
		}
		closers = append([]func(){func() { h.rt.Close() }}, closers...)
		cs = append(cs, &contender{id: c.id, label: c.label, do: func() error {
			_, d := h.rt.BeforeTool(b.ctx, call)
			return expect(d, protocol.ActionContinue)
		}})
	}
	b.res.Inspect = b.againstFirst(cs)
	for _, c := range closers {
		c()
	}
	return inspected(strings.TrimSpace(strings.TrimPrefix(url, "hookwire inspect: ")), b.cfg.Calls+b.cfg.Warmup)
}

// againstFirst measures the contenders of a round trip with a hook-in,
// the first with none: each row's VsLoop is against the first's median.
func (b *bench) againstFirst(cs []*contender) []row {
	fmt.Fprintf(b.progress, "  %d contenders, %d calls each after %d to warm up\n", len(cs), b.cfg.Calls, b.cfg.Warmup)
	b.measure(cs, b.cfg.Warmup, b.cfg.Rounds, b.cfg.Calls, b.cfg.Rounds)
	none := summarize(cs[0].samples)
	var rows []row
	for _, c := range cs {
		s := summarize(c.samples)
		rows = append(rows, row{ID: c.id, Label: c.label, summary: s, VsLoop: ratio(s.Median, none.Median)})
	}
	return rows
}

// inspected checks that the inspector at url took every call of the
// session that was listened to.
func inspected(url string, calls int) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		var sessions []struct {
			Calls int  `json:"calls"`
			Ended bool `json:"ended"`
		}
		resp, err := http.Get(strings.Replace(url, "/?token=", "/api/sessions?token=", 1))
		if err != nil {
			return err
		}
		err = json.NewDecoder(resp.Body).Decode(&sessions)
		resp.Body.Close()
		if err != nil {
			return err
		}
		// The hello, then every call.
		if len(sessions) == 1 && sessions[0].Ended && sessions[0].Calls == calls+1 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the inspector has %+v, want one session of %d calls", sessions, calls+1)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
