package runtime

import (
	"os"
	"path/filepath"
	"strings"
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

// The layers below the chain engine do not link it: the wire (the hook
// process and its lines) links neither the configuration nor the hosts,
// the configuration no host, and the hosts no engine; the conformance
// suite and the wiretap, clients of the wire, link no engine either.
func TestTheLayersBelowTheChainEngineDoNotLinkIt(t *testing.T) {
	testbin.LinksNone(t, []string{"../wire"}, "core/runtime", "core/config", "core/host")
	testbin.LinksNone(t, []string{"../config"}, "core/runtime", "core/host", "core/wire")
	testbin.LinksNone(t, []string{"../host"}, "core/runtime", "core/wire")
	testbin.LinksNone(t, []string{"../conformance", "../wiretap"}, "core/runtime")
}

// The chain engine names no host: a host is a value of package host that
// it asks (host.Host), so that one more host is one more value.
func TestTheChainEngineNamesNoHost(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"picoclaw", "claude", "gemini"} {
			if strings.Contains(strings.ToLower(string(b)), name) {
				t.Errorf("%s names %s: what a host does belongs in its value of package host", f, name)
			}
		}
	}
}
