package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/telemetry"
)

// telemetry times hook.before_tool through the runtime to the Go SDK hook
// with the OpenTelemetry exporter that hookwire run attaches: with none;
// with the OTEL_EXPORTER_OTLP_* variables unset, which must cost nothing;
// and with them set, every call exported (a span, metrics, a log record)
// to the OpenTelemetry Collector that go tool mage deps builds
// (tools/otelcol), in its own process.
func (b *bench) telemetry() error {
	dir, err := os.MkdirTemp("", "hookwire-bench-otel")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	endpoint, stop, err := startCollector(b.env.root, dir)
	if err != nil {
		return err
	}
	defer stop()

	call := toolCall()
	var cs []*contender
	var closers []func() error
	for _, c := range []struct {
		id, label string
		endpoint  string // "": the variables unset
		attach    bool
	}{
		{"otel-none", "no exporter", "", false},
		{"otel-unset", "exporter, OTEL_EXPORTER_OTLP_ENDPOINT unset", "", true},
		{"otel-set", "exporter, OTEL_EXPORTER_OTLP_ENDPOINT set: a collector receives", endpoint, true},
	} {
		opts := runtime.Options{Logger: b.env.log.logger(), NoSessionEvents: true}
		if c.attach {
			os.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.endpoint)
			exporter := telemetry.FromEnv(opts.Logger) // as hookwire run does
			os.Unsetenv("OTEL_EXPORTER_OTLP_ENDPOINT")
			if (exporter != nil) != (c.endpoint != "") {
				return fmt.Errorf("%s: exporter %v with the endpoint %q", c.id, exporter, c.endpoint)
			}
			exporter.Attach(&opts, audit.Source{Host: "bench"})
			closers = append(closers, exporter.Close)
		}
		h, err := b.env.startWith(b.ctx, "go", sdk, modeContinue, c.id, opts)
		if err != nil {
			return err
		}
		closers = append([]func() error{h.rt.Close}, closers...)
		cs = append(cs, &contender{id: c.id, label: c.label, do: func() error {
			_, d := h.rt.BeforeTool(b.ctx, call)
			return expect(d, protocol.ActionContinue)
		}})
	}
	b.res.Telemetry = b.againstFirst(cs)
	for _, c := range closers {
		if err := c(); err != nil {
			return fmt.Errorf("closing: %w", err)
		}
	}
	return nil
}

// startCollector runs tools/otelcol's collector on a free loopback port,
// writing what it receives into dir; endpoint is its OTLP/HTTP URL.
func startCollector(root, dir string) (endpoint string, stop func(), err error) {
	bin := filepath.Join(root, "tools", "otelcol", "bin", "otelcol")
	if _, err := os.Stat(bin); err != nil {
		return "", nil, fmt.Errorf("no OpenTelemetry Collector at %s: go tool mage deps builds it", bin)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--config", filepath.Join(root, "tools", "otelcol", "config.yaml"))
	cmd.Env = append(os.Environ(), "OTELCOL_ENDPOINT="+addr, "OTELCOL_OUT="+filepath.Join(dir, "out.jsonl"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return "http://" + addr, stop, nil
		}
	}
	stop()
	return "", nil, fmt.Errorf("the collector did not listen on %s within 30s", addr)
}
