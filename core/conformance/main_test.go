package conformance_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// syncWriter is a strings.Builder that the hook's stderr reader and the test can share.
type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// hookBin is the fixture hook of testdata/hook, built once for the whole run.
var hookBin string

func TestMain(m *testing.M) { testbin.Main(m, "./testdata/hook", &hookBin) }
