package runtime

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// fixtureBin is the fixture hook, built once for the whole test run.
var fixtureBin string

func TestMain(m *testing.M) { testbin.Main(m, "./testdata/fixture", &fixtureBin) }

// fixture is the argv of the fixture hook with the given flags.
func fixture(flags ...string) []string { return append([]string{fixtureBin}, flags...) }

// logBuffer collects log records, for tests that check what was logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls until the log holds want, for at most a few seconds; the
// log is written by other goroutines.
func (b *logBuffer) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("log never said %q; it holds:\n%s", want, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func testLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

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
