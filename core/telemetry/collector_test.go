package telemetry_test

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// hookwire and hookwire-bridge, built into one folder, as they ship.
var hookwire, hookwireBridge string

func TestMain(m *testing.M) {
	testbin.MainEach(m, map[string]*string{"../cmd/hookwire": &hookwire, "../cmd/hookwire-bridge": &hookwireBridge})
}

// collector runs the OpenTelemetry Collector of tools/otelcol (go tool
// mage deps builds it), configured by its config.yaml, with its OTLP/HTTP receiver on a free loopback
// port and its file exporter writing to out; endpoint is the receiver's
// URL. Without the build the test fails under CI, and is skipped, saying
// so, elsewhere.
type collector struct{ endpoint, out string }

func startCollector(t *testing.T) collector {
	t.Helper()
	bin, _ := filepath.Abs(filepath.Join("..", "..", "tools", "otelcol", "bin", "otelcol"))
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); err != nil {
		msg := "no OpenTelemetry Collector at tools/otelcol/bin: go tool mage deps builds it"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	addr := freePort(t)
	c := collector{endpoint: "http://" + addr, out: filepath.Join(dir, "out.jsonl")}
	config := filepath.Join("..", "..", "tools", "otelcol", "config.yaml")
	var log strings.Builder
	cmd := exec.Command(bin, "--config", config)
	cmd.Env = append(os.Environ(), "OTELCOL_ENDPOINT="+addr, "OTELCOL_OUT="+c.out)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("the collector's log:\n%s", log.String())
		}
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return c
		}
		select {
		case err := <-exited:
			t.Fatalf("the collector stopped: %v\n%s", err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector did not listen on %s within 30s:\n%s", addr, log.String())
		}
	}
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// received is what the collector wrote: OTLP/JSON, one request a line.
type received struct {
	spans   []otlpSpan
	metrics []string // names
	logs    []otlpLog
}

type otlpAttrs []struct {
	Key   string `json:"key"`
	Value struct {
		String string `json:"stringValue"`
	} `json:"value"`
}

func (a otlpAttrs) get(key string) string {
	for _, kv := range a {
		if kv.Key == key {
			return kv.Value.String
		}
	}
	return ""
}

type otlpSpan struct {
	TraceID    string    `json:"traceId"`
	SpanID     string    `json:"spanId"`
	Parent     string    `json:"parentSpanId"`
	Name       string    `json:"name"`
	Attributes otlpAttrs `json:"attributes"`
	Status     struct {
		Code int `json:"code"`
	} `json:"status"`
}

type otlpLog struct {
	EventName  string    `json:"eventName"`
	TraceID    string    `json:"traceId"`
	SpanID     string    `json:"spanId"`
	Attributes otlpAttrs `json:"attributes"`
	Body       struct {
		String string `json:"stringValue"`
	} `json:"body"`
}

func (c collector) read(t *testing.T) received {
	t.Helper()
	data, err := os.ReadFile(c.out)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	// A line is read once whole: the collector may be writing the last.
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var r received
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		var req struct {
			ResourceSpans []struct {
				ScopeSpans []struct{ Spans []otlpSpan } `json:"scopeSpans"`
			} `json:"resourceSpans"`
			ResourceMetrics []struct {
				ScopeMetrics []struct{ Metrics []struct{ Name string } } `json:"scopeMetrics"`
			} `json:"resourceMetrics"`
			ResourceLogs []struct {
				ScopeLogs []struct {
					LogRecords []otlpLog `json:"logRecords"`
				} `json:"scopeLogs"`
			} `json:"resourceLogs"`
		}
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			t.Fatalf("the collector wrote a line that is not OTLP/JSON: %v\n%.300s", err, line)
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					r.metrics = append(r.metrics, m.Name)
				}
			}
		}
		for _, rl := range req.ResourceLogs {
			for _, sl := range rl.ScopeLogs {
				r.logs = append(r.logs, sl.LogRecords...)
			}
		}
	}
	return r
}

// await reads what the collector wrote until done says it is all there.
func (c collector) await(t *testing.T, done func(received) bool) received {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := c.read(t)
		if done(r) || time.Now().After(deadline) {
			return r
		}
		time.Sleep(100 * time.Millisecond)
	}
}
