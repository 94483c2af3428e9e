package wire

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"
	"github.com/hookwire/hookwire/core/internal/testlog"
)

// fixtureBin is the runtime's fixture hook, built once for the whole test run.
var fixtureBin string

func TestMain(m *testing.M) {
	if os.Getenv("WIRE_JOB_ROLE") != "" {
		os.Exit(m.Run()) // a part this binary plays in a test of its own, which needs no fixture
	}
	testbin.Main(m, "../runtime/testdata/fixture", &fixtureBin)
}

// fixture is the argv of the fixture hook with the given flags.
func fixture(flags ...string) []string { return append([]string{fixtureBin}, flags...) }

// testLogger is a logger whose records the test can read.
func testLogger() (*slog.Logger, *testlog.Buffer) { return testlog.New() }

// quick are process options that keep failing tests short.
func quick(log *slog.Logger) ProcessOptions {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return ProcessOptions{
		Conn:         ConnOptions{Logger: log},
		HelloTimeout: 2 * time.Second,
		StopTimeout:  300 * time.Millisecond,
	}
}

// spawn starts the fixture with flags and stops it when the test ends.
func spawn(t *testing.T, opts ProcessOptions, flags ...string) *Process {
	t.Helper()
	p, err := Spawn(context.Background(), Command{Name: "fx", Argv: fixture(flags...)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		if left := groupMembers(p.Pid()); len(left) > 0 {
			t.Errorf("processes left behind in group %d: %v", p.Pid(), left)
		}
	})
	return p
}
