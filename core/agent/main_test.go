package agent

import (
	"context"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"
	"github.com/hookwire/hookwire/core/runtime"
)

// fixtureBin is the runtime's fixture hook, a real child process whose
// answers are chosen by flags, built once for the whole test run.
var fixtureBin string

func TestMain(m *testing.M) { testbin.Main(m, "../runtime/testdata/fixture", &fixtureBin) }

// fixture is a hook process running the fixture with flags.
func fixture(intercept, observe []string, flags ...string) runtime.ProcessConfig {
	return runtime.ProcessConfig{Enabled: true, Command: append([]string{fixtureBin}, flags...), Intercept: intercept, Observe: observe}
}

// startHooks runs a runtime with these hook processes until the test ends.
func startHooks(t *testing.T, defaults runtime.DefaultsConfig, procs map[string]runtime.ProcessConfig) *runtime.Runtime {
	t.Helper()
	rt, err := runtime.New(runtime.Config{Hooks: runtime.HooksConfig{Enabled: true, Defaults: defaults, Processes: procs}},
		runtime.Options{StopTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}
