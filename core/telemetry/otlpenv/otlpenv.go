// Package otlpenv reads the standard OpenTelemetry variables that say
// whether, and how, to export over OTLP, and links nothing else:
// hookwire-bridge asks it on every event of an agent, and the
// OpenTelemetry SDK (package telemetry) costs milliseconds of start-up.
package otlpenv

import (
	"os"
	"strings"
)

// Signal is one kind of telemetry: traces, metrics or logs.
type Signal string

const (
	Traces  Signal = "traces"
	Metrics Signal = "metrics"
	Logs    Signal = "logs"
)

// Signals are every signal, in the order the variables' documents list them.
var Signals = []Signal{Traces, Metrics, Logs}

// HTTPProtobuf is the one OTLP protocol hookwire exports with.
const HTTPProtobuf = "http/protobuf"

// Endpoint is the signal's endpoint as the environment sets it:
// OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT;
// "" when neither is set.
func (s Signal) Endpoint() string {
	if v := os.Getenv("OTEL_EXPORTER_OTLP_" + s.upper() + "_ENDPOINT"); v != "" {
		return v
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
}

// Protocol is the signal's OTLP protocol: OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL,
// else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf, the specification's
// default.
func (s Signal) Protocol() string {
	if v := os.Getenv("OTEL_EXPORTER_OTLP_" + s.upper() + "_PROTOCOL"); v != "" {
		return v
	}
	if v := os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL"); v != "" {
		return v
	}
	return HTTPProtobuf
}

// Exporter is OTEL_<SIGNAL>_EXPORTER, "otlp" when unset.
func (s Signal) Exporter() string {
	if v := strings.TrimSpace(os.Getenv("OTEL_" + s.upper() + "_EXPORTER")); v != "" {
		return v
	}
	return "otlp"
}

func (s Signal) upper() string { return strings.ToUpper(string(s)) }

// Disabled is true when OTEL_SDK_DISABLED is "true" (in any case), as the
// specification reads it.
func Disabled() bool {
	return strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true")
}

// Wanted are the signals the user asks to export: those with an endpoint
// set whose exporter is not "none", none when the SDK is disabled. Unlike
// the specification's default of localhost:4318, a signal with no
// endpoint is not exported: nothing leaves a host that was not told where
// to send it.
func Wanted() []Signal {
	if Disabled() {
		return nil
	}
	var out []Signal
	for _, s := range Signals {
		if s.Endpoint() != "" && s.Exporter() != "none" {
			out = append(out, s)
		}
	}
	return out
}

// Set is true when any signal is wanted.
func Set() bool { return len(Wanted()) > 0 }
