package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/hookwire/hookwire/core/inspect"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// inspect times hook.before_tool through the runtime to the Go SDK hook
// with the hook-in that `hookwire run` gives the runtime for `hookwire
// inspect` (OnCall, the hook's stderr): without it; with it and no
// inspector running, which must cost nothing; and with an inspector
// listening, taking every call. The inspector runs in this process, where
// its reading competes with the runtime for the same cores: a harder case
// than its own process.
func (b *bench) inspect() error {
	dir, err := os.MkdirTemp("", "hookwire-bench-inspect")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o700)
	srv, err := inspect.Start(inspect.Options{Socket: filepath.Join(dir, "inspect.sock"), Logs: dir, Logger: b.env.log.logger()})
	if err != nil {
		return err
	}
	defer srv.Close()

	call := toolCall()
	var cs []*contender
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
			defer pub.Close()
			opts.OnCall, opts.Trace, opts.Logger = pub.Call, pub.Wire, slog.New(pub.Logger(opts.Logger.Handler()))
		}
		h, err := b.env.startWith(b.ctx, "go", sdk, modeContinue, c.id, opts)
		if err != nil {
			return err
		}
		defer h.rt.Close()
		cs = append(cs, &contender{id: c.id, label: c.label, do: func() error {
			_, d := h.rt.BeforeTool(b.ctx, call)
			return expect(d, protocol.ActionContinue)
		}})
	}
	fmt.Fprintf(b.progress, "  %d contenders, %d calls each after %d to warm up\n", len(cs), b.cfg.Calls, b.cfg.Warmup)
	turn := func(record bool) func(i, n int) {
		return func(i, n int) {
			for range n {
				cs[i].measure(record)
			}
		}
	}
	interleave(b.rng, len(cs), b.cfg.Warmup, b.cfg.Rounds, turn(false))
	interleave(b.rng, len(cs), b.cfg.Calls, b.cfg.Rounds, turn(true))
	b.failures(cs)
	none := summarize(cs[0].samples)
	for _, c := range cs {
		s := summarize(c.samples)
		b.res.Inspect = append(b.res.Inspect, row{ID: c.id, Label: c.label, summary: s, VsLoop: ratio(s.Median, none.Median)})
	}
	if got := srv.Sessions(); got < 1 {
		return fmt.Errorf("the inspector saw no session")
	}
	return nil
}
