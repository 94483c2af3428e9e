package lifecycle

import (
	"os/exec"
	"strings"
	"testing"
)

// The layer, its tests included, needs the standard library and the SDK
// only, like the SDK itself.
func TestTheLayerNeedsTheStandardLibraryAndTheSDKOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const sdk = "github.com/hookwire/hookwire/sdk-go"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, _, _ := strings.Cut(line, " ") // "pkg [pkg.test]" is pkg compiled for its tests
		switch pkg {
		case sdk, sdk + "/shell", sdk + "/lifecycle", sdk + "/lifecycle_test", sdk + "/lifecycle.test":
			continue // the SDK, its shell reader, the layer, its external tests and the test main
		}
		t.Errorf("the lifecycle layer depends on %s, which is neither the standard library nor the SDK", pkg)
	}
}
