package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the warm floor's relay, as the bench is.
func TestMain(m *testing.M) {
	relayIfAsked()
	os.Exit(m.Run())
}

// TestEveryContenderAnswers runs the whole benchmark with tiny counts. It
// times nothing: it checks that every contender of every section answered
// as it should, so that `go tool mage bench` cannot rot unseen.

func TestEveryContenderAnswers(t *testing.T) {
	cfg := config{
		Calls: 12, Warmup: 4, Rounds: 3,
		ConcurrentCalls: 16, Callers: 8,
		Payloads: []payloadSize{{Bytes: 1 << 10, Calls: 2}, {Bytes: 100 << 10, Calls: 2}},
		Events:   60, LLMDelay: 0,
		Startups: 1,
		IdleGap:  10 * time.Millisecond,
	}
	var progress bytes.Buffer
	res, err := run(context.Background(), cfg, "..", &progress)
	if err != nil {
		t.Fatalf("%v\nprogress:\n%s", err, progress.String())
	}
	for _, f := range res.Failures {
		t.Error(f)
	}

	counts := func(section string, rows []row, want int, ids ...string) {
		t.Helper()
		seen := map[string]bool{}
		for _, r := range rows {
			seen[r.ID] = true
			if r.N != want {
				t.Errorf("%s: %s has %d samples, want %d", section, r.ID, r.N, want)
			}
		}
		for _, id := range ids {
			if !seen[id] {
				t.Errorf("%s: no figures for %s", section, id)
			}
		}
	}
	hooks := []string{"go-raw", "go-sdk", "python-raw", "python-sdk", "node-raw", "node-sdk"}
	counts("round-trip", res.RoundTrip, cfg.Calls, append([]string{"pipe", "go-raw-bare", "go-raw-conn", "go-tap"}, hooks...)...)
	counts("concurrency", res.Concurrency, cfg.ConcurrentCalls, hooks...)
	counts("telemetry", res.Telemetry, cfg.Calls, "otel-none", "otel-unset", "otel-set")
	counts("start-up", res.Startup, cfg.Startups, "go-bare", "python-bare", "python-stdlib", "node-bare", "go-sdk", "python-sdk", "node-sdk")
	counts("bridge", res.Bridge, 10, "bridge-first", "mcp-first", "mcp-cold", "bridge-warm", "command-python", "mcp-warm", "warm-floor",
		"command-python-idle", "mcp-warm-idle", "warm-floor-idle", "pages", "pages-idle")

	// 2 sizes x 2 modes x (the floor and 3 languages x loop and SDK).
	if len(res.Payload) != 2*2*7 {
		t.Errorf("payload: %d rows, want 28", len(res.Payload))
	}
	for _, p := range res.Payload {
		if p.N != 2 || p.Failures != 0 {
			t.Errorf("payload: %s %s at %d bytes: %d samples, %d failures", p.ID, p.Mode, p.History, p.N, p.Failures)
		}
	}

	turns := (cfg.Events + eventsPerTurn - 1) / eventsPerTurn
	for _, o := range res.Observe {
		if o.N != turns || o.Events != int64(turns*eventsPerTurn) {
			t.Errorf("observe %s: %s: %d turns and %d events, want %d and %d", o.Pace, o.ID, o.N, o.Events, turns, turns*eventsPerTurn)
		}
	}
	if len(res.Observe) != 3*4 {
		t.Errorf("observe: %d rows, want 12", len(res.Observe))
	}

	for _, m := range append(res.Memory.AfterCalls, res.Memory.AfterPayloads...) {
		if m.Peak <= 0 {
			t.Errorf("memory: %s has no peak RSS", m.ID)
		}
	}

	// The report and the JSON are made from every section.
	var table bytes.Buffer
	res.print(&table)
	for _, heading := range []string{"round-trip", "concurrency", "payloads", "observe", "start-up", "memory", "targets"} {
		if !strings.Contains(table.String(), heading) {
			t.Errorf("the table has no %s section:\n%s", heading, table.String())
		}
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back results
	if err := json.Unmarshal(data, &back); err != nil || len(back.Targets) != len(res.Targets) {
		t.Errorf("results.json does not read back: %v", err)
	}
}
