package telemetry_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/telemetry"
	"github.com/hookwire/hookwire/core/telemetry/otlpenv"
)

// clearOTel unsets every variable these tests set, for the test's time.
func clearOTel(t *testing.T) {
	for _, v := range []string{"OTEL_SDK_DISABLED", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL",
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_METRICS_EXPORTER", "OTEL_LOGS_EXPORTER"} {
		t.Setenv(v, "")
	}
}

func TestNothingIsExportedUnlessAnEndpointIsSetAndTheSDKIsNotDisabled(t *testing.T) {
	clearOTel(t)
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	if e := telemetry.FromEnv(logger); e != nil {
		t.Fatal("an exporter with no endpoint set")
	}
	var opts runtime.Options
	(*telemetry.Exporter)(nil).Attach(&opts, audit.Source{Host: "test"})
	if opts.OnCall != nil || opts.OnEvent != nil {
		t.Error("a nil exporter attached itself")
	}
	if err := (*telemetry.Exporter)(nil).Close(); err != nil {
		t.Error(err)
	}

	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_SDK_DISABLED", "TRUE")
	if e := telemetry.FromEnv(logger); e != nil || otlpenv.Set() {
		t.Error("an exporter with OTEL_SDK_DISABLED=true")
	}
	if log.Len() > 0 {
		t.Errorf("logged without cause: %s", log.String())
	}
}

func TestEachSignalIsExportedWhereItsEndpointIsSetAndItsExporterIsNotNone(t *testing.T) {
	clearOTel(t)
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:1/v1/traces")
	if got := otlpenv.Wanted(); len(got) != 1 || got[0] != otlpenv.Traces {
		t.Errorf("traces' endpoint alone: %v", got)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	if got := otlpenv.Wanted(); len(got) != 2 || got[0] != otlpenv.Traces || got[1] != otlpenv.Logs {
		t.Errorf("metrics' exporter none: %v", got)
	}
}

// hookwire speaks OTLP over HTTP alone: a user who asks for gRPC is told
// so, and how to fix it, rather than left with nothing sent in silence.
func TestAProtocolOtherThanHTTPProtobufIsRefusedWithAMessage(t *testing.T) {
	clearOTel(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	var log bytes.Buffer
	if e := telemetry.FromEnv(slog.New(slog.NewTextHandler(&log, nil))); e != nil {
		t.Fatal("an exporter for grpc")
	}
	for _, want := range []string{"grpc", "http/protobuf", "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "4318"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the message does not say %q: %s", want, log.String())
		}
	}
}

// A receiver that is down holds no host up: Close returns within its bound.
func TestCloseEndsWithinItsBoundWhenTheReceiverIsDown(t *testing.T) {
	clearOTel(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:"+strings.TrimPrefix(freePort(t), "127.0.0.1:"))
	e := telemetry.FromEnv(slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	if e == nil {
		t.Fatal("no exporter")
	}
	var opts runtime.Options
	e.Attach(&opts, audit.Source{Host: "test"})
	opts.OnCall(runtime.CallRecord{Hook: "h", Method: "hook.before_tool", Duration: time.Millisecond})
	start := time.Now()
	e.Close()
	if took := time.Since(start); took > telemetry.CloseTimeout+time.Second {
		t.Errorf("Close took %v", took)
	}
}
