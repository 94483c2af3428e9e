package main

import (
	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/telemetry"
)

// exportTelemetry attaches to opts the OpenTelemetry exporter the
// environment asks for (telemetry.FromEnv), if any, and returns what
// stops it: call it after the runtime's Close, so that its last calls are
// sent too.
func exportTelemetry(opts *runtime.Options, src audit.Source) (stop func()) {
	exported := telemetry.FromEnv(opts.Logger)
	exported.Attach(opts, src)
	return func() { exported.Close() }
}
