package runtime

import (
	"log/slog"
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"
	"github.com/hookwire/hookwire/core/internal/testlog"
)

// fixtureBin is the fixture hook, built once for the whole test run.
var fixtureBin string

func TestMain(m *testing.M) { testbin.Main(m, "./testdata/fixture", &fixtureBin) }

// fixture is the argv of the fixture hook with the given flags.
func fixture(flags ...string) []string { return append([]string{fixtureBin}, flags...) }

// testLogger is a logger whose records the test can read.
func testLogger() (*slog.Logger, *testlog.Buffer) { return testlog.New() }
