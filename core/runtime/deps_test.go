package runtime

import (
	"os/exec"
	"strings"
	"testing"
)

// A program that embeds the runtime links the wire codec and nothing of
// the schema tooling: the JSON Schema reflector and what it brings (YAML,
// jsonparser, ordered maps) are for building the schema, not for speaking
// the protocol. Nor does it link the layers above the runtime: the skills'
// prompt hooks are a built-in the hookwire command gives it, and the
// conformance suite a client of its process code.
func TestTheRuntimeAndTheProtocolDoNotLinkTheSchemaToolingNorTheLayersAbove(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "../protocol").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed only %q", deps)
	}
	for _, dep := range deps {
		for _, banned := range []string{"invopop/jsonschema", "yaml", "jsonparser", "ordered-map", "santhosh-tekuri/jsonschema", "core/skillhooks", "core/conformance"} {
			if strings.Contains(dep, banned) {
				t.Errorf("the runtime links %s", dep)
			}
		}
	}
}
