package runtime

import (
	"testing"

	"github.com/hookwire/hookwire/core/internal/testbin"
)

// A program that embeds the runtime links the wire codec and nothing of
// the schema tooling: the JSON Schema reflector and what it brings (YAML,
// jsonparser, ordered maps) are for building the schema, not for speaking
// the protocol. Nor does it link the layers above the runtime: the skills'
// prompt hooks are a built-in the hookwire command gives it, and the
// conformance suite a client of its process code.
func TestTheRuntimeAndTheProtocolDoNotLinkTheSchemaToolingNorTheLayersAbove(t *testing.T) {
	testbin.LinksNone(t, []string{".", "../protocol"}, "invopop/jsonschema", "yaml", "jsonparser", "ordered-map", "santhosh-tekuri/jsonschema", "core/skillhooks", "core/conformance")
}
