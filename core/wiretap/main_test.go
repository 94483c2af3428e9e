package wiretap

import (
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// hook is the conformance suite's fixture: a correct hook, unless its
// -fault flag breaks one thing.
var hook string

func TestMain(m *testing.M) { testbin.Main(m, "../conformance/testdata/hook", &hook) }
