package agents

import (
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// The agents' data links no layer of hookwire above the protocol, so that
// every layer may read it.
func TestTheAgentsLinkNoLayerAbove(t *testing.T) {
	testbin.LinksNone(t, []string{"."}, "core/runtime", "core/host", "core/config", "core/wire", "core/bridge", "core/install", "core/schema")
}
