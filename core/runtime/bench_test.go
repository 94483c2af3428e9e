package runtime

import (
	"context"
	"log/slog"
	"testing"

	"github.com/hookwire/hookwire/core/internal/benchdata"
)

// These benchmarks measure the per-call path of the runtime; bench/, at the
// root of the repository, measures it against other hosts and hooks. Run
// them side by side, as in
//
//	go test -run '^$' -bench . -count 10 ./runtime | benchstat -

// BenchmarkRuntimeBeforeTool is a before_tool through the runtime to the
// fixture: the connection plus the deadline, the decoding and the chain.
func BenchmarkRuntimeBeforeTool(b *testing.B) {
	cfg := Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
		"fx": {Enabled: true, Command: fixture(), Intercept: []string{"before_tool"}},
	}}}
	r, err := New(cfg, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	call := benchdata.BeforeTool()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, d := r.BeforeTool(ctx, call); !d.Continue() {
			b.Fatalf("decision %+v", d)
		}
	}
}
